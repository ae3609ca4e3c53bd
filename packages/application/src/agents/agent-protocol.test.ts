import {
  type Agent,
  type BuildSnapshot,
  type Job,
  jobsForSteps,
  LOSABLE_AGENT_STATES,
  newBuildSnapshot,
  progressBuild,
} from '@ci/domain';
import { factsOf } from '@ci/domain/build.fixture';
import { describe, expect, it } from 'vitest';
import { stepPatterns } from '../pipelines/step-patterns';
import type { BuildView, Deps } from '../ports';
import type { AgentRegistrationToken, JobRepository } from './agent-ports';
import {
  agentJobAction,
  markSilentAgentsLost,
  pingAgent,
  registerAgent,
  sweepLostJobs,
} from './agent-protocol';
import { hashAgentSecret } from './agent-secrets';

/** One organization, one build with the given command steps, agents and jobs in memory. */
function world(steps: { label: string; rules?: string[] }[]) {
  let clock = new Date('2026-11-21T10:00:00.000Z');
  let ids = 0;
  const newId = () => `00000000-0000-7000-8000-${String(++ids).padStart(12, '0')}`;
  const initial = progressBuild({
    build: newBuildSnapshot(),
    jobs: jobsForSteps({
      steps: steps.map((step) => ({
        type: 'command' as const,
        id: newId(),
        key: null,
        label: step.label,
        command: `echo ${step.label}`,
        env: {},
        agentQueryRules: step.rules ?? [],
        softFail: false,
        parallelism: null,
        retry: null,
        artifactPaths: null,
      })),
      buildId: 'build',
      at: clock,
      newId,
      facts: factsOf(),
      regex: stepPatterns,
    }),
    at: clock,
    newId,
  });
  let build: BuildSnapshot & { id: string } = { ...initial.build, id: 'build' };
  let jobs: Job[] = initial.jobs;
  const agents = new Map<string, { agent: Agent; hash: string; lastSeenAt: Date }>();
  const registration: AgentRegistrationToken = {
    id: 'rt',
    organizationId: 'org',
    tokenHash: hashAgentSecret('bkrt_good'),
    description: null,
    createdAt: clock,
    creatorId: null,
    public: false,
    revokedAt: null,
    revokedById: null,
    revokedReason: null,
  };
  const location = (job: Job) => ({
    job,
    buildId: 'build',
    buildNumber: 1,
    pipelineId: 'pipeline',
    organizationId: 'org',
  });
  const jobRepository: JobRepository = {
    async changeBuild(_id, change) {
      const result = change({ build, jobs });
      if (!result) return null;
      build = { ...build, ...result.build };
      jobs = [...result.jobs];
      return result.result;
    },
    async changeBuildNumbered(_build, change) {
      return jobRepository.changeBuild('build', change);
    },
    async changeBuilds(ids, change) {
      const results = [];
      for (const id of ids) {
        const result = await jobRepository.changeBuild(id, change);
        if (result !== null) results.push(result);
      }
      return results;
    },
    async find(id) {
      const job = jobs.find((candidate) => candidate.id === id);
      return job ? location(job) : null;
    },
    async claim({ agentId, mayTake, assign }) {
      const agent = agents.get(agentId)?.agent;
      if (!agent || !mayTake(agent, null)) return null;
      for (const job of jobs.filter((candidate) => candidate.state === 'scheduled')) {
        const assigned = assign(job);
        if (assigned) {
          jobs = jobs.map((candidate) => (candidate.id === job.id ? assigned : candidate));
          return assigned;
        }
      }
      return null;
    },
    async activeJobOf(agentId) {
      const job = jobs.find(
        (candidate) =>
          candidate.agentId === agentId &&
          ['assigned', 'accepted', 'running', 'canceling'].includes(candidate.state),
      );
      return job ? location(job) : null;
    },
    async triggerJobsDue() {
      return [];
    },
    async triggerChainLength() {
      return 1;
    },
    async heldByAgentsSilentSince(before) {
      return jobs
        .filter((job) => job.agentId && ['assigned', 'accepted', 'running'].includes(job.state))
        .filter((job) => (agents.get(job.agentId as string)?.lastSeenAt ?? clock) < before)
        .map((job) => ({ jobId: job.id, buildId: 'build' }));
    },
    async appendLogChunk() {},
    async logChunks() {
      return [];
    },
    async logChunksAfter() {
      return [];
    },
    async deleteLog() {},
  };
  const deps = {
    repos: {
      jobs: jobRepository,
      clusters: { findTokenByHash: async () => null },
      agents: {
        async insertRegistrationToken() {},
        async findRegistrationTokenByHash(hash: string) {
          return hash === registration.tokenHash ? registration : null;
        },
        async insert(agent: Agent, hash: string) {
          agents.set(agent.id, { agent, hash, lastSeenAt: clock });
          return 'inserted' as const;
        },
        async findByAccessTokenHash(hash: string) {
          return [...agents.values()].find((entry) => entry.hash === hash)?.agent ?? null;
        },
        async touch(id: string, at: Date) {
          const entry = agents.get(id);
          if (entry) entry.lastSeenAt = at;
        },
        async markLost(silentSince: Date) {
          const silent = [...agents.values()].filter(
            (entry) =>
              entry.lastSeenAt < silentSince &&
              (LOSABLE_AGENT_STATES as readonly string[]).includes(entry.agent.connectionState),
          );
          for (const entry of silent) entry.agent = { ...entry.agent, connectionState: 'lost' };
          return silent.length;
        },
      },
      builds: { findByNumber: async () => ({ build }) as unknown as BuildView },
    },
    clock: { now: () => clock },
    newId,
    agentTimings: { pingInterval: 1, jobStatusInterval: 1, heartbeatInterval: 1, lostAfter: 10 },
  } as unknown as Deps;
  const register = async (tags: string[] = []) =>
    (await registerAgent(deps)('Token bkrt_good', { tags, userAgent: null, ipAddress: null })).accessToken;
  return {
    deps,
    register,
    advance: (seconds: number) => {
      clock = new Date(clock.getTime() + seconds * 1000);
    },
    build: () => build,
    jobs: () => jobs,
    /** Changes an agent as REST's stop, pause and resume leave it. */
    setAgent: (token: string, change: Partial<Agent>) => {
      const entry = [...agents.values()].find((candidate) => candidate.hash === hashAgentSecret(token));
      if (entry) entry.agent = { ...entry.agent, ...change };
    },
    revoke: () => {
      registration.revokedAt = clock;
    },
  };
}

