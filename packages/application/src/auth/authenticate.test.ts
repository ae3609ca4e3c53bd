import type { AccessToken } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Deps } from '../ports';
import { ADA, tokenOf } from '../use-case.fixture';
import { hashAccessTokenSecret } from './access-token-secret';
import { authenticate } from './authenticate';

const SECRET = `bkua_${'a'.repeat(40)}`;
const user = ADA;
/** A token repository holding one token; it records the hash each read asked for. */
function world(token: Partial<AccessToken> = {}) {
  const asked: string[] = [];
  const stored = tokenOf(SECRET, { ...token });
  const deps = {
    repos: {
      accessTokens: {
        findByHash: async (hash: string) => {
          asked.push(hash);
          if (hash !== stored.tokenHash) return null;
          return { token: stored, user };
        },
      },
    },
    clock: { now: () => new Date(1_000) },
  } as unknown as Deps;
  return { deps, asked };
}

describe('authenticate', () => {
  it('gives the actor of a usable token', async () => {
    const { deps, asked } = world();
    const actor = await authenticate(deps)(`Bearer ${SECRET}`);
    expect(actor).toEqual({
      tokenId: 't-1',
      user,
      scopes: ['read_builds'],
      organizationIds: null,
      clientAddress: null,
    });
    expect(asked).toEqual([hashAccessTokenSecret(SECRET)]);
  });

  it.each([
    ['no header', undefined],
    ['another scheme', `Basic ${SECRET}`],
    ['a malformed token', 'Bearer bkua_short'],
    ['an unknown token', `Bearer bkua_${'b'.repeat(40)}`],
  ])('refuses %s with 401', async (_case, header) => {
    const { deps } = world();
    await expect(authenticate(deps)(header)).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it.each([
    ['revoked', { revokedAt: new Date(500) }],
    ['expired', { expiresAt: new Date(999) }],
  ])('refuses a %s token', async (_case, token) => {
    const { deps } = world(token);
    await expect(authenticate(deps)(`Bearer ${SECRET}`)).rejects.toMatchObject({
      kind: 'unauthenticated',
    });
  });
});
