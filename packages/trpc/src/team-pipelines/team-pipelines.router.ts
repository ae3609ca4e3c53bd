import type { TeamPipelineRef, TeamRef } from '@ci/application';
import { isJsonObject } from '@ci/domain';
import { z } from 'zod';
import { documented, documentedList } from '../documented';
import { listPage } from '../pagination';
import { organizationSlug, pageParameters } from '../parameters';
import { authed, router, type TrpcContext } from '../trpc';
import { presentTeamPipeline, presentTeamPipelines } from './team-pipeline.presenter';
import {
  type CreateTeamPipelineRequest,
  TeamPipelineWire,
  type UpdateTeamPipelineRequest,
} from './team-pipeline.wire';

const TEAM_PIPELINES = '/organizations/{organization}/teams/{team}/pipelines';
const TEAM_PIPELINE = `${TEAM_PIPELINES}/{pipeline}`;
const TAGS = ['Team pipelines'];

const organization = organizationSlug;
const team = z.string().meta({ description: 'team UUID' });
const pipeline = z.string().meta({ description: 'pipeline UUID' });

const ListTeamPipelinesInput = z.object({
  organization,
  team,
  ...pageParameters,
});
const TeamPipelineKey = z.object({ organization, team, pipeline });

/**
 * The create and update bodies are validated by the domain (422 `Validation failed: …`), so the
 * run-time inputs pass them through untouched; their types and OpenAPI components are the requests'.
 */
const CreateTeamPipelineInput = z.looseObject({ organization, team }) as unknown as z.ZodType<
  TeamRef & CreateTeamPipelineRequest
>;
const UpdateTeamPipelineInput = z.looseObject({ organization, team, pipeline }) as unknown as z.ZodType<
  TeamPipelineRef & UpdateTeamPipelineRequest
>;
const DeleteByPipelineIdInput = z.object({
  organization,
  team,
  pipeline_id: z.string().optional().meta({ description: 'pipeline UUID; or `pipeline_id` in a JSON body' }),
});

/**
 * The pipeline the literal `DELETE …/pipelines/` names: `pipeline_id` of the JSON body (REST: a DELETE's
 * input holds its path and query only), else of the input (the query, or tRPC's input). Null: none.
 */
function pipelineIdOf(ctx: TrpcContext, input: { pipeline_id?: string | undefined }): string | null {
  const fromBody = ctx.rest && isJsonObject(ctx.rest.body) ? ctx.rest.body.pipeline_id : undefined;
  if (fromBody !== undefined && fromBody !== null)
    return typeof fromBody === 'string' ? fromBody : String(fromBody);
  return input.pipeline_id ?? null;
}

export const teamPipelinesRouter = router({
  list: authed
    .meta({
      openapi: { method: 'GET', path: TEAM_PIPELINES, tags: TAGS, summary: 'List team pipelines' },
      operation: 'listTeamPipelines',
    })
    .input(ListTeamPipelinesInput)
    .output(documentedList(TeamPipelineWire))
    .query(async ({ ctx, input }) => {
      const ref = { organization: input.organization, team: input.team };
      const { teamPipelines } = await listPage(ctx, input, (page) =>
        ctx.useCases.listTeamPipelines(ctx.actor, ref, page),
      );
      return presentTeamPipelines(teamPipelines, ctx.urls);
    }),

  get: authed
    .meta({
      openapi: { method: 'GET', path: TEAM_PIPELINE, tags: TAGS, summary: 'Get a team pipeline' },
      operation: 'getTeamPipeline',
    })
    .input(TeamPipelineKey)
    .output(documented(TeamPipelineWire))
    .query(async ({ ctx, input }) =>
      presentTeamPipeline(await ctx.useCases.getTeamPipeline(ctx.actor, input), ctx.urls),
    ),

  create: authed
    .meta({
      openapi: {
        method: 'POST',
        path: TEAM_PIPELINES,
        tags: TAGS,
        summary: 'Create a team pipeline',
        description: `Also answers \`POST ${TEAM_PIPELINES}/\` (the spec's form, with the trailing slash).`,
      },
      operation: 'createTeamPipeline',
      successStatus: 201,
      requestBody: 'CreateTeamPipelineRequest',
    })
    .input(CreateTeamPipelineInput)
    .output(documented(TeamPipelineWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, team, ...body } = input;
      const result = await ctx.useCases.createTeamPipeline(ctx.actor, { organization, team }, body);
      return presentTeamPipeline(result, ctx.urls);
    }),

  update: authed
    .meta({
      openapi: { method: 'PATCH', path: TEAM_PIPELINE, tags: TAGS, summary: 'Update a team pipeline' },
      operation: 'updateTeamPipeline',
      requestBody: 'UpdateTeamPipelineRequest',
    })
    .input(UpdateTeamPipelineInput)
    .output(documented(TeamPipelineWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, team, pipeline, ...body } = input;
      const result = await ctx.useCases.updateTeamPipeline(ctx.actor, { organization, team, pipeline }, body);
      return presentTeamPipeline(result, ctx.urls);
    }),

  delete: authed
    .meta({
      openapi: { method: 'DELETE', path: TEAM_PIPELINE, tags: TAGS, summary: 'Delete a team pipeline' },
      operation: 'deleteTeamPipeline',
      successStatus: 204,
    })
    .input(TeamPipelineKey)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.useCases.deleteTeamPipeline(ctx.actor, input);
    }),

  deleteByPipelineId: authed
    .meta({
      openapi: {
        method: 'DELETE',
        path: `${TEAM_PIPELINES}/`,
        tags: TAGS,
        summary: 'Delete a team pipeline named by pipeline_id',
        description:
          'The spec\'s literal path: the pipeline is `pipeline_id` in a JSON body (`{"pipeline_id": "<uuid>"}`) or in the query.',
      },
      operation: 'deleteTeamPipeline',
      successStatus: 204,
    })
    .input(DeleteByPipelineIdInput)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      const ref = { organization: input.organization, team: input.team, pipeline: pipelineIdOf(ctx, input) };
      await ctx.useCases.deleteTeamPipeline(ctx.actor, ref);
    }),
});
