import { defineEntity, p } from '@mikro-orm/core';
import { BuildEntity } from './build.entity';
import { UserEntity } from './organization.entity';
import { PipelineEntity } from './pipeline.entity';

/** A pipeline's cron schedule: a build on its branch, commit and message at each tick while enabled. */
export const PipelineScheduleEntity = defineEntity({
  name: 'PipelineSchedule',
  tableName: 'pipeline_schedules',
  indexes: [
    // The tick reads the enabled schedules that are due.
    {
      name: 'pipeline_schedules_due_idx',
      expression:
        'create index "pipeline_schedules_due_idx" on "pipeline_schedules" ("next_build_at") where "enabled"',
    },
  ],
  properties: {
    id: p.uuid().primary(),
    pipeline: () => p.manyToOne(PipelineEntity).deleteRule('cascade').index(),
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
    creator: () => p.manyToOne(UserEntity).nullable().deleteRule('set null'),
    createdAt: p.datetime(3),
  },
});

/** The build a schedule made at a tick: the key makes it one per tick, whichever process ticks. */
export const PipelineScheduleBuildEntity = defineEntity({
  name: 'PipelineScheduleBuild',
  tableName: 'pipeline_schedule_builds',
  properties: {
    schedule: () => p.manyToOne(PipelineScheduleEntity).primary().deleteRule('cascade'),
    tickAt: p.datetime(3).primary(),
    build: () => p.manyToOne(BuildEntity).nullable().deleteRule('set null').index(),
  },
});
