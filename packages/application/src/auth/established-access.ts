import type { PipelineAccess } from '@ci/domain';
import type { Actor } from './actor';

/**
 * What the domain's access rule decided about one pipeline for one actor, in the request being served:
 * a later use case of the same request (a pipeline's builds under `pipeline(slug:)`) acts within it
 * instead of reading the facts again. It names the actor object, which `authenticate` makes anew for
 * every request, so a decision never serves another request or caller: nothing is kept across requests,
 * and a changed team association or a revoked token applies to the next request at once.
 */
export interface EstablishedAccess {
  readonly actor: Actor;
  readonly pipelineId: string;
  readonly access: Exclude<PipelineAccess, 'none'>;
}

/** The decision to hand on with a pipeline the actor may see; none for one it may not. */
export function establishAccess(decided: {
  actor: Actor;
  pipelineId: string;
  access: PipelineAccess;
}): EstablishedAccess | undefined {
  const { actor, pipelineId, access } = decided;
  return access === 'none' ? undefined : { actor, pipelineId, access };
}

/**
 * The access decided for this actor on this pipeline in this request, if any: a decision for another
 * actor object (another request) or another pipeline counts for nothing.
 */
export function accessEstablished(asked: {
  actor: Actor;
  pipelineId: string;
  established: EstablishedAccess | undefined;
}): EstablishedAccess['access'] | undefined {
  const { actor, pipelineId, established } = asked;
  return established?.actor === actor && established.pipelineId === pipelineId
    ? established.access
    : undefined;
}
