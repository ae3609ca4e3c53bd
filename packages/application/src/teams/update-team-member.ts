import { notFound, parseTeamMemberChange } from '@ci/domain';
import type { Actor } from '../auth/actor';
import type { Deps, TeamMemberView } from '../ports';
import { requireTeam, type TeamMemberRef, userKey } from './team-access';

/** Changes a member's role; a user who is not in the team answers 404 before the body is looked at. */
export const updateTeamMember =
  (deps: Deps) =>
  async (actor: Actor, ref: TeamMemberRef, body: unknown): Promise<TeamMemberView> => {
    const { team } = await requireTeam(deps)(actor, 'updateTeamMember', ref, 'manage');
    const key = { teamId: team.id, userId: userKey(ref.user) };
    if (!(await deps.repos.teams.findMember(key))) throw notFound('user');
    const change = parseTeamMemberChange(body);
    if (!change.ok) throw change.error;
    const updated = await deps.repos.teams.updateMember({ ...key, role: change.value.role });
    if (!updated) throw notFound('user');
    return updated;
  };