describe('the agent protocol', () => {
  it('registers only with the registration token and key=value tags', async () => {
    const { deps } = world([]);
    const register = registerAgent(deps);
    await expect(
      register('Token bkrt_bad', { tags: [], userAgent: null, ipAddress: null }),
    ).rejects.toMatchObject({
      kind: 'unauthenticated',
    });
    await expect(register(undefined, { tags: [], userAgent: null, ipAddress: null })).rejects.toMatchObject({
      kind: 'unauthenticated',
    });
    await expect(
      register('Token bkrt_good', { tags: ['nokey'], userAgent: null, ipAddress: null }),
    ).rejects.toMatchObject({
      kind: 'bad_request',
    });
  });

  it('registers nothing with a revoked registration token', async () => {
    const { deps, revoke } = world([]);
    const request = { tags: [], userAgent: null, ipAddress: null };
    await expect(registerAgent(deps)('Token bkrt_good', request)).resolves.toBeDefined();
    revoke();
    await expect(registerAgent(deps)('Token bkrt_good', request)).rejects.toMatchObject({
      kind: 'unauthenticated',
    });
  });

  it('keeps what the agent says of itself, and refuses text the database could not keep', async () => {
    const { deps } = world([]);
    const register = registerAgent(deps);
    const base = { tags: ['queue=a'], userAgent: 'buildkite-agent/3', ipAddress: '10.0.0.1' };
    const { agent } = await register('Token bkrt_good', { ...base, name: 'a', version: '3.80.0', pid: '42' });
    expect(agent).toMatchObject({
      name: 'a',
      version: '3.80.0',
      pid: '42',
      connectedAt: null,
      heartbeatAt: null,
    });
    for (const [field, request] of [
      ['name', { name: 'a\u0000' }],
      ['hostname', { hostname: 'h\ud800' }],
      ['version', { version: '\u0000' }],
      ['pid', { pid: '4\u00002' }],
    ] as const) {
      await expect(register('Token bkrt_good', { ...base, ...request })).rejects.toMatchObject({
        kind: 'bad_request',
        message: `${field} can't contain NUL characters or unpaired surrogates`,
      });
    }
    await expect(register('Token bkrt_good', { ...base, tags: ['queue=\u0000'] })).rejects.toMatchObject({
      kind: 'bad_request',
    });
  });

  it('offers a job to an agent whose tags match, again until accepted, then nothing more', async () => {
    const w = world([{ label: 'deploy', rules: ['queue=deploy'] }, { label: 'test' }]);
    const deployer = await w.register(['queue=deploy']);
    const offered = await pingAgent(w.deps)(`Token ${deployer}`);
    expect(offered.job?.location.job).toMatchObject({ name: 'deploy', state: 'assigned' });
    expect((await pingAgent(w.deps)(`Token ${deployer}`)).job?.location.job.id).toBe(
      offered.job?.location.job.id,
    );
    await agentJobAction(w.deps)(`Token ${deployer}`, offered.job?.location.job.id as string, {
      type: 'accept',
    });
    expect((await pingAgent(w.deps)(`Token ${deployer}`)).job).toBeNull();
    const tester = await w.register();
    expect((await pingAgent(w.deps)(`Token ${tester}`)).job?.location.job.name).toBe('test');
  });

  it("refuses another agent's job as if it did not exist", async () => {
    const w = world([{ label: 'a' }]);
    const first = await w.register();
    const second = await w.register();
    const offered = await pingAgent(w.deps)(`Token ${first}`);
    await expect(
      agentJobAction(w.deps)(`Token ${second}`, offered.job?.location.job.id as string, { type: 'accept' }),
    ).rejects.toMatchObject({ kind: 'not_found', message: 'No job found' });
  });

  it('refuses a finish whose signal no job can keep, and cuts long ones to what a job keeps', async () => {
    const w = world([{ label: 'a' }]);
    const token = await w.register();
    const id = (await pingAgent(w.deps)(`Token ${token}`)).job?.location.job.id as string;
    for (const type of ['accept', 'start'] as const)
      await agentJobAction(w.deps)(`Token ${token}`, id, { type });
    const finish = (signal: string | null, signalReason: string | null) =>
      agentJobAction(w.deps)(`Token ${token}`, id, { type: 'finish', exitStatus: -1, signal, signalReason });
    await expect(finish('SIG\u0000TERM', null)).rejects.toMatchObject({
      kind: 'bad_request',
      message: "signal can't contain NUL characters or unpaired surrogates",
    });
    await expect(finish('SIGTERM', '\ud800')).rejects.toMatchObject({
      kind: 'bad_request',
      message: "signal_reason can't contain NUL characters or unpaired surrogates",
    });
    expect(w.jobs()[0]?.state).toBe('running');
    await finish('S'.repeat(40), 'r'.repeat(80));
    expect(w.jobs()[0]).toMatchObject({
      state: 'failed',
      signal: 'S'.repeat(32),
      signalReason: 'r'.repeat(64),
    });
  });

  it('marks lost the jobs of silent agents once, and the build fails', async () => {
    const w = world([{ label: 'a' }, { label: 'b' }]);
    const silent = await w.register();
    const alive = await w.register();
    for (const token of [silent, alive]) {
      const offered = await pingAgent(w.deps)(`Token ${token}`);
      const id = offered.job?.location.job.id as string;
      await agentJobAction(w.deps)(`Token ${token}`, id, { type: 'accept' });
      await agentJobAction(w.deps)(`Token ${token}`, id, { type: 'start' });
    }
    w.advance(6);
    await pingAgent(w.deps)(`Token ${alive}`);
    // Nobody silent for 10 s yet.
    expect(await sweepLostJobs(w.deps)()).toBe(0);
    expect(w.jobs().map((job) => job.state)).toEqual(['running', 'running']);
    w.advance(6);
    // `silent` was last heard of 12 s ago, `alive` 6 s ago; a second sweep finds nothing more to do.
    expect(await sweepLostJobs(w.deps)()).toBe(1);
    expect(await sweepLostJobs(w.deps)()).toBe(0);
    expect(w.jobs().map((job) => job.state)).toEqual(['lost', 'running']);
    expect(w.build().state).toBe('failing');
  });
});

