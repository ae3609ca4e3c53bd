import { notFound, parseTeamChanges, teamNameTaken } from '@ci/domain';
import type { Actor } from '../auth/actor';
import type { Deps, TeamView } from '../ports';
import { requireTeam, type TeamRef } from './team-access';

/**
 * Admins and the team's maintainers change its name (and with it the slug), description, privacy and
 * defaults; only the fields the body names change, and a body without any changes nothing.
 */
export const updateTeam =
  (deps: Deps) =>
  async (actor: Actor, ref: TeamRef, body: unknown): Promise<TeamView> => {
    const target = await requireTeam(deps)(actor, 'updateTeam', ref, 'manage');
    const changes = parseTeamChanges(body);
    if (!changes.ok) throw changes.error;
    if (Object.keys(changes.value).length === 0) return { team: target.team, createdBy: target.createdBy };
    const updated = await deps.repos.teams.update({ id: target.team.id, changes: changes.value });
    if (updated === 'slug_taken') throw teamNameTaken();
    // Deleted between the read and the write.
    if (updated === 'not_found') throw notFound('team');
    return updated;
  };
