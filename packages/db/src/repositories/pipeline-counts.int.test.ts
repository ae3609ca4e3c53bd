import { newId } from '@ci/application';
import { BUILD_STATES, type BuildState, JOB_STATES, type JobState } from '@ci/domain';
import { buildIn } from '@ci/domain/build.fixture';
import { jobIn } from '@ci/domain/job.fixture';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, someoneWaitsForALock, type TestDatabase } from '../../../../test/support/database';
import type { Sql } from '../sql';
import { buildRepository } from './build.repository';

/*
 * The stored pipeline counts (kept by Migration20261121160000's triggers, and by a create's own statement)
 * against the aggregate they replaced, after every kind of write to builds and jobs, sequential and
 * concurrent.
 */

/** The aggregate the counters replaced: what each pipeline's five counts must equal. */
const AGGREGATE = `select p.id as pipeline_id,
  (select count(*) from builds s where s.pipeline_id = p.id and s.state = 'scheduled')::int as scheduled_builds,
  (select count(*) from builds s where s.pipeline_id = p.id and s.state = 'running')::int as running_builds,
  coalesce(jc.scheduled, 0) as scheduled_jobs, coalesce(jc.running, 0) as running_jobs,
  coalesce(jc.waiting, 0) as waiting_jobs
from pipelines p
left join lateral (
  select count(*) filter (where j.state in ('scheduled', 'assigned', 'accepted'))::int as scheduled,
         count(*) filter (where j.state in ('running', 'canceling', 'timing_out'))::int as running,
         count(*) filter (where j.state in ('waiting', 'blocked', 'limited', 'pending'))::int as waiting
  from builds ab join jobs j on j.build_id = ab.id
  where ab.pipeline_id = p.id and ab.state in ('scheduled', 'running', 'failing', 'canceling', 'blocked')
) jc on true
order by p.id`;

const STORED = `select p.id as pipeline_id, c.scheduled_builds, c.running_builds, c.scheduled_jobs, c.running_jobs,
  c.waiting_jobs
from pipelines p left join pipeline_counts c on c.pipeline_id = p.id order by p.id`;

let db: TestDatabase;
let sql: Sql;
let organizationId: string;
// Builds inserted here directly: numbered far past those the pipelines' counters give creates.
let numbers = 1_000_000;

beforeAll(async () => {
  db = await freshDatabase();
  sql = db.database.sql;
  organizationId = (await db.useCases.admin.createOrganization({ name: 'Acme', slug: 'acme' })).id;
});
afterAll(async () => {
  await db?.close();
});

/** Every pipeline's stored counts (or only this one's) equal the aggregate. */
async function expectCountsAsAggregated(pipelineId?: string) {
  const [stored, aggregated] = await Promise.all([sql.query(STORED), sql.query(AGGREGATE)]);
  const only = (rows: Record<string, unknown>[]) =>
    pipelineId ? rows.filter((row) => row.pipeline_id === pipelineId) : rows;
  expect(only(stored)).toEqual(only(aggregated));
}

async function newPipeline(): Promise<string> {
  const id = newId();
  await sql.query(
    `insert into pipelines (id, organization_id, slug, name, repository, steps, provider, webhook_token, created_at)
     values ($1, $2, $3, $3, 'git@example.com:a/b.git', '[]', '{}', $4, now())`,
    [id, organizationId, `p-${id}`, id.replaceAll('-', '')],
  );
  return id;
}

const buildRow = (pipelineId: string, state: string) => ({
  id: newId(),
  organization_id: organizationId,
  pipeline_id: pipelineId,
  number: ++numbers,
  state,
  commit: 'HEAD',
  branch: 'main',
  env: {},
  meta_data: {},
  source: 'api',
  created_at: new Date().toISOString(),
});

const jobRow = (buildId: string, state: string, position: number) => ({
  id: newId(),
  build_id: buildId,
  position,
  type: 'script',
  state,
  agent_query_rules: [],
  env: {},
  created_at: new Date().toISOString(),
});

/** Builds and jobs in one statement each, as the create repository inserts them. */
async function insertBuilds(sqlOrTx: Sql, builds: ReturnType<typeof buildRow>[]) {
  await sqlOrTx.query(
    `insert into builds (id, organization_id, pipeline_id, number, state, commit, branch, env, meta_data, source, created_at)
     select * from jsonb_to_recordset($1::jsonb) as x(id uuid, organization_id uuid, pipeline_id uuid, number int,
       state text, commit text, branch text, env jsonb, meta_data jsonb, source text, created_at timestamptz)`,
    [JSON.stringify(builds)],
  );
}

