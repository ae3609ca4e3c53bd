import { ORGANIZATION_SETTINGS_DEFAULTS, type Pipeline } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { BuildView, Deps, PipelineAccessFacts } from '../ports';
import { actorWith } from '../use-case.fixture';
import { getBuild } from './get-build';

const organization = {
  id: 'org-1',
  slug: 'acme',
  name: 'Acme',
  createdAt: new Date(0),
  ...ORGANIZATION_SETTINGS_DEFAULTS,
};
const pipeline = { id: 'pipe-1', slug: 'web', organizationId: 'org-1' } as Pipeline;
const facts: PipelineAccessFacts = {
  organization,
  role: 'admin',
  pipeline,
  teamAccessLevels: [],
  pipelineHasTeams: false,
  pipelineCreator: null,
  contentRevision: '1.1.1',
};
const viewOf = (number: number) => ({ build: { number }, pipeline, jobs: [] }) as unknown as BuildView;

/** The repository's reads, recorded: the access alone, or with the build in the same statement. */
function deps(reads: string[], read: PipelineAccessFacts | null = facts, found = true) {
  return {
    repos: {
      access: {
        pipeline: async () => {
          reads.push('access');
          return read;
        },
      },
      builds: {
        findWithAccess: async ({
          number,
          includeRetriedJobs,
        }: {
          number: number;
          includeRetriedJobs: boolean;
        }) => {
          reads.push(`access with build ${number}${includeRetriedJobs ? ' with retries' : ''}`);
          return { facts: read, build: found && read?.pipeline ? viewOf(number) : null };
        },
      },
    },
  } as unknown as Deps;
}

const actor = actorWith(['read_builds']);
const ref = { organization: 'acme', pipeline: 'web', number: 7 };

describe('getBuild', () => {
  it('reads the access and the build in one statement, and gives the answer revision read with them', async () => {
    const reads: string[] = [];
    const result = await getBuild(deps(reads))(actor, ref, { includeRetriedJobs: true });
    expect(result.view.build.number).toBe(7);
    expect(result.revision).toContain('1.1.1 admin');
    expect(reads).toEqual(['access with build 7 with retries']);
  });

  it('answers 404 for a build that is not there, or a path without a build number', async () => {
    await expect(getBuild(deps([], facts, false))(actor, ref)).rejects.toMatchObject({
      message: 'No build found',
    });
    const reads: string[] = [];
    await expect(getBuild(deps(reads))(actor, { ...ref, number: null })).rejects.toMatchObject({
      message: 'No build found',
    });
    expect(reads).toEqual(['access']);
  });

  it('refuses as the rules decide, whatever build was read beside the access', async () => {
    const reads: string[] = [];
    const hidden = { ...facts, role: 'member' as const, teamAccessLevels: [], pipelineHasTeams: true };
    await expect(getBuild(deps(reads, hidden))(actor, ref)).rejects.toMatchObject({
      message: 'No pipeline found',
    });
    const elsewhere = { ...actor, organizationIds: ['org-2'] };
    await expect(getBuild(deps(reads))(elsewhere, ref)).rejects.toMatchObject({
      message: 'No organization found',
    });
    await expect(getBuild(deps(reads))({ ...actor, scopes: [] }, ref)).rejects.toMatchObject({
      kind: 'forbidden',
    });
    expect(reads).toEqual(['access with build 7', 'access with build 7']);
  });
});
