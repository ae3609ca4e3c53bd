import type { Pipeline } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Deps, PipelineAccessFacts } from '../ports';
import { ACME, actorWith } from '../use-case.fixture';
import { listBuilds } from './list-builds';

const pipeline = { id: 'pipe-1', slug: 'web', organizationId: ACME.id } as Pipeline;
const facts: PipelineAccessFacts = {
  organization: ACME,
  role: 'admin',
  pipeline,
  teamAccessLevels: [],
  pipelineHasTeams: false,
  pipelineCreator: null,
  contentRevision: '4.5.6',
};

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
        page: async () => {
          reads.push('page');
          return { builds: [], counted: 0 };
        },
      },
    },
  } as unknown as Deps;
}

const actor = actorWith(['read_builds']);
const target = { kind: 'pipeline', organization: 'acme', pipeline: 'web' } as const;
const page = { page: 1, perPage: 30 };

describe("listBuilds of a pipeline and its caller's answer at a revision", () => {
  it('reads no build when the caller has the answer at the revision read with the access', async () => {
    const reads: string[] = [];
    const asked: string[] = [];
    const result = await listBuilds(deps(reads))(actor, target, {}, page, (revision) => {
      asked.push(revision);
      return true;
    });
    expect(result).toMatchObject({ unchanged: true, builds: [] });
    expect(asked).toEqual([result.revision]);
    expect(result.revision).toContain('4.5.6 admin');
    expect(reads).toEqual(['access']);
  });

  it('reads the page otherwise, and gives the revision it read before it', async () => {
    const reads: string[] = [];
    const result = await listBuilds(deps(reads))(actor, target, {}, page, () => false);
    expect(result.unchanged).toBeUndefined();
    expect(result.revision).toContain('4.5.6 admin');
    expect(reads).toEqual(['access', 'page']);
  });
});
