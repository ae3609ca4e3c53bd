import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BuildResult, BuildView, JobView } from '@ci/application';
import type { Agent, Build, Job, Pipeline, User } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import { type BuildForm, presentBuild, presentBuilds } from './build.presenter';
import { type AgentWire, BuildWire } from './build.wire';

// Copies of ../shared/reference/buildkite-examples, kept in the repository so the test is hermetic.
const EXAMPLES = resolve(import.meta.dirname, '../../../../test/fixtures/reference');
type Json = Record<string, unknown>;
const example = (file: string): Json => {
  const body: unknown = JSON.parse(readFileSync(`${EXAMPLES}/${file}`, 'utf8'));
  return (Array.isArray(body) ? body[0] : body) as Json;
};

/** Keys the reference examples have and we knowingly do not produce: none. */
const BUILD_KEYS_WE_LACK: string[] = [];
const JOB_KEYS_WE_LACK: string[] = [];
/**
 * The examples disagree on two job keys (the list has `group_key` but no `retry_source`, the create
 * response the reverse); every job of ours carries both.
 */
const JOB_KEYS_WE_ADD: Record<string, string[]> = {
  'builds-get.json': [],
  'builds-list.json': ['retry_source'],
  'builds-create.json': ['group_key'],
};
/**
 * The spec's User has `graphql_id` "present in some responses" (the cancel and rebuild examples);
 * we always show it, so it is extra against the get and list examples.
 */
const CREATOR_KEYS_WE_ADD = ['graphql_id'];

const keysOf = (value: unknown) => Object.keys(value as Json);
const expectedKeys = (
  reference: unknown,
  { lack = [], add = [] }: { lack?: string[]; add?: string[] } = {},
) => {
  const keys = keysOf(reference).filter((key) => !lack.includes(key));
  return [...keys, ...add];
};
const sameKeySet = (actual: unknown, expected: string[]) =>
  expect(new Set(keysOf(actual))).toEqual(new Set(expected));
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
  creator: agentCreator,
};

