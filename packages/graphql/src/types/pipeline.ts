import { seenFrom } from '@ci/application';
import { hasScope, type Pipeline, webAddresses } from '@ci/domain';
import { builder, type GraphqlContext } from '../builder';
import { ClusterRef } from './cluster';
import { OrganizationRef, organizationOf } from './organization';
import { PipelineNode, webhookUrlOf } from './pipeline-node';
import { PipelineTemplateRef } from './pipeline-template';
import { PipelineRef } from './refs';
import { Repository } from './repository-provider';
import { ConnectionInterface } from './scalars';
import { UserRef } from './user';

const PipelineTag = builder.objectRef<{ label: string }>('PipelineTag').implement({
  description: 'A tag of a pipeline',
  fields: (t) => ({ label: t.exposeString('label', { nullable: false }) }),
});

const PipelineSteps = builder.objectRef<{ yaml: string }>('PipelineSteps').implement({
  description: "A pipeline's steps",
  fields: (t) => ({ yaml: t.expose('yaml', { type: 'YAML', nullable: true }) }),
});

export const PipelineVisibility = builder.enumType('PipelineVisibility', {
  description: 'The visibility of the pipeline',
  values: {
    PRIVATE: { description: 'The pipeline is private' },
    PUBLIC: { description: 'The pipeline is public' },
  },
});

builder.node(PipelineRef, {
  description: 'A pipeline',
  id: { resolve: ({ pipeline }) => pipeline.id },
  extensions: { idReadInPlace: true },
  fields: (t) => ({
    uuid: t.exposeString('uuid', { nullable: false }),
    name: t.exposeString('name', { nullable: false }),
    slug: t.exposeString('slug', { nullable: false }),
    description: t.exposeString('description', { nullable: true }),
    url: t.string({
      nullable: false,
      resolve: ({ pipeline, organizationSlug }, _args, ctx) =>
        webAddresses.pipeline(ctx.urls.web, organizationSlug, pipeline.slug),
    }),
    repository: t.expose('repository', { type: Repository, nullable: true }),
    defaultBranch: t.exposeString('defaultBranch', { nullable: true }),
    branchConfiguration: t.exposeString('branchConfiguration', { nullable: true }),
    skipIntermediateBuilds: t.exposeBoolean('skipIntermediateBuilds', {
      nullable: false,
      description: 'REST `skip_queued_branch_builds`',
    }),
    skipIntermediateBuildsBranchFilter: t.exposeString('skipIntermediateBuildsBranchFilter', {
      nullable: true,
    }),
    cancelIntermediateBuilds: t.exposeBoolean('cancelIntermediateBuilds', {
      nullable: false,
      description: 'REST `cancel_running_branch_builds`',
    }),
    cancelIntermediateBuildsBranchFilter: t.exposeString('cancelIntermediateBuildsBranchFilter', {
      nullable: true,
    }),
    nextBuildNumber: t.exposeInt('nextBuildNumber', { nullable: false }),
    archived: t.exposeBoolean('archived', { nullable: false }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: true }),
    visibility: t.expose('visibility', {
      type: PipelineVisibility,
      nullable: false,
      description: 'As stored (REST `visibility`); a public pipeline is not open to readers without a token',
    }),
    badgeURL: t.string({
      nullable: false,
      resolve: ({ pipeline }, _args, ctx) => webAddresses.badge(ctx.urls.api, pipeline.id),
    }),
    webhookURL: t.string({
      nullable: true,
      description: 'The webhook URL for users who may edit the pipeline (rule B2), otherwise null',
      resolve: (node, _args, ctx) => webhookUrlOf(node, ctx),
    }),
    allowRebuilds: t.exposeBoolean('allowRebuilds', { nullable: true }),
    color: t.exposeString('color', { nullable: true }),
    emoji: t.exposeString('emoji', { nullable: true }),
    defaultTimeoutInMinutes: t.exposeInt('defaultTimeoutInMinutes', {
      nullable: true,
      description: 'Stored and shown; jobs are not timed out by it',
    }),
    maximumTimeoutInMinutes: t.exposeInt('maximumTimeoutInMinutes', {
      nullable: true,
      description: 'Stored and shown; jobs are not timed out by it',
    }),
    cluster: t.field({
      type: ClusterRef,
      nullable: true,
      description: "The pipeline's cluster; null when none, or the token may not read clusters",
      resolve: ({ pipeline }, _args, ctx) => clusterOf(pipeline.clusterId, ctx),
    }),
    cloneMirrorUrl: t.string({
      nullable: true,
      description: 'Always null: clone mirrors are not used here (a given one is ignored)',
      resolve: () => null,
    }),
    tags: t.expose('tags', { type: [PipelineTag], nullable: false }),
    pipelineTemplate: t.field({
      type: PipelineTemplateRef,
      nullable: true,
      description:
        'The template the steps came from; null when none (or it was deleted), or the viewer may not see it',
      resolve: ({ pipeline }, _args, ctx) => pipelineTemplateOf(pipeline, ctx),
    }),
    steps: t.expose('steps', {
      type: PipelineSteps,
      nullable: true,
      description: 'The YAML the steps came from; null for a pipeline defined by a list of steps',
    }),
    organization: t.field({
      type: OrganizationRef,
      nullable: false,
      resolve: ({ pipeline }, _args, ctx) => organizationOf(pipeline.organizationId, ctx),
    }),
    createdBy: t.field({
      type: UserRef,
      nullable: true,
      description: 'The user who created the pipeline (REST `created_by`)',
      resolve: ({ pipeline }, _args, ctx) =>
        pipeline.createdById ? ctx.loaders.people.load(pipeline.createdById) : null,
    }),
  }),
});

