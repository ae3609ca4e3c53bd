import { type AccessToken, isAccessTokenUsable, type User, unauthenticated } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireScope } from '../auth/authorize';
import type { Deps } from '../ports';

/** The token a request was made with, and its user: what `GET /access-token` shows. */
export interface AccessTokenView {
  token: AccessToken;
  user: User;
}

/**
 * Any valid token may read itself (the operation needs no scope). The token is read again by id, and
 * judged as authentication judges it: revoked (or expired) since then, it answers 401.
 */
export const getAccessToken =
  (deps: Deps) =>
  async (actor: Actor): Promise<AccessTokenView> => {
    requireScope(actor, 'getAccessToken');
    const found = await deps.repos.accessTokens.findById(actor.tokenId);
    if (!found || !isAccessTokenUsable(found.token, deps.clock.now())) throw unauthenticated();
    return found;
  };