const pipeline: Pipeline & { counts: BuildView['pipeline']['counts'] } = {
  id: ids.pipeline,
  organizationId: ids.org,
  slug: 'web-app',
  name: 'Web App',
  description: null,
  repository: 'git@github.com:acme/web-app.git',
  defaultBranch: 'main',
  branchConfiguration: 'main release/*',
  steps: [],
  provider: { id: 'github', settings: { build_tags: true, repository: 'acme/web-app', unknown: 1 } },
  webhookToken: 'whtoken123',
  skipQueuedBranchBuilds: false,
  skipQueuedBranchBuildsFilter: null,
  cancelRunningBranchBuilds: true,
  cancelRunningBranchBuildsFilter: 'feature/*',
  nextBuildNumber: 43,
  archivedAt: null,
  createdAt: new Date('2024-12-24T18:30:15.987Z'),
  env: {},
  visibility: 'private',
  tags: null,
  clusterId: null,
  allowRebuilds: true,
  configuration: null,
  createdById: null,
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
const present = (form: BuildForm, r: BuildResult = result(), jobGraphqlIds?: boolean) =>
  presentBuild(r, {
    urls: { api: API, web: WEB },
    form,
    jobGraphqlIds,
    jobStateCounts: form === 'single',
  }) as FullBuildWire;
// Reading the wire through its JSON is what a client sees, and keeps the assertions untyped.
const wire = (form: BuildForm, r?: BuildResult, jobGraphqlIds?: boolean) =>
  JSON.parse(JSON.stringify(present(form, r, jobGraphqlIds)));

describe('key sets against the reference examples', () => {
  const cases: [BuildForm, string][] = [
    ['single', 'builds-get.json'],
    ['pipeline-list', 'builds-list.json'],
  ];

  it.each(cases)('form %s matches %s', (form, file) => {
    const reference = example(file);
    const referenceJobs = reference.jobs as Json[];
    const referenceJob = referenceJobs[0]!;
    const referencePipeline = reference.pipeline as Json;
    const ours = wire(form);

    sameKeySet(ours, expectedKeys(reference, { lack: BUILD_KEYS_WE_LACK }));
    sameKeySet(
      ours.jobs[0],
      expectedKeys(referenceJob, { lack: JOB_KEYS_WE_LACK, add: JOB_KEYS_WE_ADD[file] }),
    );
    sameKeySet(ours.jobs[0].step, keysOf(referenceJob.step));
    sameKeySet(ours.jobs[0].agent, keysOf(referenceJob.agent));
    sameKeySet(ours.creator, expectedKeys(reference.creator, { add: CREATOR_KEYS_WE_ADD }));
    sameKeySet(ours.pipeline, keysOf(referencePipeline));
    sameKeySet(ours.pipeline.provider, keysOf(referencePipeline.provider));

    // Non-script jobs keep the same keys.
    sameKeySet(ours.jobs[1], keysOf(ours.jobs[0]));
  });

  it('keeps the reference key order', () => {
    const reference = example('builds-get.json');
    const ours = wire('single');
    expect(keysOf(ours)).toEqual(expectedKeys(reference, { lack: BUILD_KEYS_WE_LACK }));
    expect(keysOf(ours.jobs[0])).toEqual(
      expectedKeys((reference.jobs as Json[])[0], { lack: JOB_KEYS_WE_LACK }),
    );
    expect(keysOf(ours.pipeline)).toEqual(keysOf(reference.pipeline));
    const listReference = example('builds-list.json');
    const listed = wire('pipeline-list');
    expect(keysOf(listed.pipeline)).toEqual(keysOf(listReference.pipeline));
    expect(keysOf(listed.pipeline.provider.settings)).toEqual(
      keysOf((listReference.pipeline as { provider: { settings: Json } }).provider.settings),
    );
  });

  it('shows the full agent and creator (the cancel example) in every form but pipeline-list', () => {
    const reference = example('builds-cancel.json');
    const referenceAgent = (reference.jobs as Json[])[0]!.agent as Json;
    for (const form of ['single', 'list'] as const) {
      const ours = wire(form);
      sameKeySet(ours.jobs[0].agent, keysOf(referenceAgent));
      sameKeySet(ours.jobs[0].agent.creator, keysOf(reference.creator));
      sameKeySet(ours.creator, keysOf(reference.creator));
    }
  });

  it("the 'list' form embeds the pipeline like single builds do, with ISO created_at", () => {
    const ours = wire('list');
    sameKeySet(ours.pipeline, keysOf(example('builds-get.json').pipeline));
    expect(ours.pipeline.created_at).toBe('2024-12-24T18:30:15.987Z');
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
    for (const form of ['single', 'list', 'pipeline-list'] as const) {
      expect(present(form, result(viewWith(), false)).pipeline.provider.webhook_url).toBe('');
    }
  });

  it('shows it, absolute, to those who may', () => {
    expect(present('single', result(viewWith(), true)).pipeline.provider.webhook_url).toBe(
      `${WEB}/webhooks/deliver/whtoken123`,
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

  it('are left out of jobs when jobGraphqlIds is false (the create-build response)', () => {
    const ours = wire('single', result(), false);
    for (const job of ours.jobs) expect(job).not.toHaveProperty('graphql_id');
    sameKeySet(
      ours.jobs[0],
      expectedKeys((example('builds-create.json').jobs as Json[])[0], {
        lack: JOB_KEYS_WE_LACK,
        add: JOB_KEYS_WE_ADD['builds-create.json'],
      }),
    );
    expect(keysOf(ours.jobs[0]).slice(0, 2)).toEqual(['id', 'type']);
    // The rest keeps its graphql ids.
    expect(ours.graphql_id).toBeTypeOf('string');
    expect(ours.jobs[0].agent.graphql_id).toBeTypeOf('string');
  });

  it('are present in jobs by default and with jobGraphqlIds true', () => {
    expect(present('list').jobs[0]).toHaveProperty('graphql_id');
    expect(present('list', result(), true).jobs[0]).toHaveProperty('graphql_id');
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
    expect(present('pipeline-list').pipeline.created_at).toMatch(ISO_MS_Z);
  });
});

describe('pull_request and rebuilt_from', () => {
  it('pull_request is {} without one', () => {
    expect(present('single').pull_request).toEqual({});
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
    expect(ours.pipeline.badge_url).toBe(`${API}/badges/whtoken123.svg`);
    expect(ours.pipeline).not.toHaveProperty('web_url');
  });

  it("the pipeline-list form adds the pipeline's web_url and shows the short agent", () => {
    const ours = present('pipeline-list');
    expect(ours.pipeline.web_url).toBe(`${WEB}/acme/web-app`);
    expect(ours.jobs[0]!.agent).toEqual({
      id: ids.agent,
      url: `${API}/v2/organizations/acme/agents/${ids.agent}`,
      name: 'builder-1',
    });
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

  it('pipeline-list shows branch settings and provider settings, stored values over defaults', () => {
    const ours = present('pipeline-list').pipeline;
    expect(ours.branch_configuration).toBe('main release/*');
    expect(ours.default_branch).toBe('main');
    expect(ours.provider.settings).toEqual({
      trigger_mode: 'code',
      build_pull_requests: true,
      pull_request_branch_filter_enabled: false,
      skip_pull_request_builds_for_existing_commits: true,
      build_pull_request_forks: false,
      prefix_pull_request_fork_branch_names: true,
      build_tags: true,
      publish_commit_status: true,
      publish_commit_status_per_step: false,
      publish_blocked_as_pending: false,
      repository: 'acme/web-app',
    });
  });

  it("provider settings' repository falls back to the pipeline's", () => {
    const bare = { ...pipeline, provider: { id: 'github', settings: {} } };
    expect(
      present('pipeline-list', result(viewWith({ pipeline: bare }))).pipeline.provider.settings?.repository,
    ).toBe('git@github.com:acme/web-app.git');
  });

  it('other forms leave out web_url, branch settings and provider settings', () => {
    for (const form of ['single', 'list'] as const) {
      const ours = present(form).pipeline;
      expect(ours).not.toHaveProperty('web_url');
      expect(ours).not.toHaveProperty('branch_configuration');
      expect(ours).not.toHaveProperty('default_branch');
      expect(ours.provider).not.toHaveProperty('settings');
    }
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
    expect(presentBuilds([], { urls: { api: API, web: WEB }, form: 'pipeline-list' })).toEqual([]);
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
    for (const form of ['single', 'list', 'pipeline-list'] as const) {
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