async function insertJobs(sqlOrTx: Sql, jobs: ReturnType<typeof jobRow>[]) {
  await sqlOrTx.query(
    `insert into jobs (id, build_id, position, type, state, agent_query_rules, env, created_at)
     select * from jsonb_to_recordset($1::jsonb) as x(id uuid, build_id uuid, position int, type text, state text,
       agent_query_rules text[], env jsonb, created_at timestamptz)
     on conflict (id) do update set state = excluded.state`,
    [JSON.stringify(jobs)],
  );
}

/**
 * A build and its jobs as the repository creates them (one statement that counts them itself, its insert
 * triggers stepping aside), then `after` in the same transaction (whose inserts their triggers count).
 */
async function createBuild(
  pipelineId: string,
  state: BuildState,
  jobStates: readonly JobState[],
  options: { rebuiltFromId?: string; after?: (tx: Sql, buildId: string) => Promise<unknown> } = {},
) {
  const id = newId();
  const now = new Date();
  return sql.transaction(async (tx) => {
    const created = await buildRepository(tx).create({
      build: buildIn(state, {
        id,
        pipelineId,
        rebuiltFromId: options.rebuiltFromId ?? null,
        createdAt: now,
        scheduledAt: now,
      }),
      organizationId,
      jobs: jobStates.map((jobState, position) => ({
        ...jobIn(jobState),
        id: newId(),
        buildId: id,
        stepId: null,
        position,
      })),
    });
    await options.after?.(tx, id);
    return { id, ...created };
  });
}

/** Jobs of these states added to a build, and a build of that state to the pipeline, by plain inserts. */
const insertAfter =
  (pipelineId: string, jobStates: readonly JobState[], buildState: BuildState | null = null) =>
  async (tx: Sql, buildId: string) => {
    await insertJobs(
      tx,
      jobStates.map((jobState, index) => jobRow(buildId, jobState, 10 + index)),
    );
    if (buildState) await insertBuilds(tx, [buildRow(pipelineId, buildState)]);
  };

/** Waits until some connection to the test database waits for a row lock. */

const buildState = fc.constantFrom(...BUILD_STATES);
const jobState = fc.constantFrom(...JOB_STATES);

const newBuild = fc.record({
  kind: fc.constant('insert build' as const),
  state: buildState,
  jobs: fc.array(jobState, { maxLength: 4 }),
});

/** One write to a pipeline's builds and jobs, by index into what exists when it runs; mostly state changes. */
const operation = fc.oneof(
  { arbitrary: newBuild, weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('create build' as const),
      state: buildState,
      jobs: fc.array(jobState, { maxLength: 4 }),
      more: fc.array(jobState, { maxLength: 2 }),
      another: fc.option(buildState),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('build state' as const), build: fc.nat(), state: buildState }),
    weight: 4,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('job state' as const), job: fc.nat(), state: jobState }),
    weight: 4,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('jobs of build' as const), build: fc.nat(), state: jobState }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('upsert jobs' as const),
      build: fc.nat(),
      job: fc.nat(),
      state: jobState,
    }),
    weight: 1,
  },
  { arbitrary: fc.record({ kind: fc.constant('delete job' as const), job: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('delete build' as const), build: fc.nat() }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('delete jobs then build' as const), build: fc.nat() }),
    weight: 1,
  },
);
type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

