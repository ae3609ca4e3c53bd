import type { AssociationOrder, TeamPipelineResult } from '@ci/application';
import type { AccessLevel, TeamMemberRole as Role } from '@ci/domain';
import { builder } from '../builder';
import { OrganizationRef, organizationOf } from './organization';
import { PipelineNode } from './pipeline-node';
import { PipelineRef, TeamPipelineRef, TeamRef } from './refs';
import { ConnectionInterface } from './scalars';
import { UserRef } from './user';

export const PipelineAccessLevels = builder.enumType('PipelineAccessLevels', {
  description: 'The access levels that can be assigned to a pipeline',
  values: {
    BUILD_AND_READ: { value: 'build_and_read', description: 'Allows builds and read only' },
    MANAGE_BUILD_AND_READ: { value: 'manage_build_and_read', description: 'Allows edits, builds and reads' },
    READ_ONLY: { value: 'read_only', description: 'Read only - no builds or edits' },
  } as const satisfies Record<string, { value: AccessLevel; description: string }>,
});

export const TeamPrivacy = builder.enumType('TeamPrivacy', {
  description: 'Whether a team is visible or secret within an organization',
  values: { SECRET: { value: 'secret' }, VISIBLE: { value: 'visible' } } as const,
});

export const TeamMemberRole = builder.enumType('TeamMemberRole', {
  description: 'The roles a user can be within a team',
  values: {
    MAINTAINER: {
      value: 'maintainer',
      description: 'The user can manage pipelines and users within the team',
    },
    MEMBER: { value: 'member', description: 'The user is a regular member of the team' },
  } as const satisfies Record<string, { value: Role; description: string }>,
});

builder.node(TeamRef, {
  description: 'An organization team',
  id: { resolve: (team) => team.id },
  fields: (t) => ({
    uuid: t.exposeID('id', { nullable: false, description: 'The public UUID for this team' }),
    name: t.exposeString('name', { nullable: false }),
    slug: t.exposeString('slug', { nullable: false }),
    description: t.exposeString('description', { nullable: true }),
    privacy: t.field({ type: TeamPrivacy, nullable: false, resolve: (team) => team.privacy }),
    isDefaultTeam: t.exposeBoolean('isDefaultTeam', { nullable: false }),
    createdAt: t.field({ type: 'DateTime', nullable: false, resolve: (team) => team.createdAt }),
    defaultMemberRole: t.field({
      type: TeamMemberRole,
      nullable: false,
      description: 'The role a user added without one gets',
      resolve: (team) => team.defaultMemberRole,
    }),
    membersCanCreatePipelines: t.exposeBoolean('membersCanCreatePipelines', { nullable: false }),
    membersCanCreateSuites: t.exposeBoolean('membersCanCreateSuites', { nullable: false }),
    membersCanCreateRegistries: t.exposeBoolean('membersCanCreateRegistries', { nullable: false }),
    membersCanDestroyRegistries: t.exposeBoolean('membersCanDestroyRegistries', { nullable: false }),
    membersCanDestroyPackages: t.exposeBoolean('membersCanDestroyPackages', { nullable: false }),
    createdBy: t.field({
      type: UserRef,
      nullable: true,
      description: 'The user who created the team (REST `created_by`)',
      resolve: (team, _args, ctx) => (team.createdById ? ctx.loaders.people.load(team.createdById) : null),
    }),
    organization: t.field({
      type: OrganizationRef,
      nullable: true,
      resolve: (team, _args, ctx) => organizationOf(team.organizationId, ctx),
    }),
  }),
});

export const TeamEdge = builder.edgeObject({ type: TeamRef, name: 'TeamEdge' });

const TeamConnection = builder.connectionObject(
  { type: TeamRef, name: 'TeamConnection', interfaces: [ConnectionInterface] },
  TeamEdge,
);

