import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BuildResult, BuildView, JobView, PipelineResult } from '@ci/application';
import type { Agent, Build, Job, User } from '@ci/domain';
import { pipelineWith } from '@ci/domain/pipeline.fixture';
import { describe, expect, it } from 'vitest';
import { presentPipeline } from '../pipelines/pipeline.presenter';
import { type BuildForm, presentBuild, presentBuilds } from './build.presenter';
import { type AgentWire, BuildWire } from './build.wire';

// Copies of ../shared/reference/buildkite-examples, kept in the repository so the test is hermetic.
const EXAMPLES = resolve(import.meta.dirname, '../../../../test/fixtures/reference');
type Json = Record<string, unknown>;
const example = (file: string): Json => {
  const body: unknown = JSON.parse(readFileSync(`${EXAMPLES}/${file}`, 'utf8'));
  return (Array.isArray(body) ? body[0] : body) as Json;
};

const keysOf = (value: unknown) => Object.keys(value as Json);
const hasKeys = (actual: unknown, expected: string[]) =>
  expect(keysOf(actual)).toEqual(expect.arrayContaining(expected));
const decode = (graphqlId: unknown) => Buffer.from(graphqlId as string, 'base64').toString('utf8');

const API = 'https://api.ci.test';
const WEB = 'https://ci.test';
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PIPELINE_CREATED_AT_SINGLE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/;

const ids = {
  build: '0190f3a2-7b1c-7d2e-8f3a-1b2c3d4e5f60',
  original: '0190f3a2-0000-7d2e-8f3a-1b2c3d4e5f60',
  pipeline: '0190f3a1-1111-7abc-8def-0123456789ab',
  org: '0190f3a0-2222-7abc-8def-0123456789ab',
  creator: '0190f3a0-3333-7abc-8def-0123456789ab',
  agentCreator: '0190f3a0-4444-7abc-8def-0123456789ab',
  agent: '0190f3a0-5555-7abc-8def-0123456789ab',
  scriptJob: '0190f3a2-6666-7abc-8def-0123456789ab',
  waiterJob: '0190f3a2-7777-7abc-8def-0123456789ab',
  step: '0190f3a1-8888-7abc-8def-0123456789ab',
};

const creator: User = {
  id: ids.creator,
  name: 'Ada Lovelace',
  email: '  Ada@Example.COM ',
  avatarUrl: null,
  createdAt: new Date('2025-01-02T03:04:05.006Z'),
};

const agentCreator: User = {
  id: ids.agentCreator,
  name: 'Agent Owner',
  email: 'owner@example.com',
  avatarUrl: 'https://avatars.example.com/owner.png',
  createdAt: new Date('2025-01-03T03:04:05.000Z'),
};

const agent: Agent & { creator: User | null } = {
  id: ids.agent,
  organizationId: ids.org,
  name: 'builder-1',
  hostname: 'builder-1.internal',
  ipAddress: '10.0.0.7',
  userAgent: 'buildkite-agent/3.80.0 (linux; amd64)',
  connectionState: 'connected',
  tags: ['queue=default'],
  creatorId: ids.agentCreator,
  createdAt: new Date('2025-02-01T00:00:00.000Z'),
  version: '3.80.0',
  pid: '4242',
  connectedAt: new Date('2025-02-01T00:00:01.000Z'),
  disconnectedAt: null,
  heartbeatAt: new Date('2025-02-01T00:00:31.000Z'),
  pausedAt: null,
  pauseNote: null,
  pausedUntil: null,
  clusterId: null,
  clusterQueueId: null,
  creator: agentCreator,
};

const pipeline: BuildView['pipeline'] = {
  ...pipelineWith({
    id: ids.pipeline,
    organizationId: ids.org,
    slug: 'web-app',
    name: 'Web App',
    repository: 'git@github.com:acme/web-app.git',
    branchConfiguration: 'main release/*',
    provider: { id: 'github', settings: { build_tags: true, repository: 'acme/web-app', unknown: 1 } },
    webhookToken: 'whtoken123',
    cancelRunningBranchBuilds: true,
    cancelRunningBranchBuildsFilter: 'feature/*',
    nextBuildNumber: 43,
    createdAt: new Date('2024-12-24T18:30:15.987Z'),
    env: {},
    createdById: ids.creator,
  }),
  createdBy: creator,
  counts: {
    scheduledBuildsCount: 1,
    runningBuildsCount: 2,
    scheduledJobsCount: 3,
    runningJobsCount: 4,
    waitingJobsCount: 5,
  },
};

