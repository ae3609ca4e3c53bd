import type { Pipeline } from '@ci/domain';
import { frozenMemory } from './frozen-memory';

/** A pipeline as this process read it, and the revision of its row it read (Migration20261121170000). */
export interface RememberedPipeline {
  id: string;
  /** `pipelines.revision` (a bigint, as pg reads it: text). */
  revision: string;
  /** Frozen: shared by every request that reads the pipeline at this revision. */
  pipeline: Pipeline;
}

/**
 * The pipelines this process read through the access statements, by organization and pipeline slug, each
 * with the revision it was read at (ADR 0009). A statement that names a pipeline passes the id and revision
 * remembered for the slugs, and PostgreSQL sends the pipeline's columns only when the row is another or at
 * another revision ({@link rememberedColumns} in pipeline.repository.ts): an answer always shows the row as
 * it is now, whichever process changed it, as the revision lives in the row. Per database, bounded: past
 * `capacity` pipelines the longest remembered is forgotten.
 */
export interface PipelineMemory {
  recall(organizationSlug: string, pipelineSlug: string): RememberedPipeline | undefined;
  remember(organizationSlug: string, pipelineSlug: string, remembered: RememberedPipeline): void;
}

export function pipelineMemory(capacity = 1000): PipelineMemory {
  const bySlugs = frozenMemory<RememberedPipeline>(capacity);
  // The first slug's length first: no two pairs of slugs make one key.
  const key = (organizationSlug: string, pipelineSlug: string) =>
    `${organizationSlug.length}:${organizationSlug}/${pipelineSlug}`;
  return {
    recall: (organizationSlug, pipelineSlug) => bySlugs.get(key(organizationSlug, pipelineSlug)),
    remember: (organizationSlug, pipelineSlug, remembered) =>
      bySlugs.set(key(organizationSlug, pipelineSlug), remembered),
  };
}
