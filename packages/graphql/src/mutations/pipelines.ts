import { seenFrom } from '@ci/application';
import { encodeGraphqlId, isDomainError, isUuid, webAddresses } from '@ci/domain';
import { builder, type Types } from '../builder';
import { cursorFor } from '../connection';
import { uuidOf } from '../global-id';
import { OrganizationRef, organizationOf } from '../types/organization';
import {
  PipelineEdge,
  PipelineRepositoryInput,
  PipelineVisibility,
  pipelineTemplateOf,
} from '../types/pipeline';
import { PipelineNode } from '../types/pipeline-node';
import { PipelineTemplateRef } from '../types/pipeline-template';
import { PipelineRef } from '../types/refs';
import { RepositoryProviderWebhook, webhookExternalId } from '../types/repository-provider';
import { PipelineAccessLevels } from '../types/team';
import { publicMutation } from './client-mutation-id';

/**
 * Pipeline create / update / archive / unarchive / delete, with the public names, on the REST use cases:
 * each input becomes the REST body it stands for, so scopes, roles, validation and messages are REST's.
 */

const PipelineStepsInput = builder.inputType('PipelineStepsInput', {
  fields: (t) => ({ yaml: t.string({ required: true, description: 'The pipeline file (YAML)' }) }),
});

const PipelineTagInput = builder.inputType('PipelineTagInput', {
  fields: (t) => ({ label: t.string({ required: true }) }),
});

const PipelineTeamAssignmentInput = builder.inputType('PipelineTeamAssignmentInput', {
  fields: (t) => ({
    id: t.id({ required: true, description: 'The GraphQL ID of the team' }),
    accessLevel: t.field({ type: PipelineAccessLevels, defaultValue: 'manage_build_and_read' }),
  }),
});

/** What create and update share; the public defaults of `PipelineCreateInput` are set where it is built. */
interface PipelineInput {
  name?: string | null | undefined;
  repository?: { url: string } | null | undefined;
  steps?: { yaml: string } | null | undefined;
  defaultBranch?: string | null | undefined;
  branchConfiguration?: string | null | undefined;
  description?: string | null | undefined;
  skipIntermediateBuilds?: boolean | null | undefined;
  skipIntermediateBuildsBranchFilter?: string | null | undefined;
  cancelIntermediateBuilds?: boolean | null | undefined;
  cancelIntermediateBuildsBranchFilter?: string | null | undefined;
  allowRebuilds?: boolean | null | undefined;
  visibility?: 'PRIVATE' | 'PUBLIC' | null | undefined;
  tags?: Array<{ label: string }> | null | undefined;
  clusterId?: string | null | undefined;
  color?: string | null | undefined;
  emoji?: string | null | undefined;
  defaultTimeoutInMinutes?: number | null | undefined;
  maximumTimeoutInMinutes?: number | null | undefined;
  pipelineTemplateId?: string | null | undefined;
}

/** A cluster's global id (`Cluster---<uuid>`) as REST's `cluster_id`; anything else as given, for REST to judge. */
function clusterUuid(id: string): string {
  const decoded = Buffer.from(id, 'base64').toString('utf8');
  const [type, uuid] = decoded.split('---');
  return type === 'Cluster' && uuid && isUuid(uuid) ? uuid : id;
}

/** The REST body an input stands for: only what it names (null clears on update, as in REST). */
function restBody(input: PipelineInput): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const put = (key: string, value: unknown) => {
    if (value !== undefined) body[key] = value;
  };
  put('name', input.name);
  put('repository', input.repository === null ? null : input.repository?.url);
  put('configuration', input.steps === null ? null : input.steps?.yaml);
  put('default_branch', input.defaultBranch);
  put('branch_configuration', input.branchConfiguration);
  put('description', input.description);
  put('skip_queued_branch_builds', input.skipIntermediateBuilds);
  put('skip_queued_branch_builds_filter', input.skipIntermediateBuildsBranchFilter);
  put('cancel_running_branch_builds', input.cancelIntermediateBuilds);
  put('cancel_running_branch_builds_filter', input.cancelIntermediateBuildsBranchFilter);
  put('allow_rebuilds', input.allowRebuilds);
  put('visibility', input.visibility?.toLowerCase() ?? input.visibility);
  put('tags', input.tags === null ? null : input.tags?.map((tag) => tag.label));
  put('cluster_id', input.clusterId ? clusterUuid(input.clusterId) : input.clusterId);
  put('color', input.color);
  put('emoji', input.emoji);
  put('default_timeout_in_minutes', input.defaultTimeoutInMinutes);
  put('maximum_timeout_in_minutes', input.maximumTimeoutInMinutes);
  // A template's global id (`PipelineTemplate---<uuid>`) as REST's UUID; anything else as given, for REST to judge.
  put(
    'pipeline_template_uuid',
    input.pipelineTemplateId
      ? (uuidOf(input.pipelineTemplateId, 'PipelineTemplate') ?? input.pipelineTemplateId)
      : input.pipelineTemplateId,
  );
  return body;
}

