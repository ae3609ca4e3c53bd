import { notFound } from '@ci/domain';
import { builder } from './builder';
import { AgentTokenRef } from './types/agent-token';
import { ArtifactRef } from './types/artifact';
import { BuildNode } from './types/build-node';
import { JobUnion } from './types/job';
import { OrganizationRef } from './types/organization';
import { PipelineNode } from './types/pipeline-node';
import { PipelineTemplateRef } from './types/pipeline-template';
import { AgentRef, BuildRef, PipelineRef, TeamRef } from './types/refs';
import { RegistryRef } from './types/registry';
import { RuleRef } from './types/rule';
import { ViewerRef } from './types/viewer';

builder.queryType({ description: 'The query root for this schema' });

builder.queryFields((t) => ({
  agent: t.field({
    type: AgentRef,
    nullable: true,
    description: 'Find an agent by its slug',
    args: {
      slug: t.arg.id({
        required: true,
        description:
          "The UUID for the agent, prefixed by its organization's slug i.e. `acme-inc/0bd5ea7c-89b3-4f40-8ca3-ffac805771eb`",
      }),
    },
    resolve: (_root, args, ctx) => ctx.useCases.byId.findAgent(ctx.actor, args.slug),
  }),
  agentToken: t.field({
    type: AgentTokenRef,
    nullable: true,
    description: 'Find an agent token (organization admins only)',
    args: {
      slug: t.arg.id({
        required: true,
        description:
          "The UUID for the agent token, prefixed by its organization's slug i.e. `acme-inc/0bd5ea7c-89b3-4f40-8ca3-ffac805771eb`",
      }),
    },
    resolve: (_root, args, ctx) => ctx.useCases.byId.findAgentToken(ctx.actor, args.slug),
  }),
  artifact: t.field({
    type: ArtifactRef,
    nullable: true,
    description: 'Find an artifact',
    args: { uuid: t.arg.id({ required: true, description: 'The UUID of the artifact' }) },
    resolve: async (_root, args, ctx) => {
      const artifact = await ctx.loaders.artifacts.load(args.uuid);
      if (!artifact) throw notFound('artifact');
      return artifact;
    },
  }),
  build: t.field({
    type: BuildRef,
    nullable: true,
    description: 'Find a build',
    args: {
      slug: t.arg.id({
        required: false,
        description:
          'The number of the build, prefixed with its organization and pipeline. i.e. `acme-inc/my-pipeline/123`',
      }),
      uuid: t.arg.id({ required: false, description: 'The UUID of the build' }),
    },
    resolve: async (_root, args, ctx) => BuildNode.of(await ctx.useCases.byId.findBuild(ctx.actor, args)),
  }),
  job: t.field({
    type: JobUnion,
    nullable: true,
    description: 'Find a build job',
    args: { uuid: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const job = await ctx.loaders.jobs.load(args.uuid);
      if (!job) throw notFound('job');
      return job;
    },
  }),
  pipelineTemplate: t.field({
    type: PipelineTemplateRef,
    nullable: true,
    description: 'Find a pipeline template',
    args: { uuid: t.arg.id({ required: true, description: 'The UUID of the pipeline template' }) },
    resolve: (_root, args, ctx) => ctx.useCases.byId.findPipelineTemplate(ctx.actor, args.uuid),
  }),
  registry: t.field({
    type: RegistryRef,
    nullable: true,
    description: 'Find a registry',
    args: {
      slug: t.arg.id({
        required: false,
        description: 'The slug of the registry, prefixed with its organization. i.e. `acme-inc/my-registry`',
      }),
      uuid: t.arg.id({ required: false, description: 'The UUID of the registry' }),
    },
    resolve: (_root, args, ctx) => ctx.useCases.byId.findRegistry(ctx.actor, args),
  }),
  organization: t.field({
    type: OrganizationRef,
    nullable: true,
    description: 'Find an organization',
    args: {
      slug: t.arg.id({ required: false, description: 'The slug of the organization' }),
      uuid: t.arg.id({ required: false, description: 'The UUID of the organization' }),
    },
    resolve: (_root, args, ctx) => ctx.useCases.byId.findOrganization(ctx.actor, args),
  }),
  pipeline: t.field({
    type: PipelineRef,
    nullable: true,
    description: 'Find a pipeline',
    args: {
      slug: t.arg.id({
        required: false,
        description: 'The slug of the pipeline, prefixed with its organization. i.e. `acme-inc/my-pipeline`',
      }),
      uuid: t.arg.id({ required: false, description: 'The UUID of the pipeline' }),
    },
    resolve: async (_root, args, ctx) =>
      new PipelineNode(await ctx.useCases.byId.findPipeline(ctx.actor, args)),
  }),
  rule: t.field({
    type: RuleRef,
    nullable: true,
    description: 'Find a rule (organization admins only)',
    args: { uuid: t.arg.id({ required: true, description: 'The UUID of the rule' }) },
    resolve: (_root, args, ctx) => ctx.useCases.byId.findRule(ctx.actor, args.uuid),
  }),
  team: t.field({
    type: TeamRef,
    nullable: true,
    description: 'Find a team',
    args: {
      slug: t.arg.id({
        required: true,
        description: 'The slug of the team, prefixed with its organization. i.e. `acme-inc/awesome-team`',
      }),
    },
    resolve: (_root, args, ctx) => ctx.useCases.byId.findTeam(ctx.actor, args.slug),
  }),
  viewer: t.field({
    type: ViewerRef,
    nullable: true,
    description: 'Context of the current user using the GraphQL API',
    resolve: (_root, _args, ctx) => ({ viewer: ctx.actor.user }),
  }),
}));
