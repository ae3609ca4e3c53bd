import type { Pipeline } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { BuildView, Deps, PipelineAccessFacts } from '../ports';
import { actorWith } from '../use-case.fixture';
import { getBuild } from './get-build';

const organization = { id: 'org-1', slug: 'acme', name: 'Acme', createdAt: new Date(0) };
const pipeline = { id: 'pipe-1', slug: 'web', organizationId: 'org-1' } as Pipeline;
const facts: PipelineAccessFacts = {
  organization,
  role: 'admin',
  pipeline,
  teamAccessLevels: [],
  pipelineHasTeams: false,
  contentRevision: '1.1.1',
};
const viewOf = (number: number) => ({ build: { number }, pipeline, jobs: [] }) as unknown as BuildView;

/** The repository's reads, recorded. */
function deps(reads: string[]) {
  return {
    repos: {
      access: {
        pipeline: async () => {
          reads.push('access');
          return facts;
        },
      },
      builds: {
        findByNumber: async ({
          number,
          includeRetriedJobs,
        }: {
          number: number;
          includeRetriedJobs: boolean;
        }) => {
          reads.push(`build ${number}${includeRetriedJobs ? ' with retries' : ''}`);
          return viewOf(number);
        },
      },
    },
  } as unknown as Deps;
}

const actor = (build: BuildView | null | undefined, buildNumber = 7) => ({
  ...actorWith(['read_builds']),
  pipelineAccess: {
    organizationSlug: 'acme',
    pipelineSlug: 'web',
    facts,
    ...(build !== undefined ? { buildNumber, build } : {}),
  },
});
const ref = { organization: 'acme', pipeline: 'web', number: 7 };

describe('getBuild with the build read with the token', () => {
  it('answers the build read ahead without reading it again', async () => {
    const reads: string[] = [];
    const result = await getBuild(deps(reads))(actor(viewOf(7)), ref);
    expect(result.view.build.number).toBe(7);
    expect(reads).toEqual([]);
  });

  it('answers 404 when the read found no such build', async () => {
    const reads: string[] = [];
    await expect(getBuild(deps(reads))(actor(null), ref)).rejects.toMatchObject({
      kind: 'not_found',
      message: 'No build found',
    });
    expect(reads).toEqual([]);
  });

  it('refuses as the rules decide, the build read with the token or not', async () => {
    const reads: string[] = [];
    const hidden = { ...facts, role: 'member' as const, teamAccessLevels: [], pipelineHasTeams: true };
    const member = {
      ...actor(viewOf(7)),
      pipelineAccess: { ...actor(viewOf(7)).pipelineAccess, facts: hidden },
    };
    await expect(getBuild(deps(reads))(member, ref)).rejects.toMatchObject({ message: 'No pipeline found' });
    const elsewhere = { ...actor(viewOf(7)), organizationIds: ['org-2'] };
    await expect(getBuild(deps(reads))(elsewhere, ref)).rejects.toMatchObject({
      message: 'No organization found',
    });
    const noScope = { ...actor(viewOf(7)), scopes: [] };
    await expect(getBuild(deps(reads))(noScope, ref)).rejects.toMatchObject({ kind: 'forbidden' });
    expect(reads).toEqual([]);
  });

  it('reads the build when the read ahead was of another build, of none, or without retried jobs', async () => {
    const reads: string[] = [];
    await getBuild(deps(reads))(actor(viewOf(8), 8), ref);
    await getBuild(deps(reads))(actor(undefined), ref);
    await getBuild(deps(reads))(actor(viewOf(7)), ref, { includeRetriedJobs: true });
    await getBuild(deps(reads))(actor(viewOf(7)), { ...ref, pipeline: 'WEB' });
    expect(reads).toEqual(['build 7', 'build 7', 'build 7 with retries', 'access', 'build 7']);
  });
});
