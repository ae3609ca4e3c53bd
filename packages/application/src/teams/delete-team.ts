import { notFound, teamLastTeamOfPipelines } from '@ci/domain';
import type { Actor } from '../auth/actor';
import type { Deps } from '../ports';
import { requireTeam, type TeamRef } from './team-access';

/**
 * Deletes a team with its memberships and pipeline associations, at once for every member; refused
 * (422) while it is the only team of a pipeline, which must keep at least one.
 */
export const deleteTeam =
  (deps: Deps) =>
  async (actor: Actor, ref: TeamRef): Promise<void> => {
    const target = await requireTeam(deps)(actor, 'deleteTeam', ref, 'manage');
    const outcome = await deps.repos.teams.deleteUnlessLastTeam(target.team.id);
    if (outcome === 'not_found') throw notFound('team');
    if (outcome !== 'deleted') throw teamLastTeamOfPipelines(outcome.lastTeamOf);
  };
