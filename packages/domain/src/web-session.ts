/**
 * A signed-in browser: the access token it signed in with (referenced, never copied) and how long the
 * session lasts. The session's secret lives only in its cookie; the server keeps its SHA-256.
 */
export interface WebSession {
  id: string;
  /** hex SHA-256 of the cookie's secret */
  sessionHash: string;
  accessTokenId: string;
  createdAt: Date;
  expiresAt: Date;
}

/** How long a sign-in lasts: a working day and a half, then the token is pasted again. */
export const WEB_SESSION_LIFETIME_MS = 36 * 60 * 60 * 1000;

/** A session works until the moment it expires (exclusive); its token's own expiry and revocation also end it. */
export function isWebSessionUsable(session: Pick<WebSession, 'expiresAt'>, now: Date): boolean {
  return session.expiresAt > now;
}