async function apply(pipelineId: string, op: Operation) {
  const builds = (
    await sql.query<{ id: string }>('select id from builds where pipeline_id = $1 order by id', [pipelineId])
  ).map((row) => row.id);
  const jobs = (
    await sql.query<{ id: string }>(
      'select j.id from jobs j join builds b on b.id = j.build_id where b.pipeline_id = $1 order by j.id',
      [pipelineId],
    )
  ).map((row) => row.id);
  const someBuild = (index: number) => builds[index % builds.length];
  const someJob = (index: number) => jobs[index % jobs.length];
  switch (op.kind) {
    case 'insert build': {
      const build = buildRow(pipelineId, op.state);
      await sql.transaction(async (tx) => {
        await insertBuilds(tx, [build]);
        await insertJobs(
          tx,
          op.jobs.map((state, position) => jobRow(build.id, state, position)),
        );
      });
      return;
    }
    case 'create build':
      await createBuild(pipelineId, op.state, op.jobs, {
        after: insertAfter(pipelineId, op.more, op.another),
      });
      return;
    case 'build state':
      if (builds.length)
        await sql.query('update builds set state = $2 where id = $1', [someBuild(op.build), op.state]);
      return;
    case 'job state':
      if (jobs.length)
        await sql.query('update jobs set state = $2 where id = $1', [someJob(op.job), op.state]);
      return;
    case 'jobs of build':
      if (builds.length)
        await sql.query('update jobs set state = $2 where build_id = $1', [someBuild(op.build), op.state]);
      return;
    case 'upsert jobs': {
      // A job retried: the old one updated and a new one inserted, in one statement (as writeJobs does).
      const buildId = someBuild(op.build);
      if (!buildId || !jobs.length) return;
      const [old] = await sql.query<{ id: string; build_id: string; position: number }>(
        'select id, build_id, position from jobs where id = $1',
        [someJob(op.job)],
      );
      await insertJobs(sql, [
        { ...jobRow(old!.build_id, op.state, old!.position), id: old!.id },
        jobRow(buildId, op.state, 99),
      ]);
      return;
    }
    case 'delete job':
      if (jobs.length) await sql.query('delete from jobs where id = $1', [someJob(op.job)]);
      return;
    case 'delete build':
      if (builds.length) await sql.query('delete from builds where id = $1', [someBuild(op.build)]);
      return;
    case 'delete jobs then build':
      if (!builds.length) return;
      await sql.transaction(async (tx) => {
        await tx.query('delete from jobs where build_id = $1', [someBuild(op.build)]);
        await tx.query('delete from builds where id = $1', [someBuild(op.build)]);
      });
      return;
  }
}