const build: Build = {
  id: ids.build,
  pipelineId: ids.pipeline,
  number: 42,
  state: 'passed',
  blockedState: null,
  cancelReason: null,
  startedAt: new Date('2025-03-01T10:00:05.100Z'),
  failingAt: null,
  finishedAt: new Date('2025-03-01T10:05:00.000Z'),
  message: 'Fix the flux capacitor',
  commit: 'a'.repeat(40),
  branch: 'main',
  env: { CI: 'true' },
  metaData: { release: 'yes' },
  source: 'api',
  author: { name: 'Ada Lovelace', email: 'ada@example.com' },
  creatorId: ids.creator,
  rebuiltFromId: null,
  pullRequest: null,
  cleanCheckout: false,
  createdAt: new Date('2025-03-01T10:00:00.000Z'),
  scheduledAt: new Date('2025-03-01T10:00:00.000Z'),
};

const scriptJob: Job = {
  id: ids.scriptJob,
  buildId: ids.build,
  stepId: ids.step,
  position: 0,
  type: 'script',
  name: ':rspec: RSpec',
  stepKey: 'rspec',
  command: 'bundle exec rspec',
  state: 'passed',
  agentQueryRules: ['queue=default'],
  agentId: ids.agent,
  exitStatus: 0,
  softFailed: false,
  artifactPaths: null,
  env: {},
  retried: false,
  retriedInJobId: null,
  retriesCount: null,
  retryType: null,
  parallelGroupIndex: null,
  parallelGroupTotal: null,
  createdAt: new Date('2025-03-01T10:00:00.000Z'),
  scheduledAt: new Date('2025-03-01T10:00:00.500Z'),
  runnableAt: new Date('2025-03-01T10:00:01.000Z'),
  startedAt: new Date('2025-03-01T10:00:05.100Z'),
  finishedAt: new Date('2025-03-01T10:05:00.000Z'),
  softFail: false,
  continueOnFailure: false,
  retryAutomaticLimit: null,
  signal: null,
  signalReason: null,
  unblockedById: null,
  unblockedAt: null,
  matrix: null,
  timeoutInMinutes: null,
  clusterId: null,
  clusterQueueId: null,
  trigger: null,
  triggeredBuildId: null,
  concurrencyGroup: null,
  concurrencyLimit: null,
  groupKey: null,
  blockFields: null,
};

const waiterJob: Job = {
  ...scriptJob,
  id: ids.waiterJob,
  stepId: null,
  position: 1,
  type: 'waiter',
  name: null,
  stepKey: null,
  command: null,
  state: 'waiting',
  agentQueryRules: [],
  agentId: null,
  exitStatus: null,
  artifactPaths: 'coverage/**/*',
  scheduledAt: null,
  runnableAt: null,
  startedAt: null,
  finishedAt: null,
};

function viewWith(overrides: { build?: Partial<Build> } & Partial<Omit<BuildView, 'build'>> = {}): BuildView {
  const { build: buildOverrides, ...rest } = overrides;
  const jobs: JobView[] = [
    { job: scriptJob, agent, retrySourceId: null },
    { job: waiterJob, agent: null, retrySourceId: null },
  ];
  return {
    build: { ...build, ...buildOverrides },
    organizationSlug: 'acme',
    pipeline,
    creator,
    jobs,
    rebuiltFrom: null,
    triggeredFrom: null,
    ...rest,
  };
}

const result = (view: BuildView = viewWith(), showWebhookUrl = true): BuildResult => ({
  view,
  showWebhookUrl,
});
/** A build presented without exclusions, so `jobs` and `pipeline` are there. */
type FullBuildWire = BuildWire & Required<Pick<BuildWire, 'jobs' | 'pipeline'>>;
/** `single` is presented as the get-build response, the one example with `job_state_counts`. */
const present = (form: BuildForm, r: BuildResult = result()) =>
  presentBuild(r, {
    urls: { api: API, web: WEB },
    form,
    jobStateCounts: form === 'single',
  }) as FullBuildWire;
// Reading the wire through its JSON is what a client sees, and keeps the assertions untyped.
const wire = (form: BuildForm, r?: BuildResult) => JSON.parse(JSON.stringify(present(form, r)));

