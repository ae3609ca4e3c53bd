import type {
  BuildChange,
  BuildWork,
  JobLocation,
  JobRepository,
  JobView,
  LogChunk,
  TriggerJobDue,
} from '@ci/application';
import {
  type Agent,
  type Build,
  type BuildState,
  DEFAULT_QUEUE,
  type Job,
  type JobMatrix,
  type JobState,
  type JobType,
  queueKeyOf,
  tooManyMetaDataKeys,
} from '@ci/domain';
import { toDate, toDateOrNull } from '../rows';
import { isUniqueViolation, type Sql } from '../sql';
import { AGENT_OBJECT, agentFromRow, HELD_JOB_STATES } from './agent.repository';
import { mergeBuildMetaData } from './build-meta-data.repository';

type Row = Record<string, unknown>;

/** Every column of `jobs` with its type: what `jsonb_to_recordset(…) as x(…)` reads {@link jobRecords} with. */
export const JOB_RECORD = `id uuid, build_id uuid, step_id uuid, position int, type text, name text, step_key text,
  command text, state text, agent_query_rules text[], agent_id uuid, exit_status int, soft_failed boolean,
  artifact_paths text, env jsonb, retried boolean, retried_in_job_id uuid, retries_count int, retry_type text,
  parallel_group_index int, parallel_group_total int, created_at timestamptz, scheduled_at timestamptz,
  runnable_at timestamptz, started_at timestamptz, finished_at timestamptz, soft_fail boolean,
  continue_on_failure boolean, retry_automatic_limit int, signal text, signal_reason text, unblocked_by_id uuid,
  unblocked_at timestamptz, matrix jsonb, timeout_in_minutes int, cluster_id uuid, cluster_queue_id uuid,
  trigger jsonb, triggered_build_id uuid, concurrency_group text, concurrency_limit int, group_key text,
  block_fields jsonb`;

const COLUMN_NAMES = JOB_RECORD.split(',').map((column) => column.trim().split(/\s+/)[0]!);
/** The columns of {@link JOB_RECORD}, in its order. */
export const JOB_COLUMN_NAMES = COLUMN_NAMES.join(', ');
const UPDATABLE = COLUMN_NAMES.filter(
  (name) => name !== 'id' && name !== 'build_id' && name !== 'created_at',
);

/**
 * A job's columns as {@link JOB_RECORD} names them. A null is left out (undefined, which JSON omits):
 * `jsonb_to_recordset` reads a missing key as null, and most of a new job's columns are null, so the
 * JSON that Node writes and PostgreSQL parses is ~40% shorter (measured: ~55 µs of PostgreSQL a create).
 */
function jobRecord(job: Job) {
  return {
    id: job.id,
    build_id: job.buildId,
    step_id: job.stepId ?? undefined,
    position: job.position,
    type: job.type,
    name: job.name ?? undefined,
    step_key: job.stepKey ?? undefined,
    command: job.command ?? undefined,
    state: job.state,
    agent_query_rules: job.agentQueryRules,
    agent_id: job.agentId ?? undefined,
    exit_status: job.exitStatus ?? undefined,
    soft_failed: job.softFailed,
    artifact_paths: job.artifactPaths ?? undefined,
    env: job.env,
    retried: job.retried,
    retried_in_job_id: job.retriedInJobId ?? undefined,
    retries_count: job.retriesCount ?? undefined,
    retry_type: job.retryType ?? undefined,
    parallel_group_index: job.parallelGroupIndex ?? undefined,
    parallel_group_total: job.parallelGroupTotal ?? undefined,
    created_at: job.createdAt.toISOString(),
    scheduled_at: job.scheduledAt?.toISOString(),
    runnable_at: job.runnableAt?.toISOString(),
    started_at: job.startedAt?.toISOString(),
    finished_at: job.finishedAt?.toISOString(),
    soft_fail: job.softFail,
    continue_on_failure: job.continueOnFailure,
    retry_automatic_limit: job.retryAutomaticLimit ?? undefined,
    signal: job.signal ?? undefined,
    signal_reason: job.signalReason ?? undefined,
    unblocked_by_id: job.unblockedById ?? undefined,
    unblocked_at: job.unblockedAt?.toISOString(),
    matrix: job.matrix ?? undefined,
    timeout_in_minutes: job.timeoutInMinutes ?? undefined,
    cluster_id: job.clusterId ?? undefined,
    cluster_queue_id: job.clusterQueueId ?? undefined,
    trigger: job.trigger ?? undefined,
    triggered_build_id: job.triggeredBuildId ?? undefined,
    concurrency_group: job.concurrencyGroup ?? undefined,
    concurrency_limit: job.concurrencyLimit ?? undefined,
    group_key: job.groupKey ?? undefined,
    block_fields: job.blockFields ?? undefined,
  };
}

