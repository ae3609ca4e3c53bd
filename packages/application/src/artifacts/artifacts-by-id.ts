import type { Artifact } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireScope } from '../auth/authorize';
import { addressInBuild, seenThroughBuilds } from '../builds/builds-by-id';
import type { Deps } from '../ports';
import { type ArtifactRef, deleteArtifact } from './artifacts';

/**
 * The artifact use cases for a transport that names artifacts by UUID (GraphQL): an artifact is seen as
 * its build is, and the delete finds the artifact's REST address and calls the REST use case, so every
 * rule, refusal and message is REST's.
 */

/** These artifacts as the actor may see them: `read_artifacts` (as REST's get), then their builds'. */
export const getArtifactsById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<Artifact | null>> => {
    requireScope(actor, 'getArtifact');
    return seenThroughBuilds(deps, actor, ids, (wanted) => deps.repos.artifacts.byIds(wanted));
  };

/** The REST address of an artifact the actor's organizations hold. */
async function addressArtifact(deps: Deps, actor: Actor, artifactId: string | null): Promise<ArtifactRef> {
  const { found, ref } = await addressInBuild(deps, actor, {
    id: artifactId,
    read: async (id) => (await deps.repos.artifacts.byIds([id]))[0],
    resource: 'artifact',
  });
  return { ...ref, job: found.jobId, artifact: found.id };
}

/**
 * Deletes the artifact with this UUID (null: the id named no artifact) as `DELETE …/artifacts/{id}`
 * does; answers the artifact as it was.
 */
export const deleteArtifactById =
  (deps: Deps) =>
  async (actor: Actor, artifactId: string | null): Promise<Artifact> => {
    requireScope(actor, 'deleteArtifact');
    return deleteArtifact(deps)(actor, await addressArtifact(deps, actor, artifactId));
  };
