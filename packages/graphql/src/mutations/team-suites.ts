import { encodeGraphqlId } from '@ci/domain';
import { cursorFor } from '../connection';
import { uuidOf } from '../global-id';
import { TeamRef } from '../types/refs';
import { SuiteAccessLevels, SuiteRef, TeamSuiteEdgeRef, TeamSuiteRef } from '../types/suite';
import { publicMutation } from './client-mutation-id';

/** A team's access to a test suite: given, changed and taken away by organization admins (`write_suites`). */

publicMutation('teamSuiteCreate', {
  description: 'Give a team access to a test suite.',
  inputFields: (t) => ({
    teamID: t.id({ required: true }),
    suiteID: t.id({ required: true }),
    accessLevel: t.field({ type: SuiteAccessLevels, defaultValue: 'read_only' }),
  }),
  resolve: async (input, ctx) => ({
    created: await ctx.useCases.byId.createTeamSuite(ctx.actor, {
      teamId: uuidOf(input.teamID, 'Team'),
      suiteId: uuidOf(input.suiteID, 'Suite'),
      accessLevel: input.accessLevel,
    }),
  }),
  payloadFields: (t) => ({
    teamSuite: t.field({ type: TeamSuiteRef, nullable: true, resolve: ({ created }) => created }),
    teamSuiteEdge: t.field({
      type: TeamSuiteEdgeRef,
      nullable: true,
      resolve: ({ created }) => ({ cursor: cursorFor(0), node: created }),
    }),
    suite: t.field({
      type: SuiteRef,
      nullable: true,
      resolve: ({ created }) => ({ suite: created.suite, organization: created.organization }),
    }),
    team: t.field({ type: TeamRef, nullable: true, resolve: ({ created }) => created.team }),
  }),
});

publicMutation('teamSuiteUpdate', {
  description: "Change a team's access level to a test suite.",
  inputFields: (t) => ({
    id: t.id({ required: true }),
    accessLevel: t.field({ type: SuiteAccessLevels, required: true }),
  }),
  resolve: async (input, ctx) => ({
    teamSuite: await ctx.useCases.byId.updateTeamSuite(ctx.actor, {
      id: uuidOf(input.id, 'TeamSuite'),
      accessLevel: input.accessLevel,
    }),
  }),
  payloadFields: (t) => ({
    teamSuite: t.field({ type: TeamSuiteRef, nullable: false, resolve: (payload) => payload.teamSuite }),
  }),
});

publicMutation('teamSuiteDelete', {
  description: "Take away a team's access to a test suite.",
  inputFields: (t) => ({
    id: t.id({ required: true }),
    force: t.boolean({ description: 'Accepted; nothing depends on a team suite here' }),
  }),
  resolve: async (input, ctx) => {
    const { teamSuite } = await ctx.useCases.byId.deleteTeamSuite(ctx.actor, uuidOf(input.id, 'TeamSuite'));
    return { deletedTeamSuiteID: encodeGraphqlId('TeamSuite', teamSuite.id), teamId: teamSuite.teamId };
  },
  payloadFields: (t) => ({
    deletedTeamSuiteID: t.exposeID('deletedTeamSuiteID', { nullable: false }),
    team: t.field({
      type: TeamRef,
      nullable: true,
      resolve: (payload, _args, ctx) => ctx.loaders.teams.load(payload.teamId),
    }),
  }),
});