/** Jobs as the JSON array that `jsonb_to_recordset($n::jsonb) as x(${JOB_RECORD})` reads. */
export function jobRecords(jobs: readonly Job[]): string {
  return JSON.stringify(jobs.map(jobRecord));
}

/**
 * For a retry (a job with `retries_count`), the job it retried: the one in the same build whose
 * `retried_in_job_id` names it (read through the build's jobs, indexed).
 */
const RETRY_SOURCE_ID = `case when j.retries_count is not null then (
    select s.id from jobs s where s.build_id = j.build_id and s.retried_in_job_id = j.id limit 1
  ) end as retry_source_id`;

/** A trigger job's build, once written: read only for jobs that name one (a function, ADR 0029). */
const TRIGGERED_BUILD = `case when j.triggered_build_id is not null then job_triggered_build(j.triggered_build_id) end as triggered_build`;

/**
 * A build's jobs `j`, the jobs they retried ({@link RETRY_SOURCE_ID}) and a job's agent, if it has one, as
 * one nested object (`agent`, null for most jobs) instead of fifteen joined columns: as rows of a page's
 * jobs and inside a build's JSON aggregate (measured: a list page's jobs cost PostgreSQL a quarter less).
 */
export const JOB_SELECT = `select j.*, case when j.agent_id is not null then (
    select ${AGENT_OBJECT} from agents a where a.id = j.agent_id
  ) end as agent, ${RETRY_SOURCE_ID}, ${TRIGGERED_BUILD}
from jobs j`;

const logChunkFromRow = (row: Row): LogChunk => ({
  sequence: row.sequence as number,
  offset: Number(row.byte_offset),
  content: row.content as string,
  receivedAt: toDate(row.received_at),
});

