import type { AccessLevel, Build, OrganizationRole, Pipeline, Scope } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import type { BuildView, Deps, PipelineAccessEntry } from '../ports';
import { ACME, actorWith, uuid as id, OTHER } from '../use-case.fixture';
import { cancelBuildById, findBuild, getBuildsById, getJobsById } from './builds-by-id';

const pipelines = {
  teamed: { id: id(101), organizationId: ACME.id, slug: 'teamed' },
  hidden: { id: id(102), organizationId: ACME.id, slug: 'hidden' },
  open: { id: id(103), organizationId: ACME.id, slug: 'open' },
  elsewhere: { id: id(104), organizationId: OTHER.id, slug: 'elsewhere' },
} as const;

/** One build per pipeline, numbered 1, with one job. */
const views: BuildView[] = Object.values(pipelines).map((pipeline, index) => ({
  build: { id: id(index + 1), number: 1, pipelineId: pipeline.id, state: 'scheduled' } as Build,
  organizationSlug: pipeline.organizationId === ACME.id ? 'acme' : 'other',
  pipeline: {
    ...(pipeline as unknown as Pipeline),
    counts: {} as BuildView['pipeline']['counts'],
    createdBy: null,
  },
  creator: null,
  jobs: [
    {
      job: { id: id(index + 11), buildId: id(index + 1) } as BuildView['jobs'][number]['job'],
      agent: null,
      retrySourceId: null,
    },
  ],
  rebuiltFrom: null,
  triggeredFrom: null,
}));
const buildOf = (pipeline: keyof typeof pipelines) =>
  views.find((view) => view.pipeline.id === pipelines[pipeline].id) as BuildView;

function actor(
  scopes: Scope[] = ['read_builds', 'write_builds'],
  organizationIds: string[] | null = null,
): Actor {
  return actorWith(scopes, organizationIds);
}

/** In-memory ports: the user's role in acme (and admin of other), what the user's teams give. */
function world(role: OrganizationRole, levels: Partial<Record<keyof typeof pipelines, AccessLevel>> = {}) {
  const reads: string[] = [];
  const entries: PipelineAccessEntry[] = (['teamed', 'hidden', 'open'] as const).map((name) => ({
    pipelineId: pipelines[name].id,
    organizationId: ACME.id,
    teamAccessLevels: levels[name] ? [levels[name] as AccessLevel] : [],
    pipelineHasTeams: name !== 'open',
  }));
  const deps = {
    repos: {
      lookups: {
        builds: async ({ ids }: { ids: readonly string[] }) => {
          reads.push('builds');
          return views.filter((view) => ids.includes(view.build.id));
        },
        jobBuilds: async (jobIds: readonly string[]) => {
          reads.push('jobs');
          return views.flatMap((view) =>
            view.jobs
              .filter(({ job }) => jobIds.includes(job.id))
              .map(({ job }) => ({ jobId: job.id, buildId: job.buildId })),
          );
        },
      },
      access: {
        memberships: async () => {
          reads.push('memberships');
          return [
            { organization: ACME, role },
            { organization: OTHER, role: 'admin' as const },
          ];
        },
        pipelineAccessIn: async () => {
          reads.push('access');
          return entries;
        },
      },
    },
  } as unknown as Deps;
  return { deps, reads };
}

