/**
 * The reference seeder's data set (`../shared/bench-reference/seed.mjs`), in the project's columns.
 *
 * The same deterministic PRNG (mulberry32, same seed) is drawn in the same order as the reference draws
 * it, so build N of pipeline P has the same state, branch, commit, message, env, meta-data, author, pull
 * request and relative times in both databases. Ids are not drawn from the PRNG (the reference uses
 * random UUIDs; here they are the project's time-ordered UUIDv7, as real rows get).
 *
 * Where the schemas differ: the project keeps `organization_id` on builds, a `blocked_state` instead of a
 * `blocked` flag (a blocked build here is blocked after passing jobs: `passed`), no `tag` and no
 * `canceled_at` column, author `{name, email}` and pull request `{id, base, repository}` (the fields its
 * wire format shows).
 */

export const JOBS_PER_BUILD = 5;
export const PIPELINES = 10;
export const USERS = 20;

/** mulberry32 with the reference's seed; `rand()` is in [0, 1). */
export function referencePrng() {
  let state = 0x9e3779b9;
  const rand = () => {
    state |= 0;
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const hex = (length: number) => {
    let s = '';
    while (s.length < length)
      s += Math.floor(rand() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    return s.slice(0, length);
  };
  return { rand, pick, hex };
}
export type Prng = ReturnType<typeof referencePrng>;

const FEATURE_BRANCHES = Array.from({ length: 200 }, (_, i) => `feature/ticket-${1000 + i}`);
const WORDS =
  'fix add update remove refactor bump improve handle support cache retry parse render build deploy test docs config api ui flaky timeout'.split(
    ' ',
  );
export const SEEDED_STEPS = [
  { key: 'upload', name: ':pipeline: Upload', command: 'buildkite-agent pipeline upload' },
  { key: 'build', name: ':hammer: Build', command: 'make build' },
  { key: 'test-1', name: ':rspec: Test 1/2', command: 'make test PART=1' },
  { key: 'test-2', name: ':rspec: Test 2/2', command: 'make test PART=2' },
  { key: 'deploy', name: ':rocket: Deploy', command: 'make deploy' },
] as const;
const FINISHED = ['passed', 'failed', 'canceled', 'skipped', 'not_run'];
const SOURCES = ['webhook', 'webhook', 'webhook', 'api', 'ui', 'schedule'] as const;
const RECENT_STATES = ['running', 'scheduled', 'running', 'passed', 'failed', 'canceling'] as const;
const YEAR_MS = 365 * 86400e3;

export interface SeedUser {
  id: string;
  name: string;
  email: string;
}
export interface SeedPipeline {
  id: string;
  repository: string;
}

/** A build as drawn (first pass); `times` is filled when its row is written (second pass). */
export interface DrawnBuild {
  id: string;
  pipeline: SeedPipeline;
  number: number;
  state: string;
  branch: string;
  created: number;
  times?: [scheduledAt: number, startedAt: number | null, finishedAt: number | null];
}

/**
 * The first pass of the reference: which pipeline, number, branch, creation time and state each build
 * gets. The PRNG must already have drawn the reference's pipeline webhook hexes (`drawPipelineHexes`).
 */
export function drawBuilds(
  prng: Prng,
  count: number,
  pipelines: readonly SeedPipeline[],
  now: number,
  newId: (ms: number) => string,
): DrawnBuild[] {
  const next = pipelines.map(() => 1);
  const builds = new Array<DrawnBuild>(count);
  const buildState = (i: number) => {
    if (i > count - 200) return prng.pick(RECENT_STATES);
    const r = prng.rand();
    return r < 0.68
      ? 'passed'
      : r < 0.86
        ? 'failed'
        : r < 0.93
          ? 'canceled'
          : r < 0.97
            ? 'skipped'
            : r < 0.99
              ? 'not_run'
              : 'blocked';
  };
  for (let i = 0; i < count; i++) {
    const index = Math.floor(prng.rand() * pipelines.length);
    const r = prng.rand();
    const branch = r < 0.5 ? 'main' : r < 0.6 ? 'develop' : prng.pick(FEATURE_BRANCHES);
    const created = now - YEAR_MS + Math.floor((i / count) * YEAR_MS) + Math.floor(prng.rand() * 1000);
    const number = next[index]!;
    next[index] = number + 1;
    const state = buildState(i);
    builds[i] = { id: newId(created), pipeline: pipelines[index]!, number, state, branch, created };
  }
  return builds;
}

/** The reference draws one 40-digit hex per pipeline (its webhook URL) before any build. */
export function drawPipelineHexes(prng: Prng, pipelines: number): string[] {
  return Array.from({ length: pipelines }, () => prng.hex(40));
}

/** Pre-encoded COPY text literal. */
class Raw {
  constructor(readonly text: string) {}
}
const NEEDS_ESCAPE = /[\\\t\n\r]/;

/** One value in COPY's text format. */
function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (value instanceof Raw) return value.text;
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object') return copyValue(JSON.stringify(value));
  const text = String(value);
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}
export const copyLine = (values: readonly unknown[]) => `${values.map(copyValue).join('\t')}\n`;

const iso = (ms: number) => new Date(ms).toISOString();

export const BUILD_COLUMNS = [
  'id',
  'organization_id',
  'pipeline_id',
  'number',
  'state',
  'blocked_state',
  'cancel_reason',
  'message',
  'commit',
  'branch',
  'env',
  'meta_data',
  'source',
  'author',
  'creator_id',
  'rebuilt_from_id',
  'pull_request',
  'clean_checkout',
  'created_at',
  'scheduled_at',
  'started_at',
  'failing_at',
  'finished_at',
] as const;

/** The second pass of the reference (its `copy builds`): one row per build, in the same draw order. */
export function* buildRows(
  prng: Prng,
  builds: readonly DrawnBuild[],
  users: readonly SeedUser[],
  organizationId: string,
): Generator<unknown[]> {
  for (const b of builds) {
    const user = prng.pick(users);
    const finished = FINISHED.includes(b.state);
    const started = b.state !== 'scheduled' && b.state !== 'skipped' && b.state !== 'not_run';
    const scheduledAt = b.created + 500 + Math.floor(prng.rand() * 2000);
    const startedAt = started ? scheduledAt + 1000 + Math.floor(prng.rand() * 30000) : null;
    const finishedAt =
      finished && startedAt
        ? startedAt + 60000 + Math.floor(prng.rand() * 600000)
        : finished
          ? scheduledAt
          : null;
    const isPr = b.branch.startsWith('feature/') && prng.rand() < 0.7;
    const source = prng.pick(SOURCES);
    // Drawn in the order the reference's row literal evaluates them.
    const message = `${prng.pick(WORDS)} ${prng.pick(WORDS)} in ${prng.pick(WORDS)} module (#${1000 + Math.floor(prng.rand() * 9000)})`;
    const commit = prng.hex(40);
    const env = prng.rand() < 0.2 ? { CI_DEPLOY: 'false', RAILS_ENV: 'test' } : {};
    const metaData =
      prng.rand() < 0.3
        ? { 'release-version': `1.${Math.floor(prng.rand() * 40)}.${Math.floor(prng.rand() * 10)}` }
        : {};
    const pullRequest = isPr
      ? { id: String(100 + Math.floor(prng.rand() * 5000)), base: 'main', repository: b.pipeline.repository }
      : null;
    b.times = [scheduledAt, startedAt, finishedAt];
    yield [
      b.id,
      organizationId,
      b.pipeline.id,
      b.number,
      b.state,
      b.state === 'blocked' ? 'passed' : null,
      b.state === 'canceled' ? 'Canceled by a newer build' : null,
      message,
      commit,
      b.branch,
      env,
      metaData,
      source,
      { name: user.name, email: user.email },
      source === 'webhook' ? null : user.id,
      null,
      pullRequest,
      false,
      iso(b.created),
      iso(scheduledAt),
      startedAt ? iso(startedAt) : null,
      null,
      finishedAt ? iso(finishedAt) : null,
    ];
  }
}

export const JOB_COLUMNS = [
  'id',
  'build_id',
  'step_id',
  'position',
  'type',
  'name',
  'step_key',
  'command',
  'state',
  'agent_query_rules',
  'agent_id',
  'exit_status',
  'soft_failed',
  'artifact_paths',
  'env',
  'retried',
  'retried_in_job_id',
  'retries_count',
  'retry_type',
  'parallel_group_index',
  'parallel_group_total',
  'created_at',
  'scheduled_at',
  'runnable_at',
  'started_at',
  'finished_at',
] as const;

const AGENT_RULES = new Raw('{queue=default,os=linux}');
const EMPTY_ENV = new Raw('{}');

function jobState(buildState: string, position: number): [state: string, exit: number | null] {
  switch (buildState) {
    case 'passed':
      return ['passed', 0];
    case 'failed':
      return position < 2 ? ['passed', 0] : position === 2 ? ['failed', 1] : ['broken', null];
    case 'canceled':
      return position < 2 ? ['passed', 0] : ['canceled', null];
    case 'running':
    case 'canceling':
      return position < 2 ? ['passed', 0] : position < 4 ? ['running', null] : ['waiting', null];
    case 'scheduled':
      return [position === 0 ? 'scheduled' : 'waiting', null];
    case 'blocked':
      return position < 4 ? ['passed', 0] : ['blocked', null];
    default:
      return ['skipped', null];
  }
}

/** The reference's `copy jobs`: five jobs per build (no PRNG draws). */
export function* jobRows(builds: readonly DrawnBuild[], newId: (ms: number) => string): Generator<unknown[]> {
  for (const b of builds) {
    const [scheduledAt, startedAt, finishedAt] = b.times!;
    for (let position = 0; position < JOBS_PER_BUILD; position++) {
      const step = SEEDED_STEPS[position]!;
      const [state, exit] = jobState(b.state, position);
      const jobStart = startedAt && exit !== null ? startedAt + position * 30000 : null;
      yield [
        newId(b.created),
        b.id,
        null,
        position,
        'script',
        step.name,
        step.key,
        step.command,
        state,
        AGENT_RULES,
        null,
        exit,
        false,
        position === 1 ? 'dist/**/*' : null,
        EMPTY_ENV,
        false,
        null,
        null,
        null,
        null,
        null,
        iso(b.created),
        iso(scheduledAt),
        iso(scheduledAt + 200),
        jobStart ? iso(jobStart) : null,
        jobStart ? iso(Math.min(jobStart + 25000, finishedAt ?? jobStart + 25000)) : null,
      ];
    }
  }
}
