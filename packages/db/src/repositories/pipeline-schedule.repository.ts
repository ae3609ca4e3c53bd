import type { PipelineScheduleRepository, Repositories } from '@ci/application';
import type { PipelineSchedule } from '@ci/domain';
import { prefixedColumns, toDate } from '../rows';
import type { Sql } from '../sql';
import { INBOUND_SELECT, inboundFromRow } from './inbound.repository';

type Row = Record<string, unknown>;

const SCHEDULE_COLUMN_NAMES = [
  'id',
  'pipeline_id',
  'label',
  'cronline',
  'branch',
  'commit',
  'message',
  'env',
  'enabled',
  'next_build_at',
  'failed_at',
  'failed_message',
  'created_by_id',
  'created_at',
] as const;
const SCHEDULE_COLUMNS = prefixedColumns('s', SCHEDULE_COLUMN_NAMES);

const nullableDate = (value: unknown) => (value === null || value === undefined ? null : toDate(value));

function scheduleFromRow(row: Row): PipelineSchedule {
  return {
    id: row.s_id as string,
    pipelineId: row.s_pipeline_id as string,
    label: row.s_label as string,
    cronline: row.s_cronline as string,
    branch: (row.s_branch as string | null) ?? null,
    commit: (row.s_commit as string | null) ?? null,
    message: (row.s_message as string | null) ?? null,
    env: (row.s_env as Record<string, string> | null) ?? {},
    enabled: row.s_enabled as boolean,
    nextBuildAt: nullableDate(row.s_next_build_at),
    failedAt: nullableDate(row.s_failed_at),
    failedMessage: (row.s_failed_message as string | null) ?? null,
    createdById: (row.s_created_by_id as string | null) ?? null,
    createdAt: toDate(row.s_created_at),
  };
}

/**
 * Schedules on SQL. `repositoriesOn` makes the repositories over a transaction's connection, so that a
 * tick's build is written in the transaction that holds the schedule's lock and advances it.
 */
export function pipelineScheduleRepository(
  sql: Sql,
  repositoriesOn: (sql: Sql) => Repositories,
): PipelineScheduleRepository {
  return {
    async list(pipelineId) {
      const rows = await sql.query(
        `select ${SCHEDULE_COLUMNS} from pipeline_schedules s where s.pipeline_id = $1 order by s.created_at, s.id`,
        [pipelineId],
      );
      return rows.map(scheduleFromRow);
    },
    async find(pipelineId, id) {
      const [row] = await sql.query(
        `select ${SCHEDULE_COLUMNS} from pipeline_schedules s where s.pipeline_id = $1 and s.id = $2`,
        [pipelineId, id],
      );
      return row ? scheduleFromRow(row) : null;
    },
    async locate(id) {
      const [row] = await sql.query<{ organization: string; pipeline: string }>(
        `select o.slug as organization, p.slug as pipeline from pipeline_schedules s
         join pipelines p on p.id = s.pipeline_id join organizations o on o.id = p.organization_id
         where s.id = $1`,
        [id],
      );
      return row ?? null;
    },
    async insert(schedule) {
      await sql.query(
        `insert into pipeline_schedules (${SCHEDULE_COLUMN_NAMES.join(', ')})
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          schedule.id,
          schedule.pipelineId,
          schedule.label,
          schedule.cronline,
          schedule.branch,
          schedule.commit,
          schedule.message,
          JSON.stringify(schedule.env),
          schedule.enabled,
          schedule.nextBuildAt,
          schedule.failedAt,
          schedule.failedMessage,
          schedule.createdById,
          schedule.createdAt,
        ],
      );
    },
    async update({ pipelineId, id, changes }) {
      // Each column keeps its value unless the change names it (a named null clears it).
      const named = (key: keyof typeof changes) => key in changes;
      const [row] = await sql.query(
        `update pipeline_schedules s set
           label = case when $3::boolean then $4::text else s.label end,
           cronline = case when $5::boolean then $6::text else s.cronline end,
           branch = case when $7::boolean then $8::text else s.branch end,
           commit = case when $9::boolean then $10::text else s.commit end,
           message = case when $11::boolean then $12::text else s.message end,
           env = case when $13::boolean then $14::jsonb else s.env end,
           enabled = case when $15::boolean then $16::boolean else s.enabled end,
           next_build_at = case when $17::boolean then $18::timestamptz else s.next_build_at end
         where s.pipeline_id = $1 and s.id = $2 returning ${SCHEDULE_COLUMNS}`,
        [
          pipelineId,
          id,
          named('label'),
          changes.label ?? null,
          named('cronline'),
          changes.cronline ?? null,
          named('branch'),
          changes.branch ?? null,
          named('commit'),
          changes.commit ?? null,
          named('message'),
          changes.message ?? null,
          named('env'),
          changes.env === undefined ? null : JSON.stringify(changes.env),
          named('enabled'),
          changes.enabled ?? null,
          named('nextBuildAt'),
          changes.nextBuildAt ?? null,
        ],
      );
      return row ? scheduleFromRow(row) : null;
    },
    async delete(pipelineId, id) {
      const rows = await sql.query(
        'delete from pipeline_schedules where pipeline_id = $1 and id = $2 returning id',
        [pipelineId, id],
      );
      return rows.length > 0;
    },
    async buildsOf({ scheduleId, offset, limit }) {
      const rows = await sql.query<{ build_id: string | null; total: number }>(
        `select page.build_id, (select count(*)::int from pipeline_schedule_builds where pipeline_schedule_id = $1) as total
         from (select 1) one left join lateral (
           select sb.build_id from pipeline_schedule_builds sb join builds b on b.id = sb.build_id
           where sb.pipeline_schedule_id = $1 order by b.created_at desc, b.id desc offset $2 limit $3
         ) page on true`,
        [scheduleId, offset, limit],
      );
      return {
        ids: rows.flatMap((row) => (row.build_id ? [row.build_id] : [])),
        totalCount: rows[0]?.total ?? 0,
      };
    },
    async ofBuilds(buildIds) {
      if (buildIds.length === 0) return new Map();
      const rows = await sql.query<{ build_id: string; pipeline_schedule_id: string }>(
        'select build_id, pipeline_schedule_id from pipeline_schedule_builds where build_id = any($1::uuid[])',
        [buildIds],
      );
      return new Map(rows.map((row) => [row.build_id, row.pipeline_schedule_id]));
    },
    async claimDue(at, tick) {
      return sql.transaction(async (tx) => {
        // The oldest due tick first; a schedule another process holds is skipped, not waited for.
        const [row] = await tx.query(
          `with due as (
             select id from pipeline_schedules
             where enabled and next_build_at <= $1
             order by next_build_at, id limit 1 for update skip locked
           )
           ${INBOUND_SELECT.replace('select ', `select ${SCHEDULE_COLUMNS}, `)}
           join pipeline_schedules s on s.pipeline_id = p.id where s.id = (select id from due)`,
          [at],
        );
        if (!row) return false;
        const schedule = scheduleFromRow(row);
        const outcome = await tick({ ...inboundFromRow(row), schedule }, repositoriesOn(tx));
        await tx.query(
          `update pipeline_schedules set next_build_at = $2,
             failed_at = case when $3::text is null then null else $4::timestamptz end,
             failed_message = $3::text
           where id = $1`,
          [schedule.id, outcome.nextBuildAt, outcome.failedMessage, outcome.at],
        );
        if (outcome.buildId) {
          await tx.query(
            'insert into pipeline_schedule_builds (build_id, pipeline_schedule_id) values ($1, $2)',
            [outcome.buildId, schedule.id],
          );
        }
        return true;
      });
    },
  };
}
