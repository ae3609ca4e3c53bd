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
        pipelineRevision: async () => {
          reads.push('revision');
          const { pipelineCreator: _, ...narrow } = facts;
          return { ...narrow, pipeline: { id: pipeline.id } };
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
  it('reads neither the pipeline nor a build when the caller has the answer at the revision', async () => {
    const reads: string[] = [];
    const asked: string[] = [];
    const result = await listBuilds(deps(reads))(actor, target, {}, page, (revision) => {
      asked.push(revision);
      return true;
    });
    expect(result).toMatchObject({ unchanged: true, builds: [] });
    expect(asked).toEqual([result.revision]);
    expect(result.revision).toContain('4.5.6 admin');
    expect(reads).toEqual(['revision']);
  });

  it('reads the pipeline and the page otherwise, and gives the revision it read before them', async () => {
    const reads: string[] = [];
    const result = await listBuilds(deps(reads))(actor, target, {}, page, () => false);
    expect(result.unchanged).toBeUndefined();
    expect(result.revision).toContain('4.5.6 admin');
    expect(reads).toEqual(['revision', 'access', 'page']);
  });

  it('reads no narrow revision first when no answer could come from it', async () => {
    const reads: string[] = [];
    await listBuilds(deps(reads))(actor, target, {}, page);
    expect(reads).toEqual(['access', 'page']);
  });
});
