import type { TeamMemberResult } from '@ci/application';
import { builder } from '../builder';
import { TeamRef } from './refs';
import { ConnectionInterface } from './scalars';
import { TeamMemberRole } from './team';
import { UserRef } from './user';

export const TeamMemberRef = builder.objectRef<TeamMemberResult>('TeamMember');

builder.node(TeamMemberRef, {
  description: 'An member of a team',
  id: { resolve: ({ member }) => member.id },
  fields: (t) => ({
    uuid: t.id({ nullable: false, resolve: ({ member }) => member.id }),
    role: t.field({ type: TeamMemberRole, nullable: false, resolve: ({ member }) => member.role }),
    createdAt: t.field({ type: 'DateTime', nullable: false, resolve: ({ member }) => member.createdAt }),
    team: t.field({ type: TeamRef, nullable: true, resolve: ({ team }) => team }),
    user: t.field({
      type: UserRef,
      nullable: true,
      resolve: ({ member }, _args, ctx) => ctx.loaders.people.load(member.userId),
    }),
  }),
});

export const TeamMemberEdge = builder.edgeObject({ type: TeamMemberRef, name: 'TeamMemberEdge' });

const TeamMemberConnection = builder.connectionObject(
  { type: TeamMemberRef, name: 'TeamMemberConnection', interfaces: [ConnectionInterface] },
  TeamMemberEdge,
);

builder.objectField(TeamRef, 'members', (t) =>
  t.connection(
    {
      type: TeamMemberRef,
      description:
        "The team's members, oldest membership first (as the REST list), read for a page of teams at once",
      resolve: (team, args, ctx, info) =>
        ctx.loaders
          .connection({
            field: 'Team.members',
            args,
            info,
            idOf: (id: string) => id,
            read: (requests) => ctx.useCases.byId.membersOfTeams(ctx.actor, requests),
          })
          .load(team.id),
    },
    TeamMemberConnection,
  ),
);
