import type { PipelineRef } from '@ci/application';
import { z } from 'zod';
import { documented, documentedList } from '../documented';
import { listPage } from '../pagination';
import { organizationSlug, pageParameters } from '../parameters';
import type { CreatePipelineWebhookRequest } from '../pipeline-triggers/pipeline-trigger.wire';
import { authed, router } from '../trpc';
import { presentPipeline, presentPipelines } from './pipeline.presenter';
import { type CreatePipelineRequest, PipelineWire, type UpdatePipelineRequest } from './pipeline.wire';

const PIPELINES = '/organizations/{organization}/pipelines';
const PIPELINE = `${PIPELINES}/{pipeline}`;
const TAGS = ['Pipelines'];

const organization = organizationSlug;
const pipeline = z.string().meta({ description: 'pipeline slug' });

const ListPipelinesInput = z.object({
  organization,
  name: z.string().optional().meta({ description: 'part of the name, any case' }),
  repository: z.string().optional().meta({ description: 'part of the repository URL, any case' }),
  ...pageParameters,
});
const PipelineKey = z.object({ organization, pipeline });

/**
 * The create and update bodies are validated by the domain (422 `Validation Failed` with field errors),
 * so the run-time inputs pass them through untouched; their types and OpenAPI components are the
 * requests'.
 */
const CreatePipelineInput = z.looseObject({ organization }) as unknown as z.ZodType<
  { organization: string } & CreatePipelineRequest
>;
const CreateWebhookInput = z.looseObject({ organization, pipeline }) as unknown as z.ZodType<
  PipelineRef & CreatePipelineWebhookRequest
>;
const UpdatePipelineInput = z.looseObject({ organization, pipeline }) as unknown as z.ZodType<
  PipelineRef & UpdatePipelineRequest
>;

export const pipelinesRouter = router({
  list: authed
    .meta({
      openapi: { method: 'GET', path: PIPELINES, tags: TAGS, summary: 'List pipelines' },
      operation: 'listPipelines',
    })
    .input(ListPipelinesInput)
    .output(documentedList(PipelineWire))
    .query(async ({ ctx, input }) => {
      const search = { name: input.name, repository: input.repository };
      const { pipelines } = await listPage(ctx, input, (page) =>
        ctx.useCases.listPipelines(ctx.actor, input.organization, search, page),
      );
      return presentPipelines(pipelines, ctx.urls);
    }),

  get: authed
    .meta({
      openapi: { method: 'GET', path: PIPELINE, tags: TAGS, summary: 'Get a pipeline' },
      operation: 'getPipeline',
    })
    .input(PipelineKey)
    .output(documented(PipelineWire))
    .query(async ({ ctx, input }) =>
      presentPipeline(await ctx.useCases.getPipeline(ctx.actor, input), ctx.urls),
    ),

  create: authed
    .meta({
      openapi: {
        method: 'POST',
        path: PIPELINES,
        tags: TAGS,
        summary: 'Create a pipeline',
        description:
          'Steps as YAML (`configuration`, the pipeline file format) or as legacy step objects (`steps`).',
      },
      operation: 'createPipeline',
      successStatus: 201,
      requestBody: 'CreatePipelineRequest',
    })
    .input(CreatePipelineInput)
    .output(documented(PipelineWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, ...body } = input;
      return presentPipeline(await ctx.useCases.createPipeline(ctx.actor, organization, body), ctx.urls);
    }),

  update: authed
    .meta({
      openapi: { method: 'PATCH', path: PIPELINE, tags: TAGS, summary: 'Update a pipeline' },
      operation: 'updatePipeline',
      requestBody: 'UpdatePipelineRequest',
    })
    .input(UpdatePipelineInput)
    .output(documented(PipelineWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, pipeline, ...body } = input;
      const result = await ctx.useCases.updatePipeline(ctx.actor, { organization, pipeline }, body);
      return presentPipeline(result, ctx.urls);
    }),

  delete: authed
    .meta({
      openapi: {
        method: 'DELETE',
        path: PIPELINE,
        tags: TAGS,
        summary: 'Delete a pipeline',
        description: 'Its builds, their jobs and its team associations are deleted with it.',
      },
      operation: 'deletePipeline',
      successStatus: 204,
    })
    .input(PipelineKey)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.useCases.deletePipeline(ctx.actor, input);
    }),

  archive: authed
    .meta({
      openapi: { method: 'POST', path: `${PIPELINE}/archive`, tags: TAGS, summary: 'Archive a pipeline' },
      operation: 'archivePipeline',
    })
    .input(PipelineKey)
    .output(documented(PipelineWire))
    .mutation(async ({ ctx, input }) =>
      presentPipeline(await ctx.useCases.archivePipeline(ctx.actor, input), ctx.urls),
    ),

  unarchive: authed
    .meta({
      openapi: { method: 'POST', path: `${PIPELINE}/unarchive`, tags: TAGS, summary: 'Unarchive a pipeline' },
      operation: 'unarchivePipeline',
    })
    .input(PipelineKey)
    .output(documented(PipelineWire))
    .mutation(async ({ ctx, input }) =>
      presentPipeline(await ctx.useCases.unarchivePipeline(ctx.actor, input), ctx.urls),
    ),

  createWebhook: authed
    .meta({
      openapi: {
        method: 'POST',
        path: `${PIPELINE}/webhook`,
        tags: TAGS,
        summary: "Create the pipeline's inbound webhook",
        description:
          'Gives the pipeline a `provider.webhook_url` when it has none (keeps the one it has), and sets the ' +
          'secret GitHub signs deliveries with (`X-Hub-Signature-256`) and GitLab sends (`X-Gitlab-Token`).',
      },
      operation: 'createPipelineWebhook',
      requestBody: 'CreatePipelineWebhookRequest',
    })
    .input(CreateWebhookInput)
    .output(documented(PipelineWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, pipeline, ...body } = input;
      const result = await ctx.useCases.createPipelineWebhook(ctx.actor, { organization, pipeline }, body);
      return presentPipeline(result, ctx.urls);
    }),

  deleteWebhook: authed
    .meta({
      openapi: {
        method: 'DELETE',
        path: `${PIPELINE}/webhook`,
        tags: TAGS,
        summary: "Delete the pipeline's inbound webhook",
        description:
          'Its `webhook_url` answers 404 from now on and the pipeline shows `""` until one is made again.',
      },
      operation: 'deletePipelineWebhook',
      successStatus: 204,
    })
    .input(PipelineKey)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.useCases.deletePipelineWebhook(ctx.actor, input);
    }),
});
