import type { AccessToken, User } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Deps, PipelineAccessFacts, PipelineSlugs } from '../ports';
import { hashAccessTokenSecret } from './access-token-secret';
import { authenticate, pipelineSlugs } from './authenticate';

const SECRET = `bkua_${'a'.repeat(40)}`;
const user: User = {
  id: 'u-1',
  name: 'Ada',
  email: 'ada@example.com',
  avatarUrl: null,
  createdAt: new Date(0),
};
const facts = {
  role: 'admin',
  teamAccessLevels: [],
  pipelineHasTeams: false,
} as unknown as PipelineAccessFacts;

/** A token repository holding one token; it records what each read asked to read ahead. */
function world(token: Partial<AccessToken> = {}) {
  const asked: Array<PipelineSlugs | undefined> = [];
  const stored: AccessToken = {
    id: 't-1',
    userId: user.id,
    tokenHash: hashAccessTokenSecret(SECRET),
    scopes: ['read_builds'],
    organizationIds: null,
    description: null,
    createdAt: new Date(0),
    expiresAt: null,
    revokedAt: null,
    ...token,
  };
  const deps = {
    repos: {
      accessTokens: {
        findByHash: async (hash: string, readAhead?: PipelineSlugs) => {
          asked.push(readAhead);
          if (hash !== stored.tokenHash) return null;
          return { token: stored, user, ...(readAhead ? { pipelineAccess: { ...readAhead, facts } } : {}) };
        },
      },
    },
    clock: { now: () => new Date(1_000) },
  } as unknown as Deps;
  return { deps, asked };
}

const web = { organizationSlug: 'acme', pipelineSlug: 'web' };

describe('authenticate', () => {
  it('gives the actor of a usable token', async () => {
    const { deps, asked } = world();
    const actor = await authenticate(deps)(`Bearer ${SECRET}`);
    expect(actor).toEqual({ tokenId: 't-1', user, scopes: ['read_builds'], organizationIds: null });
    expect(asked).toEqual([undefined]);
  });

  it('reads what the user may see of the named pipeline with the token, and keeps it on the actor', async () => {
    const { deps, asked } = world();
    const actor = await authenticate(deps)(`Bearer ${SECRET}`, web);
    expect(asked).toEqual([web]);
    expect(actor.pipelineAccess).toEqual({ ...web, facts });
  });

  it('does not ask to read ahead slugs the database could not compare', async () => {
    for (const slugs of [
      { organizationSlug: 'ac\u0000me', pipelineSlug: 'web' },
      { organizationSlug: 'acme', pipelineSlug: '\ud800' },
    ]) {
      const { deps, asked } = world();
      const actor = await authenticate(deps)(`Bearer ${SECRET}`, slugs);
      expect(asked).toEqual([undefined]);
      expect(actor.pipelineAccess).toBeUndefined();
    }
  });

  it.each([
    ['no header', undefined],
    ['another scheme', `Basic ${SECRET}`],
    ['a malformed token', 'Bearer bkua_short'],
    ['an unknown token', `Bearer bkua_${'b'.repeat(40)}`],
  ])('refuses %s with 401, read-ahead or not', async (_case, header) => {
    const { deps } = world();
    await expect(authenticate(deps)(header, web)).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it.each([
    ['revoked', { revokedAt: new Date(500) }],
    ['expired', { expiresAt: new Date(999) }],
  ])('refuses a %s token even when the pipeline was read with it', async (_case, token) => {
    const { deps } = world(token);
    await expect(authenticate(deps)(`Bearer ${SECRET}`, web)).rejects.toMatchObject({
      kind: 'unauthenticated',
    });
  });
});

describe('pipelineSlugs', () => {
  it('names the pipeline, and the build of it when the number is a build number', () => {
    expect(pipelineSlugs('acme', 'web')).toEqual({ organizationSlug: 'acme', pipelineSlug: 'web' });
    expect(pipelineSlugs('acme', 'web', null)).toEqual({ organizationSlug: 'acme', pipelineSlug: 'web' });
    expect(pipelineSlugs('acme', 'web', '12')).toEqual({
      organizationSlug: 'acme',
      pipelineSlug: 'web',
      buildNumber: 12,
    });
    for (const number of ['0', '012', '1e3', '-1', 'x', '99999999999']) {
      expect(pipelineSlugs('acme', 'web', number), number).toEqual({
        organizationSlug: 'acme',
        pipelineSlug: 'web',
      });
    }
  });
});
