import {
  type AccessLevel,
  ORGANIZATION_SETTINGS_DEFAULTS,
  type OrganizationRole,
  type Pipeline,
} from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { AccessRepository, Deps, PipelineAccessFacts } from '../ports';
import { actorWith } from '../use-case.fixture';
import { requireOrganization, requirePipeline, requirePipelineRevision, slugParts } from './authorize';

const acme = {
  id: 'org-1',
  slug: 'acme',
  name: 'Acme',
  createdAt: new Date(0),
  ...ORGANIZATION_SETTINGS_DEFAULTS,
};
const pipeline = { id: 'pipe-1', slug: 'web', organizationId: 'org-1' } as Pipeline;

const actor = actorWith;

/** Fake ports: the facts the repository would read for the user. */
function deps(
  facts: {
    role: OrganizationRole;
    levels?: AccessLevel[];
    hasTeams?: boolean;
    pipeline?: boolean;
    /** the organization's API IP allowlist */
    allowlist?: string;
  } | null,
) {
  const organization = { ...acme, allowedApiIpAddresses: facts?.allowlist ?? '' };
  const access: AccessRepository = {
    organization: async ({ organizationSlug }) =>
      facts && organizationSlug === 'acme' ? { organization, role: facts.role } : null,
    pipeline: async ({ organizationSlug, pipelineSlug }): Promise<PipelineAccessFacts | null> =>
      facts && organizationSlug === 'acme'
        ? {
            organization,
            role: facts.role,
            pipeline: facts.pipeline === false || pipelineSlug !== 'web' ? null : pipeline,
            teamAccessLevels: facts.levels ?? [],
            pipelineHasTeams: facts.hasTeams ?? true,
            pipelineCreator: null,
            contentRevision: facts.pipeline === false || pipelineSlug !== 'web' ? null : '1.1.1',
          }
        : null,
    // The narrow statement's row: the same facts without the pipeline's columns and its creator.
    pipelineRevision: async (input) => {
      const full = await access.pipeline(input);
      if (!full) return null;
      const { pipelineCreator: _, ...narrow } = full;
      return { ...narrow, pipeline: full.pipeline && { id: full.pipeline.id } };
    },
    memberships: async () => [],
    pipelineAccessIn: async () => [],
  };
  return { repos: { access }, clock: { now: () => new Date() }, newId: () => 'id' } as unknown as Deps;
}

const ref = { organization: 'acme', pipeline: 'web' };

// Both read the facts their own way and decide alike: every refusal of one is the other's (ADR 0016).
describe.each([
  ['requirePipeline', requirePipeline],
  ['requirePipelineRevision', requirePipelineRevision],
] as const)('%s', (_name, authorize) => {
  it('checks the scope before anything else, even for an organization that does not exist', async () => {
    await expect(
      authorize(deps(null))(
        actor(['read_builds']),
        'createBuild',
        { organization: 'nope', pipeline: 'x' },
        'build',
      ),
    ).rejects.toMatchObject({
      kind: 'forbidden',
      message: "Your access token doesn't have the write_builds scope",
    });
  });

  it('hides organizations the user is not a member of behind 404', async () => {
    await expect(
      authorize(deps(null))(actor(['read_builds']), 'getBuild', ref, 'read'),
    ).rejects.toMatchObject({
      kind: 'not_found',
      message: 'No organization found',
    });
  });

  it('hides organizations outside the token allow-list behind the same 404', async () => {
    await expect(
      authorize(deps({ role: 'admin' }))(actor(['read_builds'], ['org-2']), 'getBuild', ref, 'read'),
    ).rejects.toMatchObject({ kind: 'not_found', message: 'No organization found' });
  });

  it('answers 404 for a missing pipeline and for one the member cannot see', async () => {
    await expect(
      authorize(deps({ role: 'admin', pipeline: false }))(actor(['read_builds']), 'getBuild', ref, 'read'),
    ).rejects.toMatchObject({ message: 'No pipeline found' });
    await expect(
      authorize(deps({ role: 'member', levels: [], hasTeams: true }))(
        actor(['read_builds']),
        'getBuild',
        ref,
        'read',
      ),
    ).rejects.toMatchObject({ message: 'No pipeline found' });
  });

  it('answers 403 Forbidden when the team access level does not allow the action', async () => {
    await expect(
      authorize(deps({ role: 'member', levels: ['read_only'] }))(
        actor(['write_builds']),
        'createBuild',
        ref,
        'build',
      ),
    ).rejects.toMatchObject({ kind: 'forbidden', message: 'Forbidden' });
  });

  it('lets build_and_read build, admins do anything, and reports the access it found', async () => {
    const member = await authorize(deps({ role: 'member', levels: ['read_only', 'build_and_read'] }))(
      actor(['write_builds']),
      'createBuild',
      ref,
      'build',
    );
    expect(member.access).toBe('build_and_read');
    const admin = await authorize(deps({ role: 'admin' }))(
      actor(['write_builds']),
      'createBuild',
      ref,
      'manage',
    );
    expect(admin.access).toBe('admin');
  });

  it("refuses a request from outside the organization's IP allowlist with 403", async () => {
    const outside = { ...actor(['read_builds']), clientAddress: '10.0.0.9' };
    await expect(
      authorize(deps({ role: 'admin', allowlist: '192.168.0.0/16' }))(outside, 'getBuild', ref, 'read'),
    ).rejects.toMatchObject({ kind: 'forbidden', code: 'ip_address_not_allowed' });
    const inside = { ...actor(['read_builds']), clientAddress: '192.168.1.2' };
    const allowed = await authorize(deps({ role: 'admin', allowlist: '192.168.0.0/16' }))(
      inside,
      'getBuild',
      ref,
      'read',
    );
    expect(allowed.access).toBe('admin');
  });

  it('gives members build access to a pipeline that belongs to no team', async () => {
    const result = await authorize(deps({ role: 'member', levels: [], hasTeams: false }))(
      actor(['write_builds']),
      'createBuild',
      ref,
      'build',
    );
    expect(result.access).toBe('build_and_read');
  });
});

