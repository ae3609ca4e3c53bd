import type { Operation } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { type AuthorizedRevision, requirePipelineRevision } from '../auth/authorize';
import type { Deps } from '../ports';

/**
 * What every answer about a pipeline's builds depends on besides the request's own path and query: the
 * content revision, the access the actor has, and the token (its user and scopes). Equal revisions mean
 * equal answers, so transports derive their `ETag` and response cache keys from it (ADR 0016).
 */
export function answerRevision(
  actor: Actor,
  authorized: Pick<AuthorizedRevision, 'contentRevision' | 'access'>,
): string | null {
  if (authorized.contentRevision === null) return null;
  return `${authorized.contentRevision} ${authorized.access} ${actor.tokenId} ${actor.scopes.join(',')}`;
}

/**
 * The {@link answerRevision} of a pipeline's builds, authorized as `operation` reading the pipeline: one
 * narrow statement (access and revision, not the pipeline), read before anything the answer shows, so an
 * answer is never older than its revision.
 */
export const pipelineRevision =
  (deps: Deps) =>
  async (
    actor: Actor,
    ref: { organization: string; pipeline: string },
    operation: Operation,
  ): Promise<string | null> =>
    answerRevision(actor, await requirePipelineRevision(deps)(actor, operation, ref, 'read'));