describe('markSilentAgentsLost', () => {
  it('marks lost the agents silent for longer than lostAfter, once, and a lost agent is told to go', async () => {
    const w = world([{ label: 'a' }]);
    const silent = await w.register();
    const alive = await w.register();
    for (const token of [silent, alive]) w.setAgent(token, { connectionState: 'connected' });
    w.advance(6);
    await pingAgent(w.deps)(`Token ${alive}`);
    expect(await markSilentAgentsLost(w.deps)()).toBe(0);
    w.advance(6);
    // `silent` was last heard of 12 s ago, `alive` 6 s ago (lostAfter: 10 s).
    expect(await markSilentAgentsLost(w.deps)()).toBe(1);
    expect(await markSilentAgentsLost(w.deps)()).toBe(0);
    expect(await pingAgent(w.deps)(`Token ${silent}`)).toEqual({ action: 'disconnect', job: null });
    expect((await pingAgent(w.deps)(`Token ${alive}`)).action).toBe('idle');
  });
});

describe('a ping from a stopping or paused agent', () => {
  const pausedFor = (w: ReturnType<typeof world>, minutes: number) => {
    const at = w.deps.clock.now();
    return { pausedAt: at, pauseNote: null, pausedUntil: new Date(at.getTime() + minutes * 60_000) };
  };

  it('tells a stopping agent to disconnect and gives it no job', async () => {
    const w = world([{ label: 'build' }]);
    const token = await w.register();
    w.setAgent(token, { connectionState: 'stopping' });
    expect(await pingAgent(w.deps)(`Token ${token}`)).toEqual({ action: 'disconnect', job: null });
    expect(w.jobs()[0]?.state).toBe('scheduled');
  });

  it('tells a paused agent to pause until it is resumed or the pause times out', async () => {
    const w = world([{ label: 'build' }, { label: 'test' }]);
    const token = await w.register();
    w.setAgent(token, pausedFor(w, 1));
    expect(await pingAgent(w.deps)(`Token ${token}`)).toEqual({ action: 'pause', job: null });
    w.setAgent(token, { pausedAt: null, pauseNote: null, pausedUntil: null });
    const resumed = await pingAgent(w.deps)(`Token ${token}`);
    expect([resumed.action, resumed.job?.location.job.name]).toEqual(['idle', 'build']);

    const other = await w.register();
    w.setAgent(other, pausedFor(w, 1));
    w.advance(61);
    const timedOut = await pingAgent(w.deps)(`Token ${other}`);
    expect([timedOut.action, timedOut.job?.location.job.name]).toEqual(['idle', 'test']);
  });

  it('offers a stopping agent the job it was given but has not accepted, so it finishes it', async () => {
    const w = world([{ label: 'build' }]);
    const token = await w.register();
    const offered = await pingAgent(w.deps)(`Token ${token}`);
    w.setAgent(token, { connectionState: 'stopping' });
    const again = await pingAgent(w.deps)(`Token ${token}`);
    expect(again.job?.location.job.id).toBe(offered.job?.location.job.id);
  });
});
