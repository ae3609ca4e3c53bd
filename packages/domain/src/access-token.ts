import type { AccessToken } from './entities';

/** A token works until it is revoked, and until the moment it expires (exclusive), if it ever does. */
export function isAccessTokenUsable(token: Pick<AccessToken, 'revokedAt' | 'expiresAt'>, now: Date): boolean {
  if (token.revokedAt) return false;
  return token.expiresAt === null || token.expiresAt > now;
}