/** A job from a {@link JOB_SELECT} row or object. */
export function jobFromRow(row: Row): JobView {
  const job: Job = {
    id: row.id as string,
    buildId: row.build_id as string,
    stepId: (row.step_id as string | null) ?? null,
    position: row.position as number,
    type: row.type as JobType,
    name: (row.name as string | null) ?? null,
    stepKey: (row.step_key as string | null) ?? null,
    command: (row.command as string | null) ?? null,
    state: row.state as JobState,
    agentQueryRules: row.agent_query_rules as string[],
    agentId: (row.agent_id as string | null) ?? null,
    exitStatus: (row.exit_status as number | null) ?? null,
    softFailed: row.soft_failed as boolean,
    artifactPaths: (row.artifact_paths as string | null) ?? null,
    env: row.env as Record<string, string>,
    retried: row.retried as boolean,
    retriedInJobId: (row.retried_in_job_id as string | null) ?? null,
    retriesCount: (row.retries_count as number | null) ?? null,
    retryType: (row.retry_type as string | null) ?? null,
    parallelGroupIndex: (row.parallel_group_index as number | null) ?? null,
    parallelGroupTotal: (row.parallel_group_total as number | null) ?? null,
    createdAt: toDate(row.created_at),
    scheduledAt: toDateOrNull(row.scheduled_at),
    runnableAt: toDateOrNull(row.runnable_at),
    startedAt: toDateOrNull(row.started_at),
    finishedAt: toDateOrNull(row.finished_at),
    softFail: row.soft_fail as boolean,
    continueOnFailure: row.continue_on_failure as boolean,
    retryAutomaticLimit: (row.retry_automatic_limit as number | null) ?? null,
    signal: (row.signal as string | null) ?? null,
    signalReason: (row.signal_reason as string | null) ?? null,
    unblockedById: (row.unblocked_by_id as string | null) ?? null,
    unblockedAt: toDateOrNull(row.unblocked_at),
    matrix: (row.matrix as JobMatrix | null | undefined) ?? null,
    timeoutInMinutes: (row.timeout_in_minutes as number | null | undefined) ?? null,
    clusterId: (row.cluster_id as string | null) ?? null,
    clusterQueueId: (row.cluster_queue_id as string | null) ?? null,
    trigger: (row.trigger as Job['trigger'] | undefined) ?? null,
    triggeredBuildId: (row.triggered_build_id as string | null | undefined) ?? null,
    concurrencyGroup: (row.concurrency_group as string | null | undefined) ?? null,
    concurrencyLimit: (row.concurrency_limit as number | null | undefined) ?? null,
    groupKey: (row.group_key as string | null | undefined) ?? null,
    blockFields: (row.block_fields as Job['blockFields'] | undefined) ?? null,
  };
  const agentRow = (row.agent as Row | null | undefined) ?? null;
  const agent: (Agent & { creator: null }) | null = agentRow
    ? { ...agentFromRow(agentRow, 'a_'), creator: null }
    : null;
  const triggered = (row.triggered_build as Row | null | undefined) ?? null;
  return {
    job,
    agent,
    retrySourceId: (row.retry_source_id as string | null | undefined) ?? null,
    ...(triggered
      ? {
          triggeredBuild: {
            id: triggered.id as string,
            number: triggered.number as number,
            pipelineSlug: triggered.pipeline_slug as string,
          },
        }
      : undefined),
  };
}

async function writeJobs(sql: Sql, jobs: readonly Job[]) {
  if (jobs.length === 0) return;
  await sql.query(
    `insert into jobs (${JOB_COLUMN_NAMES})
     select * from jsonb_to_recordset($1::jsonb) as x(${JOB_RECORD})
     on conflict (id) do update set ${UPDATABLE.map((name) => `${name} = excluded.${name}`).join(', ')}`,
    [jobRecords(jobs)],
  );
}

function locationFromRow(row: Row): JobLocation {
  return {
    job: jobFromRow(row).job,
    buildId: row.build_id as string,
    buildNumber: row.b_number as number,
    pipelineId: row.b_pipeline_id as string,
    organizationId: row.b_organization_id as string,
  };
}

const LOCATION_SELECT = `select j.*, b.number as b_number, b.pipeline_id as b_pipeline_id,
  b.organization_id as b_organization_id
from jobs j join builds b on b.id = j.build_id`;

/**
 * Whether an agent may take this job of a concurrency group now: fewer than its limit held by agents,
 * counting the group's older jobs still waiting (they go first). The group's advisory lock, held to the
 * end of the claim, orders claims of one group across processes; a claim that finds it taken skips the
 * job (its agent asks again at its next ping), so two claims never wait on each other's groups.
 */
async function groupHasRoom(tx: Sql, organizationId: string, job: Job): Promise<boolean> {
  const [lock] = await tx.query<{ locked: boolean }>(
    'select pg_try_advisory_xact_lock(hashtextextended($1, 0)) as locked',
    [`concurrency:${organizationId}:${job.concurrencyGroup}`],
  );
  if (!lock?.locked) return false;
  const [row] = await tx.query<{ ahead: number }>(
    `select count(*)::int as ahead from jobs j join builds b on b.id = j.build_id
     where j.concurrency_group = $2 and b.organization_id = $1 and j.id <> $3::uuid
       and (j.state in ${HELD_JOB_STATES}
         or (j.state = 'scheduled' and (j.created_at, j.id) < ($4::timestamptz, $3::uuid)))`,
    [organizationId, job.concurrencyGroup, job.id, job.createdAt],
  );
  return (row?.ahead ?? 0) < (job.concurrencyLimit ?? 1);
}

/** How many candidate jobs a claim reads at a time. */
const CLAIM_BATCH = 100;

