import type { Annotation, AnnotationStyle } from '@ci/domain';
import type { ParentCount, ParentWindow } from '../ports';

export interface AnnotationRepository {
  /**
   * Runs `change` on the build's annotation of `context` (null when there is none) while no other write
   * to that context can run, in any process, and stores what it returns (it may throw a refusal: then
   * nothing is written). So concurrent appends to one context each see the one before.
   */
  write(
    key: { buildId: string; context: string },
    change: (current: Annotation | null) => Annotation,
  ): Promise<Annotation>;
  /** Removes the build's annotation by its context or its id; whether there was one. */
  delete(key: { buildId: string } & ({ context: string } | { id: string })): Promise<boolean>;
  /** The annotations of these ids that exist, in any order (GraphQL's reads by id). */
  byIds(ids: readonly string[]): Promise<Annotation[]>;
  /** A window of each build's annotations, newest first (creation time, then id), or by priority first. */
  listOfBuilds(windows: readonly ParentWindow[], filter?: AnnotationFilter): Promise<Annotation[]>;
  countOfBuilds(buildIds: readonly string[], filter?: AnnotationFilter): Promise<ParentCount[]>;
}

/** Which annotations a list covers (only these styles, when given) and in what order. */
export interface AnnotationFilter {
  styles: readonly AnnotationStyle[] | null;
  /** highest priority first, then newest first (GraphQL's `PRIORITY_RECENTLY_CREATED`) */
  byPriority: boolean;
}
