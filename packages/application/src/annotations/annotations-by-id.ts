import type { Annotation } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireScope } from '../auth/authorize';
import type { BuildResult } from '../builds/build-result';
import { addressInBuild, seenThroughBuilds } from '../builds/builds-by-id';
import type { BuildRef } from '../builds/get-build';
import type { Deps } from '../ports';
import { deleteAnnotation } from './annotations';

/**
 * The annotation use cases for a transport that names annotations by UUID (GraphQL): an annotation is
 * seen as its build is, and the delete finds the annotation's REST address and calls the REST use case,
 * so every rule, refusal and message is REST's.
 */

/** These annotations as the actor may see them: `read_builds` (as REST's list), then their builds'. */
export const getAnnotationsById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<Annotation | null>> => {
    requireScope(actor, 'listAnnotations');
    return seenThroughBuilds(deps, actor, ids, (wanted) => deps.repos.annotations.byIds(wanted));
  };

/** The REST address of an annotation the actor's organizations hold. */
async function addressAnnotation(
  deps: Deps,
  actor: Actor,
  annotationId: string | null,
): Promise<BuildRef & { annotation: string }> {
  const { found, ref } = await addressInBuild(deps, actor, {
    id: annotationId,
    read: async (id) => (await deps.repos.annotations.byIds([id]))[0],
    resource: 'annotation',
  });
  return { ...ref, annotation: found.id };
}

/**
 * Deletes the annotation with this UUID (null: the id named no annotation) as
 * `DELETE …/builds/{n}/annotations/{id}` does; answers its build and the id it had.
 */
export const deleteAnnotationById =
  (deps: Deps) =>
  async (
    actor: Actor,
    annotationId: string | null,
  ): Promise<{ build: BuildResult; deletedAnnotationId: string }> => {
    requireScope(actor, 'deleteAnnotation');
    const ref = await addressAnnotation(deps, actor, annotationId);
    return { build: await deleteAnnotation(deps)(actor, ref), deletedAnnotationId: ref.annotation };
  };