describe('slugs the database could not compare', () => {
  /** Like PostgreSQL: a NUL character in a text parameter is a fault, not a miss. */
  function strict(deps: Deps): Deps {
    const access = deps.repos.access;
    const refuse = (...slugs: string[]) => {
      if (slugs.some((slug) => slug.includes('\u0000'))) throw new Error('invalid byte sequence 0x00');
    };
    return {
      ...deps,
      repos: {
        ...deps.repos,
        access: {
          ...access,
          organization: async (input) => {
            refuse(input.organizationSlug);
            return access.organization(input);
          },
          pipeline: async (input) => {
            refuse(input.organizationSlug, input.pipelineSlug);
            return access.pipeline(input);
          },
          pipelineRevision: async (input) => {
            refuse(input.organizationSlug, input.pipelineSlug);
            return access.pipelineRevision(input);
          },
        },
      },
    };
  }

  it.each<[string, { organization: string; pipeline: string }, string]>([
    ['a NUL in the organization', { organization: 'ac\u0000me', pipeline: 'web' }, 'No organization found'],
    ['a NUL in the pipeline', { organization: 'acme', pipeline: 'w\u0000eb' }, 'No pipeline found'],
    ['a NUL in both', { organization: 'ac\u0000me', pipeline: 'w\u0000eb' }, 'No organization found'],
    ['an unpaired surrogate', { organization: 'acme', pipeline: 'web\ud800' }, 'No pipeline found'],
    ['a NUL pipeline elsewhere', { organization: 'nope', pipeline: '\u0000' }, 'No organization found'],
  ])('answers %s as a slug that names nothing', async (_case, target, message) => {
    for (const authorize of [requirePipeline, requirePipelineRevision]) {
      await expect(
        authorize(strict(deps({ role: 'admin' })))(actor(['read_builds']), 'getBuild', target, 'read'),
      ).rejects.toMatchObject({ kind: 'not_found', message });
    }
  });

  it('checks the scope first', async () => {
    await expect(
      requireOrganization(strict(deps({ role: 'admin' })))(actor([]), 'listPipelines', '\u0000'),
    ).rejects.toMatchObject({ kind: 'forbidden' });
  });
});

describe('requireOrganization', () => {
  it('returns the membership when scope, membership and allow-list agree', async () => {
    const result = await requireOrganization(deps({ role: 'member' }))(
      actor(['read_builds'], ['org-1']),
      'listBuilds',
      'acme',
    );
    expect(result).toEqual({ organization: acme, role: 'member' });
  });

  it('refuses a token without the scope with 403 naming it', async () => {
    await expect(
      requireOrganization(deps({ role: 'admin' }))(actor([]), 'listBuilds', 'acme'),
    ).rejects.toMatchObject({
      message: "Your access token doesn't have the read_builds scope",
    });
  });
});

describe('slugParts', () => {
  it('splits a slug key into exactly its parts, none empty, or answers null', () => {
    expect(slugParts('acme/web', 2)).toEqual(['acme', 'web']);
    expect(slugParts('acme/web/12', 3)).toEqual(['acme', 'web', '12']);
    for (const [slug, count] of [
      ['acme', 2],
      ['acme/web/12', 2],
      ['acme/web', 3],
      ['acme//web', 3],
      ['/web', 2],
      ['acme/', 2],
      ['', 2],
    ] as const) {
      expect(slugParts(slug, count), `${slug} in ${count}`).toBeNull();
    }
  });
});
