import { notFound } from '@ci/domain';
import type { Actor } from '../auth/actor';
import type { Deps, TeamMemberView } from '../ports';
import { requireTeam, type TeamMemberRef, userKey } from './team-access';

export const getTeamMember =
  (deps: Deps) =>
  async (actor: Actor, ref: TeamMemberRef): Promise<TeamMemberView> => {
    const { team } = await requireTeam(deps)(actor, 'getTeamMember', ref, 'read');
    const view = await deps.repos.teams.findMember({ teamId: team.id, userId: userKey(ref.user) });
    if (!view) throw notFound('user');
    return view;
  };
