import type { PipelineScheduleRepository, Repositories } from '@ci/application';
import {
  PipelineScheduleBuildEntity,
  PipelineScheduleEntity,
  toPipelineSchedule,
} from '../entities/pipeline-schedule.entity';
import { type EntityManagerSource, updateReturning } from '../orm';
import type { Sql } from '../sql';
import { inboundFromRow, inboundSelect } from './inbound.repository';

/**
 * Schedules through the EntityManager; SQL for the tick's claim and the slugs and build windows it joins.
 * `repositoriesOn` makes the repositories over a transaction's connection, so that a tick's build is
 * written in the transaction that holds the schedule's lock and advances it.
 */
export function pipelineScheduleRepository(
  entityManager: EntityManagerSource,
  sql: Sql,
  repositoriesOn: (sql: Sql) => Repositories,
): PipelineScheduleRepository {
  return {
    async list(pipelineId) {
      const schedules = await entityManager().find(
        PipelineScheduleEntity,
        { pipeline: pipelineId },
        { orderBy: { createdAt: 'asc', id: 'asc' } },
      );
      return schedules.map(toPipelineSchedule);
    },
    async listOfPipelines(pipelineIds) {
      const schedules = await entityManager().find(
        PipelineScheduleEntity,
        { pipeline: { $in: [...pipelineIds] } },
        { orderBy: { createdAt: 'asc', id: 'asc' } },
      );
      return schedules.map(toPipelineSchedule);
    },
    async findMany(ids) {
      const schedules = await entityManager().find(PipelineScheduleEntity, { id: { $in: [...ids] } });
      return schedules.map(toPipelineSchedule);
    },
    async find(pipelineId, id) {
      const schedule = await entityManager().findOne(PipelineScheduleEntity, { pipeline: pipelineId, id });
      return schedule ? toPipelineSchedule(schedule) : null;
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
    async insert({ pipelineId, createdById, ...schedule }) {
      await entityManager().insert(PipelineScheduleEntity, {
        ...schedule,
        pipeline: pipelineId,
        createdBy: createdById,
      });
    },
    async update({ pipelineId, id, changes }) {
      const schedule = await updateReturning(
        entityManager(),
        PipelineScheduleEntity,
        { pipeline: pipelineId, id },
        changes,
      );
      return schedule ? toPipelineSchedule(schedule) : null;
    },
    async delete(pipelineId, id) {
      return (await entityManager().nativeDelete(PipelineScheduleEntity, { pipeline: pipelineId, id })) > 0;
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
      const made = await entityManager().find(PipelineScheduleBuildEntity, { build: { $in: [...buildIds] } });
      return new Map(made.map((row) => [row.build.id, row.pipelineSchedule.id]));
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
           ${inboundSelect('to_jsonb(s) as schedule')}
           join pipeline_schedules s on s.pipeline_id = p.id where s.id = (select id from due)`,
          [at],
        );
        if (!row) return false;
        const schedule = toPipelineSchedule(
          entityManager().map(PipelineScheduleEntity, row.schedule as Record<string, unknown>),
        );
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
