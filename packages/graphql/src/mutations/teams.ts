import { encodeGraphqlId, type TeamMemberRole as Role } from '@ci/domain';
import { cursorFor } from '../connection';
import { uuidOf } from '../global-id';
import { OrganizationRef } from '../types/organization';
import { TeamRef } from '../types/refs';
import { TeamEdge, TeamMemberRole, TeamPrivacy } from '../types/team';
import { TeamMemberEdge, TeamMemberRef } from '../types/team-member';
import { publicMutation } from './client-mutation-id';

/** A team's settings as GraphQL names them, in the REST body the team use cases read (absent: unchanged). */
function teamBody(input: {
  name?: string | null;
  description?: string | null;
  privacy?: string | null;
  isDefaultTeam?: boolean | null;
  defaultMemberRole?: Role | null;
  membersCanCreatePipelines?: boolean | null;
  membersCanCreateSuites?: boolean | null;
  membersCanCreateRegistries?: boolean | null;
  membersCanDestroyRegistries?: boolean | null;
  membersCanDestroyPackages?: boolean | null;
}): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: input.name ?? undefined,
    // An explicit null clears the description, as in a REST body.
    description: input.description,
    privacy: input.privacy ?? undefined,
    is_default_team: input.isDefaultTeam ?? undefined,
    default_member_role: input.defaultMemberRole ?? undefined,
    members_can_create_pipelines: input.membersCanCreatePipelines ?? undefined,
    members_can_create_suites: input.membersCanCreateSuites ?? undefined,
    members_can_create_registries: input.membersCanCreateRegistries ?? undefined,
    members_can_destroy_registries: input.membersCanDestroyRegistries ?? undefined,
    members_can_destroy_packages: input.membersCanDestroyPackages ?? undefined,
  };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

const membersCanDeletePipelines = {
  description: 'Deprecated in the public API; accepted and ignored',
  defaultValue: true,
} as const;

publicMutation('teamCreate', {
  description: 'Create a team.',
  inputFields: (t) => ({
    defaultMemberRole: t.field({ type: TeamMemberRole, required: true }),
    description: t.string(),
    isDefaultTeam: t.boolean({ required: true }),
    membersCanCreatePipelines: t.boolean({ defaultValue: true }),
    membersCanCreateRegistries: t.boolean({ defaultValue: true }),
    membersCanCreateSuites: t.boolean({ defaultValue: true }),
    membersCanDeletePipelines: t.boolean(membersCanDeletePipelines),
    membersCanDestroyPackages: t.boolean({ defaultValue: false }),
    membersCanDestroyRegistries: t.boolean({ defaultValue: false }),
    name: t.string({ required: true }),
    organizationID: t.id({ required: true }),
    privacy: t.field({ type: TeamPrivacy, required: true }),
  }),
  resolve: (input, ctx) =>
    ctx.useCases.byId.createTeam(ctx.actor, uuidOf(input.organizationID, 'Organization'), teamBody(input)),
  payloadFields: (t) => ({
    organization: t.field({
      type: OrganizationRef,
      nullable: false,
      resolve: (payload) => payload.organization,
    }),
    teamEdge: t.field({
      type: TeamEdge,
      nullable: false,
      resolve: (payload) => ({ cursor: cursorFor(payload.position), node: payload.view.team }),
    }),
  }),
});

publicMutation('teamUpdate', {
  description: "Update a team's settings.",
  inputFields: (t) => ({
    defaultMemberRole: t.field({ type: TeamMemberRole, required: true }),
    description: t.string(),
    id: t.id({ required: true }),
    isDefaultTeam: t.boolean({ required: true }),
    membersCanCreatePipelines: t.boolean(),
    membersCanCreateRegistries: t.boolean(),
    membersCanCreateSuites: t.boolean(),
    membersCanDeletePipelines: t.boolean(membersCanDeletePipelines),
    membersCanDestroyPackages: t.boolean(),
    membersCanDestroyRegistries: t.boolean(),
    name: t.string({ required: true }),
    privacy: t.field({ type: TeamPrivacy }),
  }),
  resolve: async (input, ctx) => {
    const view = await ctx.useCases.byId.updateTeam(ctx.actor, uuidOf(input.id, 'Team'), teamBody(input));
    return { team: view.team };
  },
  payloadFields: (t) => ({
    team: t.field({ type: TeamRef, nullable: false, resolve: (payload) => payload.team }),
  }),
});

publicMutation('teamDelete', {
  description: 'Delete a team.',
  inputFields: (t) => ({ id: t.id({ required: true }) }),
  resolve: async (input, ctx) => {
    const { teamId, organization } = await ctx.useCases.byId.deleteTeam(ctx.actor, uuidOf(input.id, 'Team'));
    return { organization, deletedTeamID: encodeGraphqlId('Team', teamId) };
  },
  payloadFields: (t) => ({
    deletedTeamID: t.exposeID('deletedTeamID', { nullable: false }),
    organization: t.field({
      type: OrganizationRef,
      nullable: false,
      resolve: (payload) => payload.organization,
    }),
  }),
});

publicMutation('teamMemberCreate', {
  description: 'Add a user to a team.',
  inputFields: (t) => ({
    role: t.field({ type: TeamMemberRole }),
    teamID: t.id({ required: true }),
    userID: t.id({ required: true }),
  }),
  resolve: (input, ctx) =>
    ctx.useCases.byId.addTeamMember(ctx.actor, {
      teamId: uuidOf(input.teamID, 'Team'),
      // Not a user's id: what the client sent, for the REST body's rules to judge.
      userId: uuidOf(input.userID, 'User') ?? input.userID,
      role: input.role ?? null,
    }),
  payloadFields: (t) => ({
    team: t.field({ type: TeamRef, nullable: true, resolve: (payload) => payload.result.team }),
    teamMemberEdge: t.field({
      type: TeamMemberEdge,
      nullable: true,
      resolve: (payload) => ({ cursor: cursorFor(payload.position), node: payload.result }),
    }),
  }),
});

publicMutation('teamMemberUpdate', {
  description: "Update a user's role in a team.",
  inputFields: (t) => ({
    id: t.id({ required: true }),
    role: t.field({ type: TeamMemberRole, required: true }),
  }),
  resolve: async (input, ctx) => ({
    teamMember: await ctx.useCases.byId.updateTeamMember(
      ctx.actor,
      uuidOf(input.id, 'TeamMember'),
      input.role,
    ),
  }),
  payloadFields: (t) => ({
    teamMember: t.field({ type: TeamMemberRef, nullable: false, resolve: (payload) => payload.teamMember }),
  }),
});

publicMutation('teamMemberDelete', {
  description: 'Remove a user from a team.',
  inputFields: (t) => ({ id: t.id({ required: true }) }),
  resolve: async (input, ctx) => {
    const { memberId, team } = await ctx.useCases.byId.removeTeamMember(
      ctx.actor,
      uuidOf(input.id, 'TeamMember'),
    );
    return { team, deletedTeamMemberID: encodeGraphqlId('TeamMember', memberId) };
  },
  payloadFields: (t) => ({
    deletedTeamMemberID: t.exposeID('deletedTeamMemberID', { nullable: false }),
    team: t.field({ type: TeamRef, nullable: true, resolve: (payload) => payload.team }),
  }),
});
