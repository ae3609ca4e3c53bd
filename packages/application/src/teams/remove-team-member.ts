import { notFound } from '@ci/domain';
import type { Actor } from '../auth/actor';
import type { Deps } from '../ports';
import { requireTeam, type TeamMemberRef, userKey } from './team-access';

/** Takes a user out of the team (not out of the organization); their access through it ends at once. */
export const removeTeamMember =
  (deps: Deps) =>
  async (actor: Actor, ref: TeamMemberRef): Promise<void> => {
    const { team } = await requireTeam(deps)(actor, 'removeTeamMember', ref, 'manage');
    if (!(await deps.repos.teams.deleteMember({ teamId: team.id, userId: userKey(ref.user) }))) {
      throw notFound('user');
    }
  };
