import type { Agent, AgentListFilter, Build, Scope } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import type { BuildView, Deps } from '../ports';
import { ACME, actorWith, uuid as id, OTHER } from '../use-case.fixture';
import { findAgent, getAgent, getAgentsById, getWorkOfAgents } from './agents-by-id';
import { listAgents } from './list-agents';

function agent(n: number, organizationId: string): Agent {
  return {
    id: id(n),
    organizationId,
    name: `agent-${n}`,
    hostname: null,
    ipAddress: null,
    userAgent: null,
    connectionState: 'connected',
    tags: ['queue=default'],
    creatorId: null,
    createdAt: new Date(n),
    version: null,
    pid: null,
    connectedAt: null,
    disconnectedAt: null,
    heartbeatAt: null,
    pausedAt: null,
    pauseNote: null,
    pausedUntil: null,
    clusterId: null,
    clusterQueueId: null,
  };
}

const agents = { busy: agent(1, ACME.id), idle: agent(2, ACME.id), foreign: agent(3, OTHER.id) };
/** The job `busy` runs, in a build of a team-less pipeline of acme; `foreign` runs one in other. */
const jobs = { busy: id(11), foreign: id(13) };
const views: BuildView[] = [
  [id(21), jobs.busy, ACME.id],
  [id(23), jobs.foreign, OTHER.id],
].map(([buildId, jobId, organizationId]) => ({
  build: { id: buildId, number: 1, state: 'running' } as Build,
  organizationSlug: organizationId === ACME.id ? 'acme' : 'other',
  pipeline: {
    id: `pipeline-${buildId}`,
    organizationId,
    slug: 'p',
    counts: {},
  } as unknown as BuildView['pipeline'],
  creator: null,
  jobs: [{ job: { id: jobId, buildId } as BuildView['jobs'][number]['job'], agent: null }],
  rebuiltFrom: null,
})) as BuildView[];

function actor(
  scopes: Scope[] = ['read_agents', 'read_builds'],
  organizationIds: string[] | null = null,
): Actor {
  return actorWith(scopes, organizationIds);
}

/** In-memory ports: the user is a member of acme (no teams) and an admin of other. */
function world() {
  const reads: string[] = [];
  const listed: Array<{ organizationId: string; filter: AgentListFilter }> = [];
  const all = Object.values(agents);
  const deps = {
    repos: {
      lookups: {
        agents: async (ids: readonly string[]) => {
          reads.push('agents');
          return all.filter((candidate) => ids.includes(candidate.id));
        },
        heldJobs: async (ids: readonly string[]) => {
          reads.push('held');
          return all
            .filter((candidate) => ids.includes(candidate.id))
            .map((candidate) => {
              const jobId =
                candidate === agents.busy ? jobs.busy : candidate === agents.foreign ? jobs.foreign : null;
              const buildId = views.find((view) => view.jobs[0]?.job.id === jobId)?.build.id;
              return {
                agentId: candidate.id,
                organizationId: candidate.organizationId,
                held: jobId && buildId ? { jobId, buildId } : null,
                lastJobFinishedAt: null,
              };
            });
        },
        builds: async ({ ids }: { ids: readonly string[] }) => {
          reads.push('builds');
          return views.filter((view) => ids.includes(view.build.id));
        },
      },
      access: {
        memberships: async () => {
          reads.push('memberships');
          return [
            { organization: ACME, role: 'member' as const },
            { organization: OTHER, role: 'admin' as const },
          ];
        },
        organization: async ({ organizationSlug }: { organizationSlug: string }) => {
          reads.push('organization');
          if (organizationSlug === 'acme') return { organization: ACME, role: 'member' as const };
          if (organizationSlug === 'other') return { organization: OTHER, role: 'admin' as const };
          return null;
        },
        // A member of acme's team-less pipelines sees them (build_and_read).
        pipelineAccessIn: async () => {
          reads.push('access');
          return views
            .filter((view) => view.pipeline.organizationId === ACME.id)
            .map((view) => ({
              pipelineId: view.pipeline.id,
              organizationId: ACME.id,
              teamAccessLevels: [],
              pipelineHasTeams: false,
            }));
        },
      },
      agents: {
        list: async (input: { organizationId: string; filter: AgentListFilter }) => {
          listed.push(input);
          return all.filter((candidate) => candidate.organizationId === input.organizationId);
        },
        count: async (input: { organizationId: string }) =>
          all.filter((candidate) => candidate.organizationId === input.organizationId).length,
      },
    },
  } as unknown as Deps;
  return { deps, reads, listed };
}

describe('getAgentsById', () => {
  it("answers the agents of the actor's organizations in the order asked, null for the others", async () => {
    const { deps } = world();
    const ids = [agents.idle.id, agents.foreign.id, id(999), 'garbage', agents.busy.id.toUpperCase()];
    const everywhere = await getAgentsById(deps)(actor(), ids);
    expect(everywhere.map((found) => found?.name ?? null)).toEqual([
      'agent-2',
      'agent-3',
      null,
      null,
      'agent-1',
    ]);
    const limited = await getAgentsById(deps)(actor(['read_agents'], [ACME.id]), ids);
    expect(limited.map((found) => found?.name ?? null)).toEqual(['agent-2', null, null, null, 'agent-1']);
  });

  it('checks read_agents before reading anything', async () => {
    const { deps, reads } = world();
    await expect(getAgentsById(deps)(actor(['read_builds']), [agents.busy.id])).rejects.toMatchObject({
      kind: 'forbidden',
      message: "Your access token doesn't have the read_agents scope",
    });
    expect(reads).toEqual([]);
  });
});

