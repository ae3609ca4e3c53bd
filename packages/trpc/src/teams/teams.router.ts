import type { TeamMemberRef, TeamRef } from '@ci/application';
import { z } from 'zod';
import { documented, documentedList } from '../documented';
import { listPage } from '../pagination';
import { organizationSlug, pageParameters } from '../parameters';
import { authed, router } from '../trpc';
import { presentTeam, presentTeamMember, presentTeamMembers, presentTeams } from './team.presenter';
import {
  type CreateTeamMemberRequest,
  type CreateTeamRequest,
  TeamMemberWire,
  TeamWire,
  type UpdateTeamMemberRequest,
  type UpdateTeamRequest,
} from './team.wire';

const TEAMS = '/organizations/{organization}/teams';
const TEAM = `${TEAMS}/{team}`;
const MEMBERS = `${TEAM}/members`;
const MEMBER = `${MEMBERS}/{user}`;

const organization = organizationSlug;
const team = z.string().meta({ description: 'team UUID' });
const user = z.string().meta({ description: 'user UUID' });

const ListTeamsInput = z.object({
  organization,
  user_id: z.string().optional().meta({ description: 'only the teams this user (a UUID) is a member of' }),
  ...pageParameters,
});
const TeamKey = z.object({ organization, team });
const ListTeamMembersInput = z.object({ organization, team, ...pageParameters });
const TeamMemberKey = z.object({ organization, team, user });

/**
 * The create and update bodies are validated by the domain (422 `Validation failed: …`), so the
 * run-time inputs pass them through untouched; their types and OpenAPI components are the requests'.
 */
const CreateTeamInput = z.looseObject({ organization }) as unknown as z.ZodType<
  { organization: string } & CreateTeamRequest
>;
const UpdateTeamInput = z.looseObject({ organization, team }) as unknown as z.ZodType<
  TeamRef & UpdateTeamRequest
>;
const CreateTeamMemberInput = z.looseObject({ organization, team }) as unknown as z.ZodType<
  TeamRef & CreateTeamMemberRequest
>;
const UpdateTeamMemberInput = z.looseObject({ organization, team, user }) as unknown as z.ZodType<
  TeamMemberRef & UpdateTeamMemberRequest
>;

export const teamsRouter = router({
  list: authed
    .meta({
      openapi: { method: 'GET', path: TEAMS, tags: ['Teams'], summary: 'List teams' },
      operation: 'listTeams',
    })
    .input(ListTeamsInput)
    .output(documentedList(TeamWire))
    .query(async ({ ctx, input }) => {
      const filter = { userId: input.user_id || null };
      const { teams } = await listPage(ctx, input, (page) =>
        ctx.useCases.listTeams(ctx.actor, input.organization, filter, page),
      );
      return presentTeams(teams);
    }),

  get: authed
    .meta({
      openapi: { method: 'GET', path: TEAM, tags: ['Teams'], summary: 'Get a team' },
      operation: 'getTeam',
    })
    .input(TeamKey)
    .output(documented(TeamWire))
    .query(async ({ ctx, input }) => presentTeam(await ctx.useCases.getTeam(ctx.actor, input))),

  create: authed
    .meta({
      openapi: { method: 'POST', path: TEAMS, tags: ['Teams'], summary: 'Create a team' },
      operation: 'createTeam',
      successStatus: 201,
      requestBody: 'CreateTeamRequest',
    })
    .input(CreateTeamInput)
    .output(documented(TeamWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, ...body } = input;
      return presentTeam(await ctx.useCases.createTeam(ctx.actor, organization, body));
    }),

  update: authed
    .meta({
      openapi: { method: 'PATCH', path: TEAM, tags: ['Teams'], summary: 'Update a team' },
      operation: 'updateTeam',
      requestBody: 'UpdateTeamRequest',
    })
    .input(UpdateTeamInput)
    .output(documented(TeamWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, team, ...body } = input;
      return presentTeam(await ctx.useCases.updateTeam(ctx.actor, { organization, team }, body));
    }),

  delete: authed
    .meta({
      openapi: { method: 'DELETE', path: TEAM, tags: ['Teams'], summary: 'Delete a team' },
      operation: 'deleteTeam',
      successStatus: 204,
    })
    .input(TeamKey)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.useCases.deleteTeam(ctx.actor, input);
    }),
});

export const teamMembersRouter = router({
  list: authed
    .meta({
      openapi: { method: 'GET', path: MEMBERS, tags: ['Team members'], summary: 'List team members' },
      operation: 'listTeamMembers',
    })
    .input(ListTeamMembersInput)
    .output(documentedList(TeamMemberWire))
    .query(async ({ ctx, input }) => {
      const ref = { organization: input.organization, team: input.team };
      const { members } = await listPage(ctx, input, (page) =>
        ctx.useCases.listTeamMembers(ctx.actor, ref, page),
      );
      return presentTeamMembers(members);
    }),

  get: authed
    .meta({
      openapi: { method: 'GET', path: MEMBER, tags: ['Team members'], summary: 'Get a team member' },
      operation: 'getTeamMember',
    })
    .input(TeamMemberKey)
    .output(documented(TeamMemberWire))
    .query(async ({ ctx, input }) => presentTeamMember(await ctx.useCases.getTeamMember(ctx.actor, input))),

  create: authed
    .meta({
      openapi: {
        method: 'POST',
        path: MEMBERS,
        tags: ['Team members'],
        summary: 'Create a team member',
        description: `Also answers \`POST ${MEMBERS}/\` (the public API's form, with the trailing slash).`,
      },
      operation: 'addTeamMember',
      successStatus: 201,
      requestBody: 'CreateTeamMemberRequest',
    })
    .input(CreateTeamMemberInput)
    .output(documented(TeamMemberWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, team, ...body } = input;
      return presentTeamMember(await ctx.useCases.addTeamMember(ctx.actor, { organization, team }, body));
    }),

  update: authed
    .meta({
      openapi: { method: 'PATCH', path: MEMBER, tags: ['Team members'], summary: 'Update a team member' },
      operation: 'updateTeamMember',
      requestBody: 'UpdateTeamMemberRequest',
    })
    .input(UpdateTeamMemberInput)
    .output(documented(TeamMemberWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, team, user, ...body } = input;
      const view = await ctx.useCases.updateTeamMember(ctx.actor, { organization, team, user }, body);
      return presentTeamMember(view);
    }),

  delete: authed
    .meta({
      openapi: { method: 'DELETE', path: MEMBER, tags: ['Team members'], summary: 'Delete a team member' },
      operation: 'removeTeamMember',
      successStatus: 204,
    })
    .input(TeamMemberKey)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.useCases.removeTeamMember(ctx.actor, input);
    }),
});
