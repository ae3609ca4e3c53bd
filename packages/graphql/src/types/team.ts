import type { TeamPipelineResult } from '@ci/application';
import type { AccessLevel } from '@ci/domain';
import { builder } from '../builder';
import { resolveConnection } from '../connection';
import { OrganizationRef, organizationOf } from './organization';
import { PipelineRef, TeamPipelineRef, TeamRef } from './refs';
import { ConnectionInterface } from './scalars';

export const PipelineAccessLevels = builder.enumType('PipelineAccessLevels', {
  description: 'The access levels that can be assigned to a pipeline',
  values: {
    BUILD_AND_READ: { value: 'build_and_read', description: 'Allows builds and read only' },
    MANAGE_BUILD_AND_READ: { value: 'manage_build_and_read', description: 'Allows edits, builds and reads' },
    READ_ONLY: { value: 'read_only', description: 'Read only - no builds or edits' },
  } as const satisfies Record<string, { value: AccessLevel; description: string }>,
});

const TeamPrivacy = builder.enumType('TeamPrivacy', {
  description: 'Whether a team is visible or secret within an organization',
  values: { SECRET: { value: 'secret' }, VISIBLE: { value: 'visible' } } as const,
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
    organization: t.field({
      type: OrganizationRef,
      nullable: true,
      resolve: (team, _args, ctx) => organizationOf(team.organizationId, ctx),
    }),
  }),
});

/** A pipeline as an association shows it: what the viewer may do on it is looked up for `webhookURL`. */
export const pipelineOfAssociation = (result: TeamPipelineResult) => ({
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
      description: "The team's pipelines, oldest association first (as the REST list)",
      resolve: async (team, args, ctx) => {
        const organization = await organizationOf(team.organizationId, ctx);
        const ref = { organization: organization.slug, team: team.id };
        return ctx.loaders.once(`team-pipelines:${team.id}:${JSON.stringify(args)}`, () =>
          resolveConnection(args, async (window) => {
            const page = await ctx.useCases.listTeamPipelines(ctx.actor, ref, window);
            return { items: page.teamPipelines, totalCount: page.totalCount };
          }),
        );
      },
    },
    TeamPipelineConnection,
  ),
);
