import { unauthenticated } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireScope } from '../auth/authorize';
import type { Deps } from '../ports';

/**
 * Revokes the token the request was made with. Authentication reads the token from the database on
 * every request, so it stops working at once in every server process. Of two concurrent revocations
 * one wins; the other finds the token already revoked and answers 401, as any later request does.
 */
export const deleteAccessToken =
  (deps: Deps) =>
  async (actor: Actor): Promise<void> => {
    requireScope(actor, 'deleteAccessToken');
    if (!(await deps.repos.accessTokens.revoke(actor.tokenId, deps.clock.now()))) throw unauthenticated();
  };
