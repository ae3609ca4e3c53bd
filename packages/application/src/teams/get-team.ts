import type { Actor } from '../auth/actor';
import type { Deps, TeamView } from '../ports';
import { requireTeam, type TeamRef } from './team-access';

export const getTeam =
  (deps: Deps) =>
  async (actor: Actor, ref: TeamRef): Promise<TeamView> => {
    const { team, createdBy } = await requireTeam(deps)(actor, 'getTeam', ref, 'read');
    return { team, createdBy };
  };
