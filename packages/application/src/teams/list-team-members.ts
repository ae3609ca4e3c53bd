import type { Actor } from '../auth/actor';
import { type Page, pageWindow } from '../page';
import type { Deps, TeamMemberView } from '../ports';
import { requireTeam, type TeamRef } from './team-access';

export interface TeamMemberPage {
  members: TeamMemberView[];
  /** every member of the team, on all pages */
  totalCount: number;
}

/** A team's members, oldest membership first; whoever may see the team may see who is in it. */
export const listTeamMembers =
  (deps: Deps) =>
  async (actor: Actor, ref: TeamRef, page: Page): Promise<TeamMemberPage> => {
    const { team } = await requireTeam(deps)(actor, 'listTeamMembers', ref, 'read');
    const [members, totalCount] = await Promise.all([
      deps.repos.teams.listMembers({ teamId: team.id, ...pageWindow(page) }),
      deps.repos.teams.countMembers(team.id),
    ]);
    return { members, totalCount };
  };
