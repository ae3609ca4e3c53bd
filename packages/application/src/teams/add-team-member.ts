import { notFound, parseNewTeamMember, teamMemberNotInOrganization, teamMemberTaken } from '@ci/domain';
import type { Actor } from '../auth/actor';
import type { Deps, TeamMemberView } from '../ports';
import { requireTeam, type TeamRef } from './team-access';

/**
 * Adds a member of the organization to the team, with the body's role or the team's default member
 * role. Users outside the organization (or unknown) and users already in the team answer 422; the
 * database decides both in the insert, so concurrent adds of one user make one membership.
 */
export const addTeamMember =
  (deps: Deps) =>
  async (actor: Actor, ref: TeamRef, body: unknown): Promise<TeamMemberView> => {
    const target = await requireTeam(deps)(actor, 'addTeamMember', ref, 'manage');
    const request = parseNewTeamMember(body);
    if (!request.ok) throw request.error;
    const outcome = await deps.repos.teams.insertMember({
      organizationId: target.organization.id,
      member: {
        id: deps.newId(),
        teamId: target.team.id,
        userId: request.value.userId,
        role: request.value.role ?? target.team.defaultMemberRole,
        createdAt: deps.clock.now(),
      },
    });
    if (outcome === 'not_in_organization') throw teamMemberNotInOrganization();
    if (outcome === 'taken') throw teamMemberTaken();
    if (outcome === 'team_not_found') throw notFound('team');
    return outcome;
  };
