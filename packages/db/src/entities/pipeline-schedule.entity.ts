import type { PipelineSchedule } from '@ci/domain';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { BuildEntity } from './build.entity';
import { UserEntity } from './organization.entity';
import { PipelineEntity } from './pipeline.entity';

/** A pipeline schedule; `next_build_at` is the tick a build is owed for (null while disabled). */
export const PipelineScheduleEntity = defineEntity({
  name: 'PipelineSchedule',
  tableName: 'pipeline_schedules',
  indexes: [{ properties: ['pipeline', 'createdAt', 'id'] }, { properties: ['nextBuildAt'] }],
  properties: {
    id: p.uuid().primary(),
    pipeline: () => p.manyToOne(PipelineEntity).deleteRule('cascade'),
    label: p.string().length(255),
    cronline: p.string().length(255),
    branch: p.string().length(255).nullable(),
    commit: p.string().length(255).nullable(),
    message: p.text().nullable(),
    env: p.json<Record<string, string>>(),
    enabled: p.boolean().default(true),
    nextBuildAt: p.datetime(3).nullable(),
    failedAt: p.datetime(3).nullable(),
    failedMessage: p.text().nullable(),
    createdBy: () => p.manyToOne(UserEntity).nullable().deleteRule('set null').index(),
    createdAt: p.datetime(3),
  },
});

export function toPipelineSchedule(schedule: InferEntity<typeof PipelineScheduleEntity>): PipelineSchedule {
  return {
    id: schedule.id,
    pipelineId: schedule.pipeline.id,
    label: schedule.label,
    cronline: schedule.cronline,
    branch: schedule.branch ?? null,
    commit: schedule.commit ?? null,
    message: schedule.message ?? null,
    env: schedule.env ?? {},
    enabled: schedule.enabled,
    nextBuildAt: schedule.nextBuildAt ?? null,
    failedAt: schedule.failedAt ?? null,
    failedMessage: schedule.failedMessage ?? null,
    createdById: schedule.createdBy?.id ?? null,
    createdAt: schedule.createdAt,
  };
}

/** Which schedule made a build (its `source` is `schedule`): GraphQL's `BuildSourceSchedule.pipelineSchedule`. */
export const PipelineScheduleBuildEntity = defineEntity({
  name: 'PipelineScheduleBuild',
  tableName: 'pipeline_schedule_builds',
  properties: {
    build: () => p.oneToOne(BuildEntity).primary().deleteRule('cascade').owner(),
    pipelineSchedule: () => p.manyToOne(PipelineScheduleEntity).deleteRule('cascade').index(),
  },
});