/**
 * Whether an unclustered job's rules let an agent of queue `$4` run it: no rules mean the default queue;
 * a `queue=` rule must name it or `*` (the domain's `agentMayRun` checks all of them on each candidate).
 */
const QUEUE_MAY_RUN = `(case when cardinality(j.agent_query_rules) = 0 then $4 = '${DEFAULT_QUEUE}'
  else not exists (select 1 from unnest(j.agent_query_rules) rule
    where rule like 'queue=%' and rule not in ('queue=*', 'queue=' || $4)) end)`;

/**
 * Takes the first of `rows` that `assign` gives the agent and whose concurrency group has room: in one
 * statement that locks it, skipping a row another agent is taking right now, so concurrent pings spread
 * over the jobs instead of queueing on one. Undefined: none of them; null: the agent holds a job already.
 */
async function takeFirst(
  tx: Sql,
  organizationId: string,
  rows: Row[],
  assign: (job: Job) => Job | null,
): Promise<Job | null | undefined> {
  for (const row of rows) {
    const job = assign(jobFromRow(row).job);
    if (!job) continue;
    if (job.concurrencyGroup !== null && !(await groupHasRoom(tx, organizationId, job))) continue;
    try {
      const taken = await tx.query(
        `update jobs set state = $2, agent_id = $3
         where id = (select id from jobs where id = $1 and state = 'scheduled' for update skip locked)
         returning id`,
        [job.id, job.state, job.agentId],
      );
      if (taken.length) return job;
    } catch (error) {
      // The partial unique index: this agent already holds a job (a concurrent ping took one). The
      // transaction is aborted, so its commit rolls back, which is all there is to do.
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }
  return undefined;
}

const WORK_BUILD_COLUMNS = 'id, state, blocked_state, cancel_reason, started_at, failing_at, finished_at';

function workBuildFromRow(row: Row): BuildWork['build'] {
  return {
    id: row.id as string,
    state: row.state as BuildState,
    blockedState: (row.blocked_state as BuildWork['build']['blockedState']) ?? null,
    cancelReason: (row.cancel_reason as string | null) ?? null,
    startedAt: toDateOrNull(row.started_at),
    failingAt: toDateOrNull(row.failing_at),
    finishedAt: toDateOrNull(row.finished_at),
  };
}

export function jobRepository(sql: Sql): JobRepository {
  /**
   * {@link JobRepository.changeBuilds} of the builds `where` (a condition on `builds` with `$1`, `$2`)
   * finds: locked in id order with their jobs, each changed as it is when locked, all written in one
   * statement per table (their triggers, counts and notifications, run once for the batch).
   */
  function changeBuildsWhere<T>(
    where: string,
    params: unknown[],
    change: (work: BuildWork) => BuildChange<T> | null,
  ): Promise<T[]> {
    return sql.transaction(async (tx) => {
      const buildRows = await tx.query(
        `select ${WORK_BUILD_COLUMNS} from builds where ${where} order by id for update`,
        params,
      );
      if (buildRows.length === 0) return [];
      const jobRows = await tx.query(
        `select * from jobs where build_id = any($1::uuid[]) order by build_id, position, created_at
         for update`,
        [buildRows.map((row) => row.id)],
      );
      const jobsOf = new Map<string, Job[]>();
      for (const row of jobRows) {
        const { job } = jobFromRow(row);
        const jobs = jobsOf.get(job.buildId);
        if (jobs) jobs.push(job);
        else jobsOf.set(job.buildId, [job]);
      }
      const changes = buildRows.flatMap((row) => {
        const build = workBuildFromRow(row);
        const result = change({ build, jobs: jobsOf.get(build.id) ?? [] });
        return result ? [{ id: build.id, ...result }] : [];
      });
      if (changes.length === 0) return [];
      const removed = changes.flatMap((one) => [...(one.removed ?? [])]);
      if (removed.length) {
        await tx.query('delete from jobs where build_id = any($1::uuid[]) and id = any($2::uuid[])', [
          changes.map((one) => one.id),
          removed,
        ]);
      }
      await tx.query(
        `update builds b set state = x.state, blocked_state = x.blocked_state, cancel_reason = x.cancel_reason,
           started_at = x.started_at, failing_at = x.failing_at, finished_at = x.finished_at
         from jsonb_to_recordset($1::jsonb) as x(id uuid, state text, blocked_state text, cancel_reason text,
           started_at timestamptz, failing_at timestamptz, finished_at timestamptz)
         where b.id = x.id`,
        [
          JSON.stringify(
            changes.map(({ id, build }) => ({
              id,
              state: build.state,
              blocked_state: build.blockedState,
              cancel_reason: build.cancelReason,
              started_at: build.startedAt,
              failing_at: build.failingAt,
              finished_at: build.finishedAt,
            })),
          ),
        ],
      );
      await writeJobs(
        tx,
        changes.flatMap((one) => one.jobs.filter((job) => one.changed.has(job.id))),
      );
      // Thrown, the transaction rolls back: a change is kept only with its meta-data.
      for (const one of changes) {
        if (one.metaData && !(await mergeBuildMetaData(tx, { buildId: one.id, ...one.metaData }))) {
          throw tooManyMetaDataKeys(one.metaData.maxKeys);
        }
      }
      return changes.map((one) => one.result);
    });
  }

  return {
    async changeBuild(buildId, change) {
      const [result] = await changeBuildsWhere('id = $1', [buildId], change);
      return result ?? null;
    },

    async changeBuildNumbered({ pipelineId, number }, change) {
      const [result] = await changeBuildsWhere(
        'pipeline_id = $1 and number = $2',
        [pipelineId, number],
        change,
      );
      return result ?? null;
    },

    async changeBuilds(buildIds, change) {
      if (buildIds.length === 0) return [];
      return changeBuildsWhere('id = any($1::uuid[])', [[...new Set(buildIds)]], change);
    },

    async find(jobId) {
      const [row] = await sql.query(`${LOCATION_SELECT} where j.id = $1`, [jobId]);
      return row ? locationFromRow(row) : null;
    },

    async claim({ agentId, organizationId, mayTake, assign }) {
      // The agent's row is read `for share` for the whole claim: a stop or pause (which locks it `for
      // update`) either comes first and is seen here, or waits until this job is taken and then sees it.
      // So is its queue's row: a pause of the queue's dispatch is ordered with the claim the same way.
      return sql.transaction(async (tx) => {
        const [agentRow] = await tx.query(`select * from agents where id = $1 for share`, [agentId]);
        if (!agentRow) return null;
        const agent = agentFromRow(agentRow);
        const [queue] = agent.clusterQueueId
          ? await tx.query(`select dispatch_paused_at from cluster_queues where id = $1 for share`, [
              agent.clusterQueueId,
            ])
          : [];
        const dispatchPausedAt = queue ? toDateOrNull(queue.dispatch_paused_at) : null;
        if (!mayTake(agent, queue ? { dispatchPausedAt } : null)) return null;
        // One job per agent (the partial unique index has the last word when two pings race).
        const held = await tx.query(
          `select 1 from jobs where agent_id = $1 and state in ${HELD_JOB_STATES}`,
          [agentId],
        );
        if (held.length) return null;
        // The candidates are read without locks, oldest first, a batch at a time: those of the agent's
        // cluster and queue, or for an unclustered agent the unclustered ones its queue may run (so jobs
        // of a queue nobody serves never hide the others).
        const queueTag = queueKeyOf(agent.tags) ?? DEFAULT_QUEUE;
        for (let after: Row | undefined; ; ) {
          const rows = await tx.query(
            `select j.* from jobs j join builds b on b.id = j.build_id
             where j.state = 'scheduled' and b.organization_id = $1 and j.type <> 'trigger'
               and j.cluster_id is not distinct from $2::uuid
               and ($2::uuid is null or j.cluster_queue_id = $3::uuid)
               and ($2::uuid is not null or ${QUEUE_MAY_RUN})
               and ($5::timestamptz is null or (j.runnable_at, j.id) > ($5::timestamptz, $6::uuid))
             order by j.runnable_at, j.id limit ${CLAIM_BATCH}`,
            [
              organizationId,
              agent.clusterId,
              agent.clusterQueueId,
              queueTag,
              after?.runnable_at ?? null,
              after?.id ?? null,
            ],
          );
          const taken = await takeFirst(tx, organizationId, rows, assign);
          if (taken !== undefined) return taken;
          after = rows.at(-1);
          // A short batch was the last; a job not yet runnable (no time) ends the order.
          if (rows.length < CLAIM_BATCH || after?.runnable_at == null) return null;
        }
      });
    },

    async activeJobOf(agentId) {
      const [row] = await sql.query(
        `${LOCATION_SELECT} where j.agent_id = $1 and j.state in ${HELD_JOB_STATES}`,
        [agentId],
      );
      return row ? locationFromRow(row) : null;
    },

    async heldByAgentsSilentSince(before) {
      const rows = await sql.query<{ id: string; build_id: string }>(
        `select j.id, j.build_id from jobs j join agents a on a.id = j.agent_id
         where j.state in ${HELD_JOB_STATES} and coalesce(a.last_seen_at, a.created_at) < $1`,
        [before],
      );
      return rows.map((row) => ({ jobId: row.id, buildId: row.build_id }));
    },

    async triggerJobsDue(limit) {
      // Through the partial index of trigger jobs that are scheduled or running: a handful at most.
      const rows = await sql.query(
        `select j.*, b.organization_id as b_organization_id, o.slug as o_slug, b.pipeline_id as b_pipeline_id,
           b.message as b_message, b.author as b_author, b.creator_id as b_creator_id, tb.state as tb_state
         from jobs j join builds b on b.id = j.build_id join organizations o on o.id = b.organization_id
         left join builds tb on tb.id = j.triggered_build_id
         where j.type = 'trigger' and j.state in ('scheduled', 'running')
           and (j.state = 'scheduled' or tb.id is null or (j.trigger ->> 'async')::boolean
             or tb.state in ('passed', 'failed', 'canceled', 'blocked', 'skipped', 'not_run'))
         order by j.runnable_at, j.id limit $1`,
        [limit],
      );
      return rows.map(
        (row): TriggerJobDue => ({
          job: jobFromRow(row).job,
          organization: { id: row.b_organization_id as string, slug: row.o_slug as string },
          sourcePipelineId: row.b_pipeline_id as string,
          parent: {
            message: (row.b_message as string | null) ?? null,
            author: (row.b_author as Build['author']) ?? null,
            creatorId: (row.b_creator_id as string | null) ?? null,
          },
          triggeredBuildState: (row.tb_state as BuildState | null) ?? null,
        }),
      );
    },

    async triggerChainLength(buildId, limit) {
      const [row] = await sql.query<{ length: number }>(
        `with recursive chain (build_id, length) as (
           select $1::uuid, 1
           union all
           select j.build_id, chain.length + 1 from chain join jobs j on j.triggered_build_id = chain.build_id
           where chain.length <= $2
         )
         select max(length)::int as length from chain`,
        [buildId, limit],
      );
      return row?.length ?? 1;
    },

    async appendLogChunk(jobId, chunk) {
      await sql.query(
        `insert into job_log_chunks (job_id, sequence, byte_offset, content, received_at)
         values ($1, $2, $3, $4, $5) on conflict do nothing`,
        [jobId, chunk.sequence, chunk.offset, chunk.content, chunk.receivedAt],
      );
    },

    async deleteLog(jobId) {
      await sql.query('delete from job_log_chunks where job_id = $1', [jobId]);
    },

    async logChunksAfter({ jobId, afterSequence, limit }) {
      const rows = await sql.query(
        `select sequence, byte_offset, content, received_at from job_log_chunks
         where job_id = $1 and sequence > $2 order by sequence limit $3`,
        [jobId, afterSequence, limit],
      );
      return rows.map(logChunkFromRow);
    },
    async logChunks(jobId) {
      const rows = await sql.query(
        'select sequence, byte_offset, content, received_at from job_log_chunks where job_id = $1 order by sequence',
        [jobId],
      );
      return rows.map(logChunkFromRow);
    },
  };
}
