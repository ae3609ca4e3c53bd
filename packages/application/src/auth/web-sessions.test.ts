import type { AccessToken, WebSession } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Deps } from '../ports';
import { ADA, tokenOf } from '../use-case.fixture';
import { authenticateSession, csrfTokenFor, signIn, signOut } from './web-sessions';

const SECRET = `bkua_${'b'.repeat(40)}`;
const user = ADA;

/** One token and a session store in memory; the clock is moved by the test. */
function world(token: Partial<AccessToken> = {}) {
  const stored = tokenOf(SECRET, {
    scopes: ['read_builds', 'write_builds'],
    organizationIds: ['org-1'],
    ...token,
  });
  const sessions = new Map<string, WebSession>();
  const clock = { at: new Date('2026-11-27T10:00:00Z') };
  const deps = {
    repos: {
      accessTokens: {
        findByHash: async (hash: string) => (hash === stored.tokenHash ? { token: stored, user } : null),
      },
      webSessions: {
        insert: async (session: WebSession) => void sessions.set(session.sessionHash, session),
        findByHash: async (hash: string) => {
          const session = sessions.get(hash);
          return session ? { session, token: stored, user } : null;
        },
        deleteExpired: async (at: Date) => {
          for (const [hash, session] of sessions) if (session.expiresAt <= at) sessions.delete(hash);
        },
        deleteByHash: async (hash: string) => void sessions.delete(hash),
      },
    },
    clock: { now: () => clock.at },
    newId: () => 's-1',
  } as unknown as Deps;
  return { deps, sessions, stored, clock };
}

describe('web sessions', () => {
  it('sign a browser in with an API token and keep only the hash of the cookie secret', async () => {
    const { deps, sessions } = world();
    const signed = await signIn(deps)(SECRET);
    expect(signed.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signed.csrfToken).toBe(csrfTokenFor(signed.secret));
    const [session] = [...sessions.values()];
    expect(session?.accessTokenId).toBe('t-1');
    expect(session?.sessionHash).not.toContain(signed.secret);
    expect(JSON.stringify(session)).not.toContain(SECRET);
  });

  it('authenticate a session as its token, with the same scopes and organizations', async () => {
    const { deps } = world();
    const { secret } = await signIn(deps)(SECRET);
    const actor = await authenticateSession(deps)(secret, '10.0.0.1');
    expect(actor).toEqual({
      tokenId: 't-1',
      user,
      scopes: ['read_builds', 'write_builds'],
      organizationIds: ['org-1'],
      clientAddress: '10.0.0.1',
    });
  });

  it('refuse to sign in with an unknown token', async () => {
    const { deps, sessions } = world();
    await expect(signIn(deps)(`bkua_${'c'.repeat(40)}`)).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect(sessions.size).toBe(0);
  });

  it('refuse an unknown or malformed session secret', async () => {
    const { deps } = world();
    await expect(authenticateSession(deps)('x'.repeat(43))).rejects.toMatchObject({
      kind: 'unauthenticated',
    });
    await expect(authenticateSession(deps)('short')).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it('end a session when it expires', async () => {
    const { deps, clock } = world();
    const { secret, expiresAt } = await signIn(deps)(SECRET);
    clock.at = expiresAt;
    await expect(authenticateSession(deps)(secret)).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it('end a session when its token is revoked', async () => {
    const { deps, stored } = world();
    const { secret } = await signIn(deps)(SECRET);
    stored.revokedAt = new Date(0);
    await expect(authenticateSession(deps)(secret)).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it('sign out: the session answers 401 afterwards, and signing out again is no error', async () => {
    const { deps } = world();
    const { secret } = await signIn(deps)(SECRET);
    await signOut(deps)(secret);
    await expect(authenticateSession(deps)(secret)).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(signOut(deps)(secret)).resolves.toBeUndefined();
  });

  it('sweep expired sessions when someone signs in', async () => {
    const { deps, sessions, clock } = world();
    const first = await signIn(deps)(SECRET);
    clock.at = first.expiresAt;
    await signIn(deps)(SECRET);
    expect(sessions.size).toBe(1);
  });

  it('give each session its own CSRF token', () => {
    expect(csrfTokenFor('a'.repeat(43))).not.toBe(csrfTokenFor('b'.repeat(43)));
  });
});
