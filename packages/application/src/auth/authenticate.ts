import { isAccessTokenUsable, unauthenticated } from '@ci/domain';
import type { Deps } from '../ports';
import { hashAccessTokenSecret, looksLikeAccessToken, sameHash } from './access-token-secret';
import { type Actor, actorOf } from './actor';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * `Authorization: Bearer <token>` → the actor; any missing, malformed, unknown, expired or revoked token → 401.
 * `clientAddress` is the request's network address, which organizations' API IP allowlists judge.
 */
export const authenticate =
  (deps: Deps) =>
  async (authorization: string | undefined, clientAddress: string | null = null): Promise<Actor> => {
    const secret = authorization?.match(BEARER)?.[1];
    if (!secret || !looksLikeAccessToken(secret)) throw unauthenticated();
    const tokenHash = hashAccessTokenSecret(secret);
    const found = await deps.repos.accessTokens.findByHash(tokenHash);
    if (!found || !sameHash(found.token.tokenHash, tokenHash)) throw unauthenticated();
    const { token, user } = found;
    if (!isAccessTokenUsable(token, deps.clock.now())) throw unauthenticated();
    return actorOf(token, user, clientAddress);
  };