export const PipelineRepositoryInput = builder.inputType('PipelineRepositoryInput', {
  fields: (t) => ({
    url: t.string({
      required: true,
      description: 'The remote URL for this repository i.e. git@github.com:foo/bar.git',
    }),
  }),
});

export const PipelineEdge = builder.edgeObject({ type: PipelineRef, name: 'PipelineEdge' });

export const PipelineConnection = builder.connectionObject(
  { type: PipelineRef, name: 'PipelineConnection', interfaces: [ConnectionInterface] },
  PipelineEdge,
);

builder.objectField(OrganizationRef, 'pipelines', (t) =>
  t.connection(
    {
      type: PipelineRef,
      description:
        'Return all the pipelines the current user has access to for this organization, oldest first (as the REST list)',
      args: {
        archived: t.arg.boolean({
          required: false,
          description: 'Archived pipelines only (true) or unarchived ones only (false); absent: all of them',
        }),
        search: t.arg.string({
          required: false,
          description: "Part of the pipeline's name, in any case (REST `name`)",
        }),
        repository: t.arg({
          type: PipelineRepositoryInput,
          required: false,
          description: 'Part of the repository URL, in any case (REST `repository`)',
        }),
      },
      resolve: (organization, args, ctx) =>
        ctx.loaders.list({
          field: 'Organization.pipelines',
          parentId: organization.id,
          args,
          read: async (window) => {
            const page = await ctx.useCases.listPipelines(
              ctx.actor,
              organization.slug,
              {
                name: args.search ?? undefined,
                repository: args.repository?.url,
                archived: args.archived ?? undefined,
              },
              window,
            );
            return {
              items: page.pipelines.map((result) => new PipelineNode(seenFrom(result))),
              totalCount: page.totalCount,
            };
          },
        }),
    },
    PipelineConnection,
  ),
);

/**
 * The pipeline's template, as the viewer may see it (admins every one, members the available ones); null
 * also for a token without `read_pipeline_templates`, which may not read templates.
 */
export function pipelineTemplateOf(pipeline: Pick<Pipeline, 'pipelineTemplateId'>, ctx: GraphqlContext) {
  if (!pipeline.pipelineTemplateId || !hasScope(ctx.actor.scopes, 'read_pipeline_templates')) return null;
  return ctx.loaders.pipelineTemplates.load(pipeline.pipelineTemplateId);
}

/** A pipeline's cluster, as the viewer may see it; null for a token without `read_clusters`. */
export function clusterOf(clusterId: string | null, ctx: GraphqlContext) {
  if (!clusterId || !hasScope(ctx.actor.scopes, 'read_clusters')) return null;
  return ctx.loaders.clusters.load(clusterId);
}