describe('pipeline counts kept by triggers', () => {
  it('gives a new pipeline a counter row of zeros', async () => {
    const pipelineId = await newPipeline();
    const [row] = await sql.query('select * from pipeline_counts where pipeline_id = $1', [pipelineId]);
    expect(row).toEqual({
      pipeline_id: pipelineId,
      scheduled_builds: 0,
      running_builds: 0,
      scheduled_jobs: 0,
      running_jobs: 0,
      waiting_jobs: 0,
      builds_revision: expect.any(String),
    });
  });

  it('count what the aggregate counts after any sequence of writes to builds and jobs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(newBuild, { minLength: 1, maxLength: 4 }),
        fc.array(operation, { minLength: 1, maxLength: 16 }),
        async (initial, operations) => {
          const pipelineId = await newPipeline();
          for (const op of [...initial, ...operations]) await apply(pipelineId, op);
          await expectCountsAsAggregated(pipelineId);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("count a create's build and jobs in its statement, answer the counts after it, and count what its transaction inserts next", async () => {
    const pipelineId = await newPipeline();
    const first = await createBuild(pipelineId, 'scheduled', ['scheduled', 'waiting', 'blocked']);
    expect(first.counts).toEqual({
      scheduledBuildsCount: 1,
      runningBuildsCount: 0,
      scheduledJobsCount: 1,
      runningJobsCount: 0,
      waitingJobsCount: 2,
    });
    // No jobs in the statement, jobs inserted after it in the same transaction: those are counted.
    const second = await createBuild(pipelineId, 'running', [], {
      after: insertAfter(pipelineId, ['running', 'scheduled']),
    });
    expect(second.counts).toEqual({ ...first.counts, scheduledBuildsCount: 1, runningBuildsCount: 1 });
    const third = await createBuild(pipelineId, 'passed', ['scheduled'], {
      after: insertAfter(pipelineId, ['running'], 'scheduled'),
    });
    // The second's jobs inserted after its create counted; the third, not active, counts none of its own.
    expect(third.counts).toEqual({ ...second.counts, scheduledJobsCount: 2, runningJobsCount: 1 });
    expect([first.number, second.number, third.number]).toEqual([1, 2, 3]);
    // The build inserted after the third create, in its transaction: counted by the builds' trigger.
    const fourth = await createBuild(pipelineId, 'passed', []);
    expect(fourth.counts).toEqual({ ...third.counts, scheduledBuildsCount: 2 });
    await expectCountsAsAggregated(pipelineId);
  });

  it("refuse a create with another build's job, which its statement would not count", async () => {
    const pipelineId = await newPipeline();
    const other = await createBuild(pipelineId, 'running', []);
    const id = newId();
    await expect(
      buildRepository(sql).create({
        build: buildIn('scheduled', { id, pipelineId }),
        organizationId,
        jobs: [{ ...jobIn('scheduled'), id: newId(), buildId: other.id, stepId: null }],
      }),
    ).rejects.toThrow("a new build's jobs must be its own");
    expect(await sql.query('select 1 from builds where id = $1', [id])).toEqual([]);
    await expectCountsAsAggregated(pipelineId);
  });

  it('let a rebuild wait for a change of the build it rebuilds, then count both (no deadlock)', async () => {
    const pipelineId = await newPipeline();
    const original = await createBuild(pipelineId, 'running', ['running', 'waiting']);
    let rebuild: ReturnType<typeof createBuild> | undefined;
    await sql.transaction(async (tx) => {
      // A change of the build as jobs.changeBuild makes one: the build locked first, changed after.
      await tx.query('select id from builds where id = $1 for update', [original.id]);
      rebuild = createBuild(pipelineId, 'scheduled', ['scheduled'], { rebuiltFromId: original.id });
      await someoneWaitsForALock(sql);
      await tx.query("update builds set state = 'passed' where id = $1", [original.id]);
    });
    const rebuilt = await rebuild!;
    expect(rebuilt.counts).toEqual({
      scheduledBuildsCount: 1,
      runningBuildsCount: 0,
      scheduledJobsCount: 1,
      runningJobsCount: 0,
      waitingJobsCount: 0,
    });
    await expectCountsAsAggregated(pipelineId);
  });

  it('recount gives the same counts as the triggers kept', async () => {
    const before = await sql.query(STORED);
    await sql.query('update pipeline_counts set scheduled_builds = 99, waiting_jobs = -3');
    await sql.query('select pipeline_counts_recount()');
    expect(await sql.query(STORED)).toEqual(before);
    await expectCountsAsAggregated();
  });

  it('leave nothing behind when a pipeline goes with its active builds and jobs', async () => {
    const pipelineId = await newPipeline();
    const builds = ['scheduled', 'running', 'blocked', 'passed'].map((state) => buildRow(pipelineId, state));
    await insertBuilds(sql, builds);
    await insertJobs(
      sql,
      builds.flatMap((build) => [jobRow(build.id, 'waiting', 0), jobRow(build.id, 'running', 1)]),
    );
    await sql.query('delete from pipelines where id = $1', [pipelineId]);
    expect(await sql.query('select 1 from pipeline_counts where pipeline_id = $1', [pipelineId])).toEqual([]);
    await expectCountsAsAggregated();
  });

  it('stay exact, without deadlocks, while concurrent transactions change the same builds and jobs', async () => {
    const pipelineId = await newPipeline();
    const builds = Array.from({ length: 4 }, () => buildRow(pipelineId, 'running'));
    await insertBuilds(sql, builds);
    const jobs = builds.flatMap((build) =>
      ['scheduled', 'running', 'waiting'].map((state, position) => jobRow(build.id, state, position)),
    );
    await insertJobs(sql, jobs);
    const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
    const pause = (tx: Sql) => tx.query(`select pg_sleep(${(Math.random() * 0.01).toFixed(4)})`);
    // The shapes of state changes the repositories make (and a bare one), with pauses between statements.
    const changes = [
      // An agent's claim: the job alone, no lock on its build.
      async () => {
        const job = pick(jobs);
        await sql.transaction(async (tx) => {
          const locked = await tx.query('select id from jobs where id = $1 for update skip locked', [job.id]);
          await pause(tx);
          if (locked.length)
            await tx.query('update jobs set state = $2 where id = $1', [job.id, pick(JOB_STATES)]);
          await pause(tx);
        });
      },
      // A build's state alone, in one statement (its jobs not locked beforehand).
      async () => {
        await sql.query('update builds set state = $2 where id = $1', [
          pick(builds).id,
          pick(['running', 'passed', 'blocked', 'canceled']),
        ]);
      },
      // A job finished, in one statement.
      async () => {
        await sql.query('update jobs set state = $2 where id = $1', [pick(jobs).id, pick(JOB_STATES)]);
      },
      // changeBuild: the build, then its jobs, locked; the build changed (often in and out of the active
      // states), then some jobs.
      async () => {
        const build = pick(builds);
        await sql.transaction(async (tx) => {
          await tx.query('select 1 from builds where id = $1 for update', [build.id]);
          await tx.query('select 1 from jobs where build_id = $1 for update', [build.id]);
          await pause(tx);
          await tx.query('update builds set state = $2 where id = $1', [
            build.id,
            pick(['running', 'canceling', 'passed', 'canceled', 'blocked', 'scheduled']),
          ]);
          await pause(tx);
          const mine = jobs.filter((job) => job.build_id === build.id);
          await insertJobs(tx, [{ ...pick(mine), state: pick(JOB_STATES) }]);
        });
      },
    ];
    const worker = async () => {
      for (let i = 0; i < 40; i++) await pick(changes)();
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    await expectCountsAsAggregated();
  });
});
