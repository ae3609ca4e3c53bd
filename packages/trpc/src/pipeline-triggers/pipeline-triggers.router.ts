import type { PipelineRef, PipelineTriggerRef } from '@ci/application';
import { z } from 'zod';
import { documented } from '../documented';
import { bodyOf, organizationSlug } from '../parameters';
import { authed, router } from '../trpc';
import { presentPipelineTrigger } from './pipeline-trigger.presenter';
import {
  type CreatePipelineTriggerRequest,
  PipelineTriggerListWire,
  PipelineTriggerWire,
  type UpdatePipelineTriggerRequest,
} from './pipeline-trigger.wire';

const TRIGGERS = '/organizations/{organization}/pipelines/{pipeline}/triggers';
const TRIGGER = `${TRIGGERS}/{trigger}`;
const TAGS = ['Pipeline triggers'];

const organization = organizationSlug;
const pipeline = z.string().meta({ description: 'pipeline slug' });
const trigger = z.string().meta({ description: 'pipeline trigger UUID' });
const PipelineKey = z.object({ organization, pipeline });
const TriggerKey = z.object({ organization, pipeline, trigger });

export const pipelineTriggersRouter = router({
  list: authed
    .meta({
      openapi: { method: 'GET', path: TRIGGERS, tags: TAGS, summary: "List a pipeline's triggers" },
      operation: 'listPipelineTriggers',
    })
    .input(PipelineKey)
    .output(documented(PipelineTriggerListWire))
    .query(async ({ ctx, input }) =>
      (await ctx.useCases.listPipelineTriggers(ctx.actor, input)).map((view) =>
        presentPipelineTrigger(view, ctx.urls),
      ),
    ),

  get: authed
    .meta({
      openapi: { method: 'GET', path: TRIGGER, tags: TAGS, summary: 'Get a pipeline trigger' },
      operation: 'getPipelineTrigger',
    })
    .input(TriggerKey)
    .output(documented(PipelineTriggerWire))
    .query(async ({ ctx, input }) =>
      presentPipelineTrigger(await ctx.useCases.getPipelineTrigger(ctx.actor, input), ctx.urls),
    ),

  create: authed
    .meta({
      openapi: {
        method: 'POST',
        path: TRIGGERS,
        tags: TAGS,
        summary: 'Create a pipeline trigger',
        description:
          'Its `webhook_url` (ending in a `bktr_` token) is in this answer only; a JSON POST to it creates a build.',
      },
      operation: 'createPipelineTrigger',
      successStatus: 201,
      requestBody: 'CreatePipelineTriggerRequest',
    })
    .input(bodyOf<PipelineRef, CreatePipelineTriggerRequest>(PipelineKey))
    .output(documented(PipelineTriggerWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, pipeline, ...body } = input;
      const view = await ctx.useCases.createPipelineTrigger(ctx.actor, { organization, pipeline }, body);
      return presentPipelineTrigger(view, ctx.urls);
    }),

  update: authed
    .meta({
      openapi: { method: 'PATCH', path: TRIGGER, tags: TAGS, summary: 'Update a pipeline trigger' },
      operation: 'updatePipelineTrigger',
      requestBody: 'UpdatePipelineTriggerRequest',
    })
    .input(bodyOf<PipelineTriggerRef, UpdatePipelineTriggerRequest>(TriggerKey))
    .output(documented(PipelineTriggerWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, pipeline, trigger, ...body } = input;
      const view = await ctx.useCases.updatePipelineTrigger(
        ctx.actor,
        { organization, pipeline, trigger },
        body,
      );
      return presentPipelineTrigger(view, ctx.urls);
    }),

  delete: authed
    .meta({
      openapi: { method: 'DELETE', path: TRIGGER, tags: TAGS, summary: 'Delete a pipeline trigger' },
      operation: 'deletePipelineTrigger',
      successStatus: 204,
    })
    .input(TriggerKey)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.useCases.deletePipelineTrigger(ctx.actor, input);
    }),
});
