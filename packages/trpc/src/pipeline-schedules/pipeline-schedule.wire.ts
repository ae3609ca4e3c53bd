import { PIPELINE_SCHEDULE_LIMITS } from '@ci/domain';
import { z } from 'zod';

const timestamp = z.string().meta({ description: 'ISO 8601 UTC with milliseconds', format: 'date-time' });

/** A pipeline schedule: an extension (the public REST API has none), the GraphQL type's fields in snake_case. */
export const PipelineScheduleWire = z
  .strictObject({
    id: z.uuid(),
    graphql_id: z.string(),
    url: z.string(),
    label: z.string(),
    cronline: z.string().meta({
      description: 'five cron fields or a nickname (`@daily`), then an optional IANA time zone (UTC)',
    }),
    branch: z.string().nullable().meta({ description: "null: the pipeline's default branch" }),
    commit: z.string().nullable().meta({ description: 'null: HEAD' }),
    message: z.string().nullable().meta({ description: 'null: `Scheduled build`' }),
    env: z.record(z.string(), z.string()),
    enabled: z.boolean(),
    next_build_at: timestamp
      .nullable()
      .meta({ description: 'the tick the next build is for; null while disabled' }),
    failed_at: timestamp.nullable(),
    failed_message: z.string().nullable().meta({ description: 'why the last tick made no build' }),
    created_at: timestamp,
  })
  .meta({ id: 'PipelineSchedule' });
export type PipelineScheduleWire = z.infer<typeof PipelineScheduleWire>;

/** Every schedule of a pipeline, in one answer: the list is not paged. */
export const PipelineScheduleListWire = z.array(PipelineScheduleWire).meta({ id: 'PipelineScheduleList' });

const text = (max: number) => z.string().max(max).nullable().optional();

/** Documented as inputs: the domain validates the bodies (422), keys it does not know are ignored. */
export const CreatePipelineScheduleRequest = z
  .object({
    label: z.string().max(PIPELINE_SCHEDULE_LIMITS.label),
    cronline: z.string().max(PIPELINE_SCHEDULE_LIMITS.cronline),
    branch: text(PIPELINE_SCHEDULE_LIMITS.branch),
    commit: text(PIPELINE_SCHEDULE_LIMITS.commit),
    message: text(PIPELINE_SCHEDULE_LIMITS.message),
    env: z.record(z.string(), z.string()).nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .meta({ id: 'CreatePipelineScheduleRequest', unusedIO: 'input' });
export type CreatePipelineScheduleRequest = z.input<typeof CreatePipelineScheduleRequest>;

export const UpdatePipelineScheduleRequest = CreatePipelineScheduleRequest.partial().meta({
  id: 'UpdatePipelineScheduleRequest',
  unusedIO: 'input',
});
export type UpdatePipelineScheduleRequest = z.input<typeof UpdatePipelineScheduleRequest>;