const pipelineInputFields = (t: PothosSchemaTypes.InputFieldBuilder<Types, 'InputObject'>) => ({
  branchConfiguration: t.string(),
  cancelIntermediateBuilds: t.boolean(),
  cancelIntermediateBuildsBranchFilter: t.string(),
  cloneMirrorUrl: t.string({ description: 'Accepted and ignored: clone mirrors are not used here' }),
  clusterId: t.id({ description: "The cluster (its ID or UUID) whose agents run the pipeline's jobs" }),
  color: t.string(),
  defaultTimeoutInMinutes: t.int({ description: 'Stored and shown; jobs are not timed out by it' }),
  description: t.string(),
  emoji: t.string(),
  maximumTimeoutInMinutes: t.int({ description: 'Stored and shown; jobs are not timed out by it' }),
  nextBuildNumber: t.int({ description: 'Accepted and ignored: builds take the next number' }),
  pipelineTemplateId: t.id({
    description:
      'A template of the organization the viewer may use: its configuration becomes the steps (instead of `steps`); null on update leaves the template',
  }),
  skipIntermediateBuilds: t.boolean(),
  skipIntermediateBuildsBranchFilter: t.string(),
  steps: t.field({ type: PipelineStepsInput }),
  tags: t.field({ type: [PipelineTagInput] }),
});

/** The payload of update, archive and unarchive: the pipeline as it now is. */
const pipelinePayloadFields = (
  t: PothosSchemaTypes.ObjectFieldBuilder<Types, { pipeline: PipelineNode }>,
) => ({
  pipeline: t.field({ type: PipelineRef, nullable: false, resolve: (payload) => payload.pipeline }),
});

publicMutation('pipelineCreate', {
  description: 'Create a pipeline.',
  inputFields: (t) => ({
    ...pipelineInputFields(t),
    allowRebuilds: t.boolean({ defaultValue: true }),
    defaultBranch: t.string({ defaultValue: 'main' }),
    name: t.string({ required: true }),
    organizationId: t.id({ required: true }),
    repository: t.field({ type: PipelineRepositoryInput, required: true }),
    teams: t.field({ type: [PipelineTeamAssignmentInput] }),
    visibility: t.field({ type: PipelineVisibility, defaultValue: 'PRIVATE' }),
  }),
  resolve: async (input, ctx) => {
    const body = restBody(input);
    if (input.teams) {
      body.teams = Object.fromEntries(
        input.teams.map((team) => [uuidOf(team.id, 'Team') ?? team.id, team.accessLevel]),
      );
    }
    const result = await ctx.useCases.byId.createPipeline(
      ctx.actor,
      uuidOf(input.organizationId, 'Organization'),
      body,
    );
    // The new pipeline is the last of the organization's list (oldest first): its cursor is its place.
    const { totalCount } = await ctx.useCases.listPipelines(
      ctx.actor,
      result.organizationSlug,
      {},
      { offset: 0, limit: 0 },
    );
    return { pipeline: new PipelineNode(seenFrom(result)), cursor: cursorFor(Math.max(totalCount - 1, 0)) };
  },
  payloadFields: (t) => ({
    pipeline: t.field({ type: PipelineRef, nullable: false, resolve: (payload) => payload.pipeline }),
    pipelineEdge: t.field({
      type: PipelineEdge,
      nullable: false,
      resolve: (payload) => ({ cursor: payload.cursor, node: payload.pipeline }),
    }),
    organization: t.field({
      type: OrganizationRef,
      nullable: false,
      resolve: (payload, _args, ctx) => organizationOf(payload.pipeline.pipeline.organizationId, ctx),
    }),
    pipelineTemplate: t.field({
      type: PipelineTemplateRef,
      nullable: true,
      description: 'The template the new pipeline’s steps came from; null when none',
      resolve: (payload, _args, ctx) => pipelineTemplateOf(payload.pipeline.pipeline, ctx),
    }),
  }),
});

