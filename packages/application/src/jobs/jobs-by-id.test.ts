import type { Build } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { BuildView, Deps } from '../ports';
import { ACME, actorWith, uuid as id, OTHER } from '../use-case.fixture';
import { getRetrySourcesOf, retryJobById, unblockJobById } from './jobs-by-id';

/** A build of acme with a first run (retried) and its retry; a build of other with one job. */
const runs = { first: id(11), retry: id(12), elsewhere: id(13) };
const views: BuildView[] = [
  { buildId: id(21), organizationId: ACME.id, jobIds: [runs.first, runs.retry] },
  { buildId: id(23), organizationId: OTHER.id, jobIds: [runs.elsewhere] },
].map(({ buildId, organizationId, jobIds }) => ({
  build: { id: buildId, number: 7, state: 'failed' } as Build,
  organizationSlug: organizationId === ACME.id ? 'acme' : 'other',
  pipeline: {
    id: `p-${buildId}`,
    organizationId,
    slug: 'app',
    counts: {},
  } as unknown as BuildView['pipeline'],
  creator: null,
  jobs: jobIds.map((jobId) => ({
    job: { id: jobId, buildId } as BuildView['jobs'][number]['job'],
    agent: null,
  })),
  rebuiltFrom: null,
})) as BuildView[];

const actor = actorWith;

function world() {
  const reads: string[] = [];
  const deps = {
    repos: {
      lookups: {
        retrySources: async (jobIds: readonly string[]) => {
          reads.push('sources');
          return jobIds.includes(runs.retry)
            ? [{ jobId: runs.retry, sourceId: runs.first, buildId: id(21) }]
            : [];
        },
        jobBuilds: async (jobIds: readonly string[]) => {
          reads.push('jobs');
          return views.flatMap((view) =>
            view.jobs
              .filter(({ job }) => jobIds.includes(job.id))
              .map(({ job }) => ({ jobId: job.id, buildId: view.build.id })),
          );
        },
        builds: async ({ ids }: { ids: readonly string[] }) => {
          reads.push('builds');
          return views.filter((view) => ids.includes(view.build.id));
        },
        buildPipelines: async (ids: readonly string[]) => {
          reads.push('build pipelines');
          return views
            .filter((view) => ids.includes(view.build.id))
            .map((view) => ({
              buildId: view.build.id,
              number: view.build.number,
              pipelineId: view.pipeline.id,
              pipelineSlug: view.pipeline.slug,
              organizationId: view.pipeline.organizationId,
            }));
        },
      },
      access: {
        memberships: async () => {
          reads.push('memberships');
          return [
            { organization: ACME, role: 'admin' as const },
            { organization: OTHER, role: 'admin' as const },
          ];
        },
      },
    },
  } as unknown as Deps;
  return { deps, reads };
}

describe('getRetrySourcesOf', () => {
  it('answers the run each job retried, null for first runs and unknown ids, in the order asked', async () => {
    const { deps } = world();
    const sources = await getRetrySourcesOf(deps)(actor(['read_builds']), [runs.retry, runs.first, 'nope']);
    expect(sources.map((source) => source?.job.id ?? null)).toEqual([runs.first, null, null]);
    expect(sources[0]?.build.view.build.id).toBe(id(21));
  });

  it('reads no build when no job is a retry', async () => {
    const { deps, reads } = world();
    expect(await getRetrySourcesOf(deps)(actor(['read_builds']), [runs.first])).toEqual([null]);
    expect(reads).toEqual(['sources']);
  });
});

describe.each([
  ['retryJobById', retryJobById],
  ['unblockJobById', unblockJobById],
] as const)('%s', (_name, change) => {
  it('checks write_builds before reading anything', async () => {
    const { deps, reads } = world();
    await expect(change(deps)(actor(['read_builds']), runs.first)).rejects.toMatchObject({
      message: "Your access token doesn't have the write_builds scope",
    });
    expect(reads).toEqual([]);
  });

  it('answers No job found for a job of an organization the token may not use, or of no job', async () => {
    const { deps } = world();
    for (const jobId of [runs.elsewhere, id(999), 'garbage', null]) {
      await expect(change(deps)(actor(['write_builds'], [ACME.id]), jobId)).rejects.toMatchObject({
        kind: 'not_found',
        message: 'No job found',
      });
    }
  });
});
