import type { AccessToken, Scope, User } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import type { AccessTokenRepository, Deps } from '../ports';
import { getUser } from '../users/get-user';
import { deleteAccessToken } from './delete-access-token';
import { getAccessToken } from './get-access-token';

const NOW = new Date('2026-11-21T10:04:05.123Z');
const AUTHENTICATION_REQUIRED = /^Authentication required\. Please supply a valid API Access Token/;
const user: User = { id: 'u', name: 'Ada', email: 'ada@x', avatarUrl: null, createdAt: new Date(0) };
const token: AccessToken = {
  id: 'tok-1',
  userId: 'u',
  tokenHash: 'ab'.repeat(32),
  scopes: ['read_builds'],
  organizationIds: null,
  description: 'ci',
  createdAt: new Date('2026-11-01T00:00:00.000Z'),
  expiresAt: null,
  revokedAt: null,
};

function actor(scopes: Scope[] = [], tokenId = 'tok-1'): Actor {
  return { tokenId, user, scopes, organizationIds: null };
}

/** An in-memory token table that revokes as the SQL does: only a token not revoked yet. */
function deps(rows: AccessToken[] = [{ ...token }]) {
  const accessTokens: Pick<AccessTokenRepository, 'findById' | 'revoke'> = {
    findById: async (id) => {
      const found = rows.find((row) => row.id === id);
      return found ? { token: { ...found }, user } : null;
    },
    revoke: async (id, at) => {
      const found = rows.find((row) => row.id === id && !row.revokedAt);
      if (!found) return false;
      found.revokedAt = at;
      return true;
    },
  };
  return { rows, deps: { repos: { accessTokens }, clock: { now: () => NOW } } as unknown as Deps };
}

describe('getAccessToken', () => {
  it('reads the token the request was made with, and its user, whatever the scopes', async () => {
    const { deps: d } = deps();
    await expect(getAccessToken(d)(actor([]))).resolves.toEqual({ token, user });
  });

  it.each<[string, Partial<AccessToken> | null]>([
    ['was revoked since authentication', { revokedAt: new Date(NOW.getTime() - 1) }],
    ['expired since authentication', { expiresAt: NOW }],
    ['no longer exists', null],
  ])('answers 401 when the token %s', async (_case, change) => {
    const { deps: d } = deps(change ? [{ ...token, ...change }] : []);
    await expect(getAccessToken(d)(actor())).rejects.toMatchObject({
      kind: 'unauthenticated',
      message: expect.stringMatching(AUTHENTICATION_REQUIRED),
    });
  });
});

describe('deleteAccessToken', () => {
  it('revokes the token the request was made with, at the clock time, and no other', async () => {
    const other = { ...token, id: 'tok-2' };
    const { deps: d, rows } = deps([{ ...token }, other]);
    await deleteAccessToken(d)(actor([]));
    expect(rows.map((row) => [row.id, row.revokedAt])).toEqual([
      ['tok-1', NOW],
      ['tok-2', null],
    ]);
  });

  it('answers 401 to the loser of two concurrent revocations, and leaves the first time in place', async () => {
    const { deps: d, rows } = deps();
    const results = await Promise.allSettled([deleteAccessToken(d)(actor()), deleteAccessToken(d)(actor())]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ kind: 'unauthenticated' });
    expect(rows[0]?.revokedAt).toBe(NOW);
  });
});

describe('getUser', () => {
  it("answers the token's user with read_user", async () => {
    await expect(getUser({} as Deps)(actor(['read_user']))).resolves.toBe(user);
  });

  it('refuses a token without read_user with 403 naming the scope', async () => {
    await expect(getUser({} as Deps)(actor(['read_organizations']))).rejects.toMatchObject({
      kind: 'forbidden',
      message: "Your access token doesn't have the read_user scope",
    });
  });
});
