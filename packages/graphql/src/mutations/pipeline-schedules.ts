import type { PipelineScheduleView } from '@ci/application';
import { encodeGraphqlId, envFromLines, unprocessable } from '@ci/domain';
import type { GraphqlContext, Types } from '../builder';
import { cursorFor } from '../connection';
import { uuidOf } from '../global-id';
import { PipelineNode } from '../types/pipeline-node';
import { PipelineScheduleEdgeRef, PipelineScheduleRef } from '../types/pipeline-schedule';
import { PipelineRef } from '../types/refs';
import { publicMutation } from './client-mutation-id';

/**
 * Pipeline schedule create, update and delete, for those who may edit the pipeline (`write_pipelines`).
 * `env` is the public form, `KEY=value` lines; the rest is the REST body's.
 */

function envOf(text: string | null | undefined): Record<string, string> | null | undefined {
  if (text === undefined || text === null) return text;
  const env = envFromLines(text);
  if (!env.ok) throw unprocessable('validation_failed', `Validation Failed: ${env.error}`);
  return env.value;
}

/** The pipeline a payload names, as the viewer sees it. */
async function pipelineOf(view: PipelineScheduleView, ctx: GraphqlContext) {
  return PipelineNode.of(await ctx.loaders.pipelines.load(view.schedule.pipelineId));
}

/** The fields an input gives: absent ones are left out, so an update keeps them. */
function bodyOf(input: Record<string, unknown>) {
  const body: Record<string, unknown> = {};
  for (const key of ['label', 'cronline', 'branch', 'commit', 'message', 'enabled'] as const) {
    if (input[key] !== undefined) body[key] = input[key];
  }
  const env = envOf(input.env as string | null | undefined);
  if (env !== undefined) body.env = env;
  return body;
}

/** The fields create and update both take; on update an absent one is kept. */
const scheduleInputFields = (t: PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>) => ({
  label: t.string(),
  cronline: t.string(),
  message: t.string(),
  commit: t.string(),
  branch: t.string(),
  env: t.string({ description: 'The environment of its builds: `KEY=value` lines' }),
  enabled: t.boolean(),
});

publicMutation('pipelineScheduleCreate', {
  description: 'Create a scheduled build on pipeline.',
  inputFields: (t) => ({
    pipelineID: t.id({ required: true }),
    ...scheduleInputFields(t),
  }),
  resolve: async (input, ctx) => {
    const view = await ctx.useCases.byId.createPipelineSchedule(
      ctx.actor,
      uuidOf(input.pipelineID, 'Pipeline'),
      bodyOf(input),
    );
    return { view, pipeline: await pipelineOf(view, ctx) };
  },
  payloadFields: (t) => ({
    pipeline: t.field({
      type: PipelineRef,
      nullable: false,
      resolve: ({ pipeline }) => pipeline as PipelineNode,
    }),
    pipelineScheduleEdge: t.field({
      type: PipelineScheduleEdgeRef,
      nullable: false,
      resolve: ({ view }) => ({ cursor: cursorFor(0), node: view }),
    }),
  }),
});

publicMutation('pipelineScheduleUpdate', {
  description: 'Update a scheduled build on pipeline.',
  inputFields: (t) => ({
    id: t.id({ required: true }),
    ...scheduleInputFields(t),
  }),
  resolve: async (input, ctx) => ({
    pipelineSchedule: await ctx.useCases.byId.updatePipelineSchedule(
      ctx.actor,
      uuidOf(input.id, 'PipelineSchedule'),
      bodyOf(input),
    ),
  }),
  payloadFields: (t) => ({
    pipelineSchedule: t.expose('pipelineSchedule', { type: PipelineScheduleRef, nullable: false }),
  }),
});

publicMutation('pipelineScheduleDelete', {
  description: 'Delete a scheduled build on pipeline.',
  inputFields: (t) => ({ id: t.id({ required: true }) }),
  resolve: async (input, ctx) => {
    const view = await ctx.useCases.byId.deletePipelineSchedule(
      ctx.actor,
      uuidOf(input.id, 'PipelineSchedule'),
    );
    return {
      deletedPipelineScheduleID: encodeGraphqlId('PipelineSchedule', view.schedule.id),
      pipeline: await pipelineOf(view, ctx),
    };
  },
  payloadFields: (t) => ({
    deletedPipelineScheduleID: t.exposeID('deletedPipelineScheduleID', { nullable: false }),
    pipeline: t.field({ type: PipelineRef, nullable: true, resolve: ({ pipeline }) => pipeline }),
  }),
});