builder.objectField(OrganizationRef, 'teams', (t) =>
  t.connection(
    {
      type: TeamRef,
      description:
        'The teams of this organization the user may see (a secret team only its members and admins), oldest first (as the REST list)',
      args: {
        search: t.arg.string({ description: 'Teams whose name holds this text, in any case' }),
      },
      resolve: (organization, args, ctx) =>
        ctx.loaders.list({
          field: 'Organization.teams',
          parentId: organization.id,
          args,
          read: async (window) => {
            const page = await ctx.useCases.listTeams(
              ctx.actor,
              organization.slug,
              { userId: null, search: args.search ?? null },
              window,
            );
            return { items: page.teams.map((view) => view.team), totalCount: page.totalCount };
          },
        }),
    },
    TeamConnection,
  ),
);

/** A pipeline as an association shows it: what the viewer may do on it is looked up for `webhookURL`. */
export const pipelineOfAssociation = (result: TeamPipelineResult) =>
  new PipelineNode({
    pipeline: result.pipeline,
    organizationSlug: result.organizationSlug,
    showWebhookUrl: null,
  });

builder.node(TeamPipelineRef, {
  description: "An pipeline that's been assigned to a team",
  id: { resolve: ({ teamPipeline }) => teamPipeline.id },
  fields: (t) => ({
    uuid: t.id({ nullable: false, resolve: ({ teamPipeline }) => teamPipeline.id }),
    accessLevel: t.field({
      type: PipelineAccessLevels,
      nullable: false,
      resolve: ({ teamPipeline }) => teamPipeline.accessLevel,
    }),
    createdAt: t.field({
      type: 'DateTime',
      nullable: false,
      resolve: ({ teamPipeline }) => teamPipeline.createdAt,
    }),
    pipeline: t.field({ type: PipelineRef, nullable: true, resolve: pipelineOfAssociation }),
    team: t.field({ type: TeamRef, nullable: true, resolve: ({ team }) => team }),
  }),
});

export const TeamPipelineEdge = builder.edgeObject({ type: TeamPipelineRef, name: 'TeamPipelineEdge' });

export const TeamPipelineConnection = builder.connectionObject(
  { type: TeamPipelineRef, name: 'TeamPipelineConnection', interfaces: [ConnectionInterface] },
  TeamPipelineEdge,
);

builder.objectField(TeamRef, 'pipelines', (t) =>
  t.connection(
    {
      type: TeamPipelineRef,
      description:
        "The team's pipelines the user may see, oldest association first (as the REST list), read for a page of teams at once",
      resolve: (team, args, ctx, info) =>
        ctx.loaders
          .connection({
            field: 'Team.pipelines',
            args,
            info,
            idOf: (id: string) => id,
            read: (requests) => ctx.useCases.byId.teamPipelinesOfTeams(ctx.actor, requests),
          })
          .load(team.id),
    },
    TeamPipelineConnection,
  ),
);

const TeamPipelineOrder = builder.enumType('TeamPipelineOrder', {
  description: 'The order of a list of team pipelines',
  values: {
    NAME: { value: 'name', description: "By the other side's name" },
    RECENTLY_CREATED: { value: 'newest', description: 'Newest association first' },
    RELEVANCE: { value: 'newest', description: 'Without a search: as RECENTLY_CREATED' },
  } as const satisfies Record<string, { value: AssociationOrder; description: string }>,
});

builder.objectField(PipelineRef, 'teams', (t) =>
  t.connection(
    {
      type: TeamPipelineRef,
      description:
        "The pipeline's teams the user may see (a secret team only its members and admins), read for a page of pipelines at once",
      args: {
        order: t.arg({ type: TeamPipelineOrder, defaultValue: 'newest' }),
        search: t.arg.string({ description: 'Teams whose name holds this text, in any case' }),
      },
      resolve: ({ pipeline }, args, ctx, info) =>
        ctx.loaders
          .connection({
            field: 'Pipeline.teams',
            args,
            info,
            idOf: (id: string) => id,
            read: (requests) =>
              ctx.useCases.byId.teamPipelinesOfPipelines(ctx.actor, requests, {
                order: args.order ?? 'newest',
                ...(args.search ? { search: args.search } : {}),
              }),
          })
          .load(pipeline.id),
    },
    TeamPipelineConnection,
  ),
);