describe('key sets against the reference examples', () => {
  const cases: [BuildForm, string][] = [
    ['single', 'builds-get.json'],
    ['single', 'builds-create.json'],
    ['single', 'builds-cancel.json'],
    ['list', 'builds-list.json'],
  ];

  // Responses are a superset of every source (decisions.md): each example key is there, others may be.
  it.each(cases)('form %s has every key of %s', (form, file) => {
    const reference = example(file);
    const referenceJob = (reference.jobs as Json[])[0]!;
    const referencePipeline = reference.pipeline as Json;
    const ours = wire(form);

    hasKeys(ours, keysOf(reference));
    for (const job of ours.jobs) hasKeys(job, keysOf(referenceJob));
    hasKeys(ours.jobs[0].step, keysOf(referenceJob.step));
    hasKeys(ours.jobs[0].agent, keysOf(referenceJob.agent));
    hasKeys(ours.creator, keysOf(reference.creator));
    hasKeys(ours.pipeline, keysOf(referencePipeline));
    hasKeys(ours.pipeline.provider, keysOf(referencePipeline.provider));
  });

  it('shows the full agent and creator (the cancel example) in every form', () => {
    const reference = example('builds-cancel.json');
    const referenceAgent = (reference.jobs as Json[])[0]!.agent as Json;
    for (const form of ['single', 'list'] as const) {
      const ours = wire(form);
      hasKeys(ours.jobs[0].agent, keysOf(referenceAgent));
      hasKeys(ours.jobs[0].agent.creator, keysOf(reference.creator));
      hasKeys(ours.creator, keysOf(reference.creator));
    }
  });

  it("embeds the pipelines endpoints' own pipeline shape, without configuration", () => {
    const standalone = presentPipeline(
      {
        record: { pipeline, createdBy: creator },
        organizationSlug: 'acme',
        showWebhookUrl: true,
      } as PipelineResult,
      { api: API, web: WEB },
    );
    const { configuration: _, ...withoutConfiguration } = standalone;
    expect(wire('list').pipeline).toEqual(JSON.parse(JSON.stringify(withoutConfiguration)));
    expect(wire('single').pipeline).toEqual({
      ...JSON.parse(JSON.stringify(withoutConfiguration)),
      created_at: '2024-12-24 18:30:15 UTC',
    });
  });
});

describe('rule B1', () => {
  it('a blocked build shows the state it was blocked in and blocked: true', () => {
    const ours = present('single', result(viewWith({ build: { state: 'blocked', blockedState: 'passed' } })));
    expect(ours.state).toBe('passed');
    expect(ours.blocked).toBe(true);
  });

  it('a build blocked after a failure shows failed', () => {
    const ours = present('list', result(viewWith({ build: { state: 'blocked', blockedState: 'failed' } })));
    expect(ours).toMatchObject({ state: 'failed', blocked: true });
  });

  it('any other build shows its state and blocked: false', () => {
    expect(present('single')).toMatchObject({ state: 'passed', blocked: false });
  });
});

describe('rule B2', () => {
  it('hides the webhook URL from viewers who may not edit the pipeline', () => {
    for (const form of ['single', 'list'] as const) {
      expect(present(form, result(viewWith(), false)).pipeline.provider.webhook_url).toBe('');
    }
  });

  it('shows it, absolute, to those who may', () => {
    expect(present('single', result(viewWith(), true)).pipeline.provider.webhook_url).toBe(
      `${API}/webhooks/deliver/whtoken123`,
    );
  });
});

describe('graphql ids', () => {
  it('decode to <Type>---<own id>', () => {
    const ours = present('single');
    const jobAgent = ours.jobs[0]!.agent as AgentWire;
    expect(decode(ours.graphql_id)).toBe(`Build---${ids.build}`);
    expect(decode(ours.jobs[0]!.graphql_id)).toBe(`Job---${ids.scriptJob}`);
    expect(decode(ours.jobs[1]!.graphql_id)).toBe(`Job---${ids.waiterJob}`);
    expect(decode(ours.pipeline.graphql_id)).toBe(`Pipeline---${ids.pipeline}`);
    expect(decode(ours.creator!.graphql_id)).toBe(`User---${ids.creator}`);
    expect(decode(jobAgent.graphql_id)).toBe(`Agent---${ids.agent}`);
    expect(decode(jobAgent.creator!.graphql_id)).toBe(`User---${ids.agentCreator}`);
  });

  it('are in every job (the create response too: the recorded one has them)', () => {
    for (const form of ['single', 'list'] as const) {
      for (const job of present(form).jobs) expect(decode(job.graphql_id)).toBe(`Job---${job.id}`);
    }
  });
});

