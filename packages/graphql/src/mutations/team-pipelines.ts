import { encodeGraphqlId } from '@ci/domain';
import { cursorFor } from '../connection';
import { uuidOf } from '../global-id';
import { PipelineRef, TeamPipelineRef, TeamRef } from '../types/refs';
import { PipelineAccessLevels, pipelineOfAssociation, TeamPipelineEdge } from '../types/team';
import { publicMutation } from './client-mutation-id';

publicMutation('teamPipelineCreate', {
  description: 'Add a pipeline to a team.',
  inputFields: (t) => ({
    accessLevel: t.field({ type: PipelineAccessLevels, defaultValue: 'read_only' }),
    pipelineID: t.id({ required: true }),
    teamID: t.id({ required: true }),
  }),
  resolve: async (input, ctx) => {
    const teamPipeline = await ctx.useCases.byId.createTeamPipeline(ctx.actor, {
      teamId: uuidOf(input.teamID, 'Team'),
      // Not a pipeline's id: what the client sent, for the REST body's rules to judge.
      pipelineId: uuidOf(input.pipelineID, 'Pipeline') ?? input.pipelineID,
      accessLevel: input.accessLevel ?? 'read_only',
    });
    // The new association is the last of the team's list (oldest first): its cursor is its position.
    const { totalCount } = await ctx.useCases.listTeamPipelines(
      ctx.actor,
      { organization: teamPipeline.organizationSlug, team: teamPipeline.team.id },
      { offset: 0, limit: 0 },
    );
    return { teamPipeline, cursor: cursorFor(Math.max(totalCount - 1, 0)) };
  },
  payloadFields: (t) => ({
    teamPipeline: t.field({
      type: TeamPipelineRef,
      nullable: true,
      resolve: (payload) => payload.teamPipeline,
    }),
    teamPipelineEdge: t.field({
      type: TeamPipelineEdge,
      nullable: true,
      resolve: (payload) => ({ cursor: payload.cursor, node: payload.teamPipeline }),
    }),
    team: t.field({ type: TeamRef, nullable: true, resolve: (payload) => payload.teamPipeline.team }),
    pipeline: t.field({
      type: PipelineRef,
      nullable: true,
      resolve: (payload) => pipelineOfAssociation(payload.teamPipeline),
    }),
  }),
});

publicMutation('teamPipelineUpdate', {
  description: "Update a pipeline's access level within a team.",
  inputFields: (t) => ({
    accessLevel: t.field({ type: PipelineAccessLevels, required: true }),
    id: t.id({ required: true }),
  }),
  resolve: async (input, ctx) => ({
    teamPipeline: await ctx.useCases.byId.updateTeamPipeline(
      ctx.actor,
      uuidOf(input.id, 'TeamPipeline'),
      input.accessLevel,
    ),
  }),
  payloadFields: (t) => ({
    teamPipeline: t.field({
      type: TeamPipelineRef,
      nullable: false,
      resolve: (payload) => payload.teamPipeline,
    }),
  }),
});

publicMutation('teamPipelineDelete', {
  description: 'Remove a pipeline from a team.',
  inputFields: (t) => ({
    force: t.boolean({
      description: "Remove the pipeline's last team too (it is then open to every member)",
    }),
    id: t.id({ required: true }),
  }),
  resolve: async (input, ctx) => {
    const teamPipelineId = uuidOf(input.id, 'TeamPipeline');
    const { team } = await ctx.useCases.byId.deleteTeamPipeline(ctx.actor, teamPipelineId, {
      force: input.force === true,
    });
    return {
      team,
      // The id as the client knows it: canonical, so that caches find the object they hold.
      deletedTeamPipelineID: encodeGraphqlId('TeamPipeline', teamPipelineId as string),
    };
  },
  payloadFields: (t) => ({
    deletedTeamPipelineID: t.exposeID('deletedTeamPipelineID', { nullable: false }),
    team: t.field({ type: TeamRef, nullable: true, resolve: (payload) => payload.team }),
  }),
});