describe('findAgent and getAgent', () => {
  it('find an agent of the organization the slug names', async () => {
    const { deps } = world();
    expect((await findAgent(deps)(actor(), `acme/${agents.busy.id}`)).name).toBe('agent-1');
    expect((await getAgent(deps)(actor(), { organization: 'other', agent: agents.foreign.id })).name).toBe(
      'agent-3',
    );
  });

  it.each([
    ['an agent of another organization', () => `acme/${agents.foreign.id}`, 'No agent found'],
    ['an unknown agent', () => `acme/${id(999)}`, 'No agent found'],
    ['an id that is no UUID', () => 'acme/agent-1', 'No agent found'],
    ['a slug of one part', () => 'acme', 'No agent found'],
    ['a slug with an empty part', () => `/${agents.busy.id}`, 'No agent found'],
    ['an unknown organization', () => `nope/${agents.busy.id}`, 'No organization found'],
  ])('refuse %s', async (_name, slug: () => string, message) => {
    const { deps } = world();
    await expect(findAgent(deps)(actor(), slug())).rejects.toMatchObject({ message });
  });

  it('refuse an organization the token may not use as one that does not exist', async () => {
    const { deps } = world();
    await expect(
      findAgent(deps)(actor(['read_agents'], [ACME.id]), `other/${agents.foreign.id}`),
    ).rejects.toMatchObject({ message: 'No organization found' });
  });

  it('check read_agents first, whatever the slug', async () => {
    const { deps, reads } = world();
    for (const slug of ['nope', `acme/${agents.busy.id}`]) {
      await expect(findAgent(deps)(actor(['read_builds']), slug)).rejects.toMatchObject({
        message: "Your access token doesn't have the read_agents scope",
      });
    }
    expect(reads).toEqual([]);
  });
});

describe('getWorkOfAgents', () => {
  it('says which agents hold a job, and shows the job to those who may see it', async () => {
    const { deps } = world();
    const work = await getWorkOfAgents(deps)(actor(), [agents.busy.id, agents.idle.id, agents.foreign.id]);
    expect(work.map((entry) => entry.isRunningJob)).toEqual([true, false, true]);
    expect(work.map((entry) => entry.job?.job.id ?? null)).toEqual([jobs.busy, null, jobs.foreign]);
  });

  it('tells a token without read_builds only that the agent is busy, reading no build', async () => {
    const { deps, reads } = world();
    const work = await getWorkOfAgents(deps)(actor(['read_agents']), [agents.busy.id]);
    expect(work).toEqual([{ isRunningJob: true, job: null, lastJobFinishedAt: null }]);
    expect(reads).not.toContain('builds');
  });

  it('tells nothing of agents of organizations the token may not use', async () => {
    const { deps } = world();
    const work = await getWorkOfAgents(deps)(actor(undefined, [ACME.id]), [
      agents.foreign.id,
      agents.busy.id,
    ]);
    expect(work.map((entry) => [entry.isRunningJob, entry.job?.job.id ?? null])).toEqual([
      [false, null],
      [true, jobs.busy],
    ]);
  });

  it('reads a batch in a fixed number of reads, whatever its size', async () => {
    const { deps, reads } = world();
    await getWorkOfAgents(deps)(
      actor(),
      Object.values(agents).map((candidate) => candidate.id),
    );
    expect([...new Set(reads)].sort()).toEqual(['access', 'builds', 'held', 'memberships']);
    expect(reads.filter((read) => read === 'builds')).toHaveLength(1);
    expect(reads.filter((read) => read === 'held')).toHaveLength(1);
  });
});

describe('listAgents', () => {
  it("lists the organization's agents with the parsed filter", async () => {
    const { deps, listed } = world();
    const page = await listAgents(deps)(
      actor(),
      'acme',
      { search: 'lin', metaData: ['os=linux'] },
      { offset: 0, limit: 30 },
    );
    expect(page).toEqual({ items: [agents.busy, agents.idle], totalCount: 2 });
    expect(listed).toEqual([
      {
        organizationId: ACME.id,
        filter: {
          search: 'lin',
          metaData: ['os=linux'],
          isRunningJob: null,
          name: null,
          hostname: null,
          version: null,
          presentOnly: false,
          clusterQueueIds: null,
        },
        offset: 0,
        limit: 30,
      },
    ]);
  });

  it('refuses a filter the database could not compare, and an organization the token may not use', async () => {
    const { deps, listed } = world();
    await expect(
      listAgents(deps)(actor(), 'acme', { search: '\u0000' }, { offset: 0, limit: 1 }),
    ).rejects.toMatchObject({ kind: 'bad_request' });
    await expect(
      listAgents(deps)(actor(['read_agents'], [ACME.id]), 'other', {}, { offset: 0, limit: 1 }),
    ).rejects.toMatchObject({ message: 'No organization found' });
    expect(listed).toEqual([]);
  });
});
