import type { SuiteView, TeamSuiteView } from '@ci/application';
import type { SuiteAccessLevel } from '@ci/domain';
import { builder } from '../builder';
import { OrganizationRef } from './organization';
import { ALLOWED, PermissionRef } from './permission';
import { TeamRef } from './refs';
import { ConnectionInterface } from './scalars';
import { UserRef } from './user';

export const SuiteRef = builder.objectRef<SuiteView>('Suite');
export const TeamSuiteRef = builder.objectRef<TeamSuiteView>('TeamSuite');

export const SuiteAccessLevels = builder.enumType('SuiteAccessLevels', {
  values: {
    MANAGE_AND_READ: { value: 'manage_and_read' },
    READ_ONLY: { value: 'read_only' },
  } as const satisfies Record<string, { value: SuiteAccessLevel }>,
});

const FORBIDDEN = {
  allowed: false,
  code: 'forbidden',
  message: 'Only organization admins may change team suites',
};

const TeamSuitePermissions = builder.objectRef<TeamSuiteView>('TeamSuitePermissions').implement({
  description: 'What the viewer may do with a team suite',
  fields: (t) => ({
    teamSuiteUpdate: t.field({
      type: PermissionRef,
      nullable: true,
      resolve: ({ mayChange }) => (mayChange ? ALLOWED : FORBIDDEN),
    }),
    teamSuiteDelete: t.field({
      type: PermissionRef,
      nullable: true,
      resolve: ({ mayChange }) => (mayChange ? ALLOWED : FORBIDDEN),
    }),
  }),
});

const TeamSuiteOrder = builder.enumType('TeamSuiteOrder', {
  description: 'The order of a list of team suites',
  values: {
    NAME: { value: 'name', description: "By the other side's name" },
    RECENTLY_CREATED: { value: 'newest', description: 'Newest first' },
    RELEVANCE: { value: 'newest', description: 'Without a search: as RECENTLY_CREATED' },
  } as const,
});

export const TeamSuiteEdgeRef = builder.edgeObject({ type: TeamSuiteRef, name: 'TeamSuiteEdge' });
const TeamSuiteConnection = builder.connectionObject(
  { type: TeamSuiteRef, name: 'TeamSuiteConnection', interfaces: [ConnectionInterface] },
  TeamSuiteEdgeRef,
);

builder.node(SuiteRef, {
  description: 'A test suite',
  id: { resolve: ({ suite }) => suite.id },
  fields: (t) => ({
    uuid: t.string({ nullable: false, resolve: ({ suite }) => suite.id }),
    name: t.string({ nullable: false, resolve: ({ suite }) => suite.name }),
    slug: t.string({ nullable: false, resolve: ({ suite }) => suite.slug }),
    defaultBranch: t.string({ nullable: true, resolve: ({ suite }) => suite.defaultBranch }),
    applicationName: t.string({ nullable: true, resolve: ({ suite }) => suite.applicationName }),
    emoji: t.string({ nullable: true, resolve: ({ suite }) => suite.emoji }),
    color: t.string({ nullable: true, resolve: ({ suite }) => suite.color }),
    createdAt: t.field({ type: 'DateTime', nullable: true, resolve: ({ suite }) => suite.createdAt }),
    url: t.string({
      nullable: false,
      description: "The suite's address in the web interface",
      resolve: ({ suite, organization }, _args, ctx) =>
        `${ctx.urls.web}/organizations/${organization.slug}/analytics/suites/${suite.slug}`,
    }),
    organization: t.field({
      type: OrganizationRef,
      nullable: false,
      resolve: ({ organization }) => organization,
    }),
    teams: t.connection(
      {
        type: TeamSuiteRef,
        description: 'The teams with access to this suite, newest first or by name (`order`)',
        args: { order: t.arg({ type: TeamSuiteOrder, required: false, defaultValue: 'newest' }) },
        resolve: ({ suite }, args, ctx) =>
          ctx.loaders.list({
            field: 'Suite.teams',
            parentId: suite.id,
            args,
            read: (window) =>
              ctx.useCases.listTeamSuites(
                ctx.actor,
                { of: 'suite', id: suite.id, organizationId: suite.organizationId },
                window,
                args.order ?? 'newest',
              ),
          }),
      },
      TeamSuiteConnection,
    ),
  }),
});

builder.node(TeamSuiteRef, {
  description: "A team's access to a test suite",
  id: { resolve: ({ teamSuite }) => teamSuite.id },
  fields: (t) => ({
    uuid: t.string({ nullable: false, resolve: ({ teamSuite }) => teamSuite.id }),
    accessLevel: t.field({
      type: SuiteAccessLevels,
      nullable: false,
      resolve: ({ teamSuite }) => teamSuite.accessLevel,
    }),
    createdAt: t.field({
      type: 'DateTime',
      nullable: false,
      resolve: ({ teamSuite }) => teamSuite.createdAt,
    }),
    createdBy: t.field({
      type: UserRef,
      nullable: true,
      resolve: ({ teamSuite }, _args, ctx) =>
        teamSuite.creatorId ? ctx.loaders.people.load(teamSuite.creatorId) : null,
    }),
    suite: t.field({
      type: SuiteRef,
      nullable: true,
      resolve: ({ teamSuite }, _args, ctx) => ctx.loaders.suites.load(teamSuite.suiteId),
    }),
    team: t.field({
      type: TeamRef,
      nullable: true,
      resolve: ({ teamSuite }, _args, ctx) => ctx.loaders.teams.load(teamSuite.teamId),
    }),
    permissions: t.field({ type: TeamSuitePermissions, nullable: false, resolve: (view) => view }),
  }),
});

const SuiteConnection = builder.connectionObject(
  { type: SuiteRef, name: 'SuiteConnection', interfaces: [ConnectionInterface] },
  { name: 'SuiteEdge' },
);

builder.objectField(OrganizationRef, 'suites', (t) =>
  t.connection(
    {
      type: SuiteRef,
      nullable: true,
      description: "The organization's test suites, newest first (`read_suites`)",
      resolve: (organization, args, ctx) =>
        ctx.loaders.list({
          field: 'Organization.suites',
          parentId: organization.id,
          args,
          read: (window) => ctx.useCases.listSuites(ctx.actor, organization.slug, window),
        }),
    },
    SuiteConnection,
  ),
);

builder.objectField(TeamRef, 'suites', (t) =>
  t.connection(
    {
      type: TeamSuiteRef,
      nullable: true,
      description: 'The suites this team has access to, newest first or by name (`order`; `read_suites`)',
      args: { order: t.arg({ type: TeamSuiteOrder, required: false, defaultValue: 'newest' }) },
      resolve: (team, args, ctx) =>
        ctx.loaders.list({
          field: 'Team.suites',
          parentId: team.id,
          args,
          read: (window) =>
            ctx.useCases.listTeamSuites(
              ctx.actor,
              { of: 'team', id: team.id, organizationId: team.organizationId },
              window,
              args.order ?? 'newest',
            ),
        }),
    },
    TeamSuiteConnection,
  ),
);