describe('timestamps', () => {
  it('are ISO 8601 with milliseconds and Z, null when unset', () => {
    const ours = present('single');
    const job = ours.jobs[0]!;
    const agentWire = job.agent as AgentWire;
    for (const value of [
      ours.created_at,
      ours.scheduled_at,
      ours.started_at,
      ours.finished_at,
      ours.creator!.created_at,
      job.created_at,
      job.scheduled_at,
      job.runnable_at,
      job.started_at,
      job.finished_at,
      agentWire.created_at,
      agentWire.creator!.created_at,
    ]) {
      expect(value).toMatch(ISO_MS_Z);
    }
    expect(ours.started_at).toBe('2025-03-01T10:00:05.100Z');
    expect(ours.failing_at).toBeNull();
    expect(ours.jobs[1]!.started_at).toBeNull();
    expect(ours.jobs[1]!.runnable_at).toBeNull();
  });

  it("writes the embedded pipeline's created_at as YYYY-MM-DD HH:MM:SS UTC only in single-build responses", () => {
    expect(present('single').pipeline.created_at).toBe('2024-12-24 18:30:15 UTC');
    expect(present('single').pipeline.created_at).toMatch(PIPELINE_CREATED_AT_SINGLE);
    expect(present('list').pipeline.created_at).toBe('2024-12-24T18:30:15.987Z');
    expect(present('list').pipeline.created_at).toMatch(ISO_MS_Z);
  });
});

describe('pull_request and rebuilt_from', () => {
  it('pull_request is null without one', () => {
    expect(present('single').pull_request).toBeNull();
  });

  it('pull_request is {id, base, repository} with one', () => {
    const pullRequest = { id: '123', base: 'main', repository: 'git@github.com:fork/web-app.git' };
    const ours = wire('single', result(viewWith({ build: { pullRequest } })));
    expect(ours.pull_request).toEqual(pullRequest);
    expect(keysOf(ours.pull_request)).toEqual(['id', 'base', 'repository']);
  });

  it('rebuilt_from is null on a build that is not a rebuild', () => {
    expect(present('single').rebuilt_from).toBeNull();
  });

  it('rebuilt_from is {id, number, url} of the original', () => {
    const ours = present('single', result(viewWith({ rebuiltFrom: { id: ids.original, number: 41 } })));
    expect(ours.rebuilt_from).toEqual({
      id: ids.original,
      number: 41,
      url: `${API}/v2/organizations/acme/pipelines/web-app/builds/41`,
    });
  });
});

describe('urls', () => {
  it('are absolute, built from the configured bases', () => {
    const ours = present('single');
    const job = ours.jobs[0]!;
    const buildUrl = `${API}/v2/organizations/acme/pipelines/web-app/builds/42`;
    expect(ours.url).toBe(buildUrl);
    expect(ours.web_url).toBe(`${WEB}/acme/web-app/builds/42`);
    expect(job.web_url).toBe(`${WEB}/acme/web-app/builds/42#${ids.scriptJob}`);
    expect(job.log_url).toBe(`${buildUrl}/jobs/${ids.scriptJob}/log`);
    expect(job.raw_log_url).toBe(`${buildUrl}/jobs/${ids.scriptJob}/log.txt`);
    expect(job.agent).toMatchObject({
      url: `${API}/v2/organizations/acme/agents/${ids.agent}`,
      web_url: `${WEB}/organizations/acme/agents/${ids.agent}`,
    });
    expect(ours.pipeline.url).toBe(`${API}/v2/organizations/acme/pipelines/web-app`);
    expect(ours.pipeline.builds_url).toBe(`${API}/v2/organizations/acme/pipelines/web-app/builds`);
    expect(ours.pipeline.badge_url).toBe(`${API}/badges/${ids.pipeline}.svg`);
    expect(ours.pipeline.web_url).toBe(`${WEB}/acme/web-app`);
    expect(job.build_url).toBe(buildUrl);
    expect(job.artifacts_url).toBe(`${buildUrl}/jobs/${ids.scriptJob}/artifacts`);
  });

  it('shows the full agent in every form, as recorded (the spec shows a short one in pipeline lists)', () => {
    for (const form of ['single', 'list'] as const) {
      expect(present(form).jobs[0]!.agent).toMatchObject({
        id: ids.agent,
        url: `${API}/v2/organizations/acme/agents/${ids.agent}`,
        name: 'builder-1',
        job: null,
        last_job_finished_at: null,
        priority: 0,
      });
    }
  });
});

describe('users', () => {
  it('falls back to the gravatar of the trimmed, lowercased email', () => {
    const md5 = createHash('md5').update('ada@example.com').digest('hex');
    expect(present('single').creator!.avatar_url).toBe(`https://www.gravatar.com/avatar/${md5}`);
  });

  it('keeps a stored avatar', () => {
    expect((present('single').jobs[0]!.agent as AgentWire).creator!.avatar_url).toBe(
      'https://avatars.example.com/owner.png',
    );
  });

  it('shows null for a build or agent without a creator', () => {
    const ours = present(
      'single',
      result(
        viewWith({
          creator: null,
          jobs: [{ job: scriptJob, agent: { ...agent, creator: null }, retrySourceId: null }],
        }),
      ),
    );
    expect(ours.creator).toBeNull();
    expect((ours.jobs[0]!.agent as AgentWire).creator).toBeNull();
  });
});