describe('getBuildsById', () => {
  it.each([
    [
      'an admin sees every build of the organization',
      'admin',
      {},
      ['teamed', 'hidden', 'open'],
      [true, true, true],
    ],
    [
      "a member sees the builds of their teams' pipelines and of team-less ones",
      'member',
      { teamed: 'manage_build_and_read' },
      ['teamed', 'open'],
      [true, false],
    ],
    [
      'a member of a read_only team sees without the webhook URL',
      'member',
      { teamed: 'read_only' },
      ['teamed', 'open'],
      [false, false],
    ],
  ] as const)('%s', async (_name, role, levels, visible, webhook) => {
    const { deps } = world(role, levels);
    const ids = (['teamed', 'hidden', 'open'] as const).map((name) => buildOf(name).build.id);
    const results = await getBuildsById(deps)(actor(), ids);
    const seen = results.flatMap((result) => (result ? [result.view.pipeline.slug] : []));
    expect(seen).toEqual(visible);
    expect(results.flatMap((result) => (result ? [result.showWebhookUrl] : []))).toEqual(webhook);
  });

  it('answers in the order asked, null for unknown ids and builds the token may not reach', async () => {
    const { deps } = world('admin');
    const ids = [buildOf('elsewhere').build.id, id(999), 'garbage', buildOf('teamed').build.id.toUpperCase()];
    const limited = await getBuildsById(deps)(actor(['read_builds'], [ACME.id]), ids);
    expect(limited.map((result) => result?.view.pipeline.slug ?? null)).toEqual([null, null, null, 'teamed']);
    const everywhere = await getBuildsById(deps)(actor(['read_builds']), ids);
    expect(everywhere.map((result) => result?.view.pipeline.slug ?? null)).toEqual([
      'elsewhere',
      null,
      null,
      'teamed',
    ]);
  });

  it('checks the scope before reading anything', async () => {
    const { deps, reads } = world('admin');
    await expect(
      getBuildsById(deps)(actor(['write_builds']), [buildOf('teamed').build.id]),
    ).rejects.toMatchObject({
      kind: 'forbidden',
      message: "Your access token doesn't have the read_builds scope",
    });
    expect(reads).toEqual([]);
  });

  it('reads a batch in a fixed number of reads, whatever its size', async () => {
    const { deps, reads } = world('member', { teamed: 'read_only' });
    await getBuildsById(deps)(
      actor(),
      views.map((view) => view.build.id),
    );
    expect(reads.sort()).toEqual(['access', 'builds', 'memberships']);
  });
});

describe('getJobsById', () => {
  it('finds jobs with their builds, null for the invisible', async () => {
    const { deps } = world('member', { teamed: 'build_and_read' });
    const jobIds = (['teamed', 'hidden'] as const).map((name) => buildOf(name).jobs[0]?.job.id as string);
    const results = await getJobsById(deps)(actor(), [...jobIds, id(999)]);
    expect(results.map((result) => result?.build.view.pipeline.slug ?? null)).toEqual(['teamed', null, null]);
    expect(results[0]?.job.id).toBe(jobIds[0]);
  });
});

describe('findBuild', () => {
  it.each([
    [{ slug: 'acme/teamed' }, 'No build found'],
    [{ slug: 'acme//1' }, 'No build found'],
    [{ uuid: id(999) }, 'No build found'],
    [{}, 'Find a build by either its slug or its uuid'],
    [{ slug: 'acme/teamed/1', uuid: id(1) }, 'Find a build by either its slug or its uuid'],
  ])('refuses %j', async (key, message) => {
    const { deps } = world('admin');
    await expect(findBuild(deps)(actor(), key)).rejects.toMatchObject({ message });
  });

  it('checks the scope before answering a malformed slug', async () => {
    const { deps } = world('admin');
    await expect(findBuild(deps)(actor(['write_builds']), { slug: 'nope' })).rejects.toMatchObject({
      message: "Your access token doesn't have the read_builds scope",
    });
  });
});

describe('cancelBuildById', () => {
  it('checks its own scope first, then answers No build found for a build out of reach', async () => {
    const { deps, reads } = world('admin');
    await expect(cancelBuildById(deps)(actor(['read_builds']), id(999))).rejects.toMatchObject({
      message: "Your access token doesn't have the write_builds scope",
    });
    expect(reads).toEqual([]);
    await expect(
      cancelBuildById(deps)(actor(['write_builds'], [ACME.id]), buildOf('elsewhere').build.id),
    ).rejects.toMatchObject({ kind: 'not_found', message: 'No build found' });
    await expect(cancelBuildById(deps)(actor(['write_builds']), null)).rejects.toMatchObject({
      message: 'No build found',
    });
  });
});
