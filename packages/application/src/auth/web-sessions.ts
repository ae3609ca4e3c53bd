import { hash, randomBytes } from 'node:crypto';
import {
  isAccessTokenUsable,
  isWebSessionUsable,
  unauthenticated,
  WEB_SESSION_LIFETIME_MS,
} from '@ci/domain';
import type { Deps } from '../ports';
import { sameHash, sha256Hex } from './access-token-secret';
import { type Actor, actorOf } from './actor';
import { authenticate } from './authenticate';

/** What a browser holds after signing in: the cookie's secret and the token its page sends on changes. */
export interface SignedIn {
  secret: string;
  csrfToken: string;
  expiresAt: Date;
}

const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The token a session's page sends in a header with every change: derived from the cookie's secret, so
 * nothing more is stored, and unknowable to another site, which can neither read the cookie nor the page.
 */
export function csrfTokenFor(secret: string): string {
  return hash('sha256', `csrf:${secret}`, 'base64url');
}

/**
 * Signs a browser in with an API token, as `Authorization: Bearer` would authenticate it (401 otherwise):
 * a new session referencing the token, so revoking the token ends the session too.
 */
export const signIn =
  (deps: Deps) =>
  async (token: string, clientAddress: string | null = null): Promise<SignedIn> => {
    const actor = await authenticate(deps)(`Bearer ${token.trim()}`, clientAddress);
    const secret = randomBytes(32).toString('base64url');
    const now = deps.clock.now();
    const expiresAt = new Date(now.getTime() + WEB_SESSION_LIFETIME_MS);
    // Sessions nobody signed out of end here, swept by their expiry's index, with no timer of their own.
    await deps.repos.webSessions.deleteExpired(now);
    await deps.repos.webSessions.insert({
      id: deps.newId(),
      sessionHash: sha256Hex(secret),
      accessTokenId: actor.tokenId,
      createdAt: now,
      expiresAt,
    });
    return { secret, csrfToken: csrfTokenFor(secret), expiresAt };
  };

/** A session cookie's secret → the actor of its token; an unknown or expired session, or an unusable token → 401. */
export const authenticateSession =
  (deps: Deps) =>
  async (secret: string, clientAddress: string | null = null): Promise<Actor> => {
    if (!SECRET_PATTERN.test(secret)) throw unauthenticated();
    const sessionHash = sha256Hex(secret);
    const found = await deps.repos.webSessions.findByHash(sessionHash);
    if (!found || !sameHash(found.session.sessionHash, sessionHash)) throw unauthenticated();
    const now = deps.clock.now();
    const { session, token, user } = found;
    if (!isWebSessionUsable(session, now) || !isAccessTokenUsable(token, now)) throw unauthenticated();
    return actorOf(token, user, clientAddress);
  };

/** Ends the session whose cookie holds this secret; signing out twice is no error. */
export const signOut =
  (deps: Deps) =>
  async (secret: string): Promise<void> => {
    if (!SECRET_PATTERN.test(secret)) return;
    await deps.repos.webSessions.deleteByHash(sha256Hex(secret));
  };