describe('jobs', () => {
  it("shows a retry's source job and how it was retried, and null for a first run", () => {
    const retry = { ...scriptJob, id: ids.step.replace(/.$/, 'f'), retriesCount: 1, retryType: 'manual' };
    const ours = present(
      'single',
      result(viewWith({ jobs: [{ job: retry, agent: null, retrySourceId: scriptJob.id }] })),
    );
    expect(ours.jobs[0]!.retry_source).toEqual({ job_id: scriptJob.id, retry_type: 'manual' });
    expect(present('single').jobs[0]!.retry_source).toBeNull();
  });

  it('shows the step, artifact paths and fixed nulls', () => {
    const [script, waiter] = present('single').jobs;
    expect(script!.step).toEqual({ id: ids.step, signature: null });
    expect(script!.artifact_paths).toBe('');
    expect(waiter!.artifact_paths).toBe('coverage/**/*');
    expect(waiter!.agent).toBeNull();
    expect(waiter!.type).toBe('waiter');
    expect(script).toMatchObject({
      matrix: null,
      cluster_id: null,
      cluster_url: null,
      cluster_queue_id: null,
      cluster_queue_url: null,
    });
  });
});

describe('the embedded pipeline', () => {
  it('shows the counts', () => {
    expect(present('list').pipeline).toMatchObject({
      scheduled_builds_count: 1,
      running_builds_count: 2,
      scheduled_jobs_count: 3,
      running_jobs_count: 4,
      waiting_jobs_count: 5,
    });
  });

  it('shows branch settings, the creator and provider settings in every form, stored values over defaults', () => {
    for (const form of ['single', 'list'] as const) {
      const ours = present(form).pipeline;
      expect(ours.branch_configuration).toBe('main release/*');
      expect(ours.default_branch).toBe('main');
      expect(ours.created_by?.id).toBe(ids.creator);
      expect(ours.provider.settings).toMatchObject({ build_tags: true, repository: 'acme/web-app' });
      expect(ours.provider.settings.build_branches).toBe(true);
    }
  });

  it("provider settings' repository falls back to the pipeline's", () => {
    const bare = { ...pipeline, provider: { id: 'github', settings: {} } };
    expect(present('list', result(viewWith({ pipeline: bare }))).pipeline.provider.settings.repository).toBe(
      'acme/web-app',
    );
  });
});

describe('presentBuilds', () => {
  it('presents each build in order', () => {
    const second = viewWith({ build: { id: ids.original, number: 41 } });
    const options = { urls: { api: API, web: WEB }, form: 'list' as const };
    const ours = presentBuilds([result(), result(second, false)], options);
    expect(ours.map((b) => b.number)).toEqual([42, 41]);
    expect(ours[1]!.pipeline!.provider.webhook_url).toBe('');
    expect(ours).toEqual([presentBuild(result(), options), presentBuild(result(second, false), options)]);
  });

  it('returns [] for no builds', () => {
    expect(presentBuilds([], { urls: { api: API, web: WEB }, form: 'list' })).toEqual([]);
  });

  it('drops jobs with excludeJobs and the pipeline with excludePipeline, nothing else', () => {
    const options = { urls: { api: API, web: WEB }, form: 'list' as const };
    const full = presentBuild(result(), options);
    const lean = presentBuild(result(), { ...options, excludeJobs: true, excludePipeline: true });
    expect(lean).not.toHaveProperty('jobs');
    expect(lean).not.toHaveProperty('pipeline');
    const { jobs: _jobs, pipeline: _pipeline, ...rest } = full;
    expect(lean).toEqual(rest);
  });

  it('matches its own wire schema in every form', () => {
    for (const form of ['single', 'list'] as const) {
      expect(() => BuildWire.strict().parse(present(form))).not.toThrow();
    }
  });

  it('counts the shown jobs by state in job_state_counts', () => {
    expect(present('single').job_state_counts).toEqual({ total: 2, states: { passed: 1, waiting: 1 } });
    expect(present('list')).not.toHaveProperty('job_state_counts');
  });

  it('produces output that survives a JSON round trip unchanged', () => {
    const ours = present('single');
    expect(JSON.parse(JSON.stringify(ours))).toEqual(ours);
  });
});
