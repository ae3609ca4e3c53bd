import type { PipelineRef, PipelineScheduleRef } from '@ci/application';
import { z } from 'zod';
import { documented } from '../documented';
import { bodyOf, organizationSlug } from '../parameters';
import { authed, router } from '../trpc';
import { presentPipelineSchedule } from './pipeline-schedule.presenter';
import {
  type CreatePipelineScheduleRequest,
  PipelineScheduleListWire,
  PipelineScheduleWire,
  type UpdatePipelineScheduleRequest,
} from './pipeline-schedule.wire';

const SCHEDULES = '/organizations/{organization}/pipelines/{pipeline}/schedules';
const SCHEDULE = `${SCHEDULES}/{schedule}`;
const TAGS = ['Pipeline schedules'];

const organization = organizationSlug;
const pipeline = z.string().meta({ description: 'pipeline slug' });
const schedule = z.string().meta({ description: 'pipeline schedule UUID' });
const PipelineKey = z.object({ organization, pipeline });
const ScheduleKey = z.object({ organization, pipeline, schedule });

export const pipelineSchedulesRouter = router({
  list: authed
    .meta({
      openapi: { method: 'GET', path: SCHEDULES, tags: TAGS, summary: "List a pipeline's schedules" },
      operation: 'listPipelineSchedules',
    })
    .input(PipelineKey)
    .output(documented(PipelineScheduleListWire))
    .query(async ({ ctx, input }) =>
      (await ctx.useCases.listPipelineSchedules(ctx.actor, input)).map((view) =>
        presentPipelineSchedule(view, ctx.urls),
      ),
    ),

  get: authed
    .meta({
      openapi: { method: 'GET', path: SCHEDULE, tags: TAGS, summary: 'Get a pipeline schedule' },
      operation: 'getPipelineSchedule',
    })
    .input(ScheduleKey)
    .output(documented(PipelineScheduleWire))
    .query(async ({ ctx, input }) =>
      presentPipelineSchedule(await ctx.useCases.getPipelineSchedule(ctx.actor, input), ctx.urls),
    ),

  create: authed
    .meta({
      openapi: {
        method: 'POST',
        path: SCHEDULES,
        tags: TAGS,
        summary: 'Create a pipeline schedule',
        description:
          'An extension: the public REST API has no schedules. Each tick of `cronline` creates one build (`source: schedule`).',
      },
      operation: 'createPipelineSchedule',
      successStatus: 201,
      requestBody: 'CreatePipelineScheduleRequest',
    })
    .input(bodyOf<PipelineRef, CreatePipelineScheduleRequest>(PipelineKey))
    .output(documented(PipelineScheduleWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, pipeline, ...body } = input;
      const view = await ctx.useCases.createPipelineSchedule(ctx.actor, { organization, pipeline }, body);
      return presentPipelineSchedule(view, ctx.urls);
    }),

  update: authed
    .meta({
      openapi: { method: 'PATCH', path: SCHEDULE, tags: TAGS, summary: 'Update a pipeline schedule' },
      operation: 'updatePipelineSchedule',
      requestBody: 'UpdatePipelineScheduleRequest',
    })
    .input(bodyOf<PipelineScheduleRef, UpdatePipelineScheduleRequest>(ScheduleKey))
    .output(documented(PipelineScheduleWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, pipeline, schedule, ...body } = input;
      const view = await ctx.useCases.updatePipelineSchedule(
        ctx.actor,
        { organization, pipeline, schedule },
        body,
      );
      return presentPipelineSchedule(view, ctx.urls);
    }),

  delete: authed
    .meta({
      openapi: { method: 'DELETE', path: SCHEDULE, tags: TAGS, summary: 'Delete a pipeline schedule' },
      operation: 'deletePipelineSchedule',
      successStatus: 204,
    })
    .input(ScheduleKey)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.useCases.deletePipelineSchedule(ctx.actor, input);
    }),
});