publicMutation('pipelineUpdate', {
  description: 'Change the settings of a pipeline.',
  inputFields: (t) => ({
    ...pipelineInputFields(t),
    allowRebuilds: t.boolean({ defaultValue: true }),
    archived: t.boolean({ description: 'true archives the pipeline, false unarchives it' }),
    defaultBranch: t.string(),
    id: t.id({ required: true }),
    name: t.string(),
    repository: t.field({ type: PipelineRepositoryInput }),
    visibility: t.field({ type: PipelineVisibility }),
  }),
  resolve: async (input, ctx) => {
    const id = uuidOf(input.id, 'Pipeline');
    const byId = ctx.useCases.byId;
    // Unarchived before the change (archived pipelines are read-only), archived after it.
    if (input.archived === false) await unarchivedOrAlready(() => byId.unarchivePipeline(ctx.actor, id));
    let result = await byId.updatePipeline(ctx.actor, id, restBody(input));
    if (input.archived === true && !result.record.pipeline.archivedAt) {
      result = await byId.archivePipeline(ctx.actor, id);
    }
    return { pipeline: new PipelineNode(seenFrom(result)) };
  },
  payloadFields: pipelinePayloadFields,
});

/** Unarchives, or finds the pipeline not archived (the update then goes ahead). */
async function unarchivedOrAlready(unarchive: () => Promise<unknown>): Promise<void> {
  try {
    await unarchive();
  } catch (error) {
    if (!isDomainError(error) || error.code !== 'pipeline_not_unarchivable') throw error;
  }
}

for (const [field, action, description] of [
  ['pipelineArchive', 'archivePipeline', 'Archive a pipeline: it is then read-only until unarchived.'],
  ['pipelineUnarchive', 'unarchivePipeline', 'Unarchive an archived pipeline.'],
] as const) {
  publicMutation(field, {
    description,
    inputFields: (t) => ({ id: t.id({ required: true }) }),
    resolve: async (input, ctx) => {
      const result = await ctx.useCases.byId[action](ctx.actor, uuidOf(input.id, 'Pipeline'));
      return { pipeline: new PipelineNode(seenFrom(result)) };
    },
    payloadFields: pipelinePayloadFields,
  });
}

publicMutation('pipelineDelete', {
  description: 'Delete a pipeline with its builds.',
  inputFields: (t) => ({ id: t.id({ required: true }) }),
  resolve: async (input, ctx) => {
    const pipelineId = uuidOf(input.id, 'Pipeline');
    const { organization } = await ctx.useCases.byId.deletePipeline(ctx.actor, pipelineId);
    return {
      organization,
      // The id as the client knows it: canonical, so that caches find the object they hold.
      deletedPipelineID: encodeGraphqlId('Pipeline', pipelineId as string),
    };
  },
  payloadFields: (t) => ({
    deletedPipelineID: t.exposeID('deletedPipelineID', { nullable: false }),
    organization: t.field({
      type: OrganizationRef,
      nullable: false,
      resolve: (payload) => payload.organization,
    }),
  }),
});

publicMutation('pipelineCreateWebhook', {
  description:
    'Give the pipeline an inbound webhook URL where source hosts deliver events (its `webhookURL`); a pipeline that has one keeps it.',
  inputFields: (t) => ({ id: t.id({ required: true }) }),
  resolve: async (input, ctx) => {
    const result = await ctx.useCases.byId.createPipelineWebhook(ctx.actor, uuidOf(input.id, 'Pipeline'));
    return { pipeline: new PipelineNode(seenFrom(result)) };
  },
  payloadFields: (t) => ({
    ...pipelinePayloadFields(t),
    pipelineID: t.id({
      nullable: false,
      deprecationReason: 'Use `pipeline { id }` instead',
      resolve: (payload) => encodeGraphqlId('Pipeline', payload.pipeline.pipeline.id),
    }),
    webhook: t.field({
      type: RepositoryProviderWebhook,
      nullable: false,
      resolve: ({ pipeline }, _args, ctx) => {
        const token = pipeline.pipeline.webhookToken;
        // The use case made one, and its answer was read after.
        if (token === null) throw new Error('the pipeline has no webhook');
        return { pipeline, token, url: webAddresses.webhook(ctx.urls.api, token) };
      },
    }),
  }),
});

publicMutation('pipelineDeleteWebhook', {
  description: "Drop the pipeline's inbound webhook: its URL answers 404 until one is made again.",
  inputFields: (t) => ({
    id: t.id({ required: true }),
    repository: t.string({ description: 'Accepted for compatibility; the pipeline has one webhook' }),
  }),
  resolve: async (input, ctx) => {
    const { pipeline, deletedToken } = await ctx.useCases.byId.deletePipelineWebhook(
      ctx.actor,
      uuidOf(input.id, 'Pipeline'),
    );
    return { pipeline: new PipelineNode(seenFrom(pipeline)), deletedToken };
  },
  payloadFields: (t) => ({
    ...pipelinePayloadFields(t),
    deletedWebhookExternalId: t.string({
      nullable: false,
      resolve: (payload) => webhookExternalId(payload.deletedToken),
    }),
  }),
});
