import { badRequest, isUuid, parseListFilterText } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization } from '../auth/authorize';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { Deps, TeamView } from '../ports';
import { teamIdsSeenAsMember } from './team-access';

export interface TeamPage {
  teams: TeamView[];
  /** every team the list covers, on all pages */
  totalCount: number;
}

/** The list's filters: `user_id`, teams that user is in; `search` (GraphQL), a part of the name; null: every team. */
export interface TeamListFilter {
  userId: string | null;
  search?: string | null | undefined;
}

/**
 * An organization's teams, oldest first, so pages stay put while teams are renamed. Secret teams are
 * left out for members who are not in them, from the page, the count and the `Link` alike.
 */
export const listTeams =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationSlug: string,
    filter: TeamListFilter,
    page: Page | RowWindow,
  ): Promise<TeamPage> => {
    const membership = await requireOrganization(deps)(actor, 'listTeams', organizationSlug);
    if (filter.userId !== null && !isUuid(filter.userId)) {
      throw badRequest('invalid_parameter', 'user_id must be a user UUID');
    }
    const search = parseListFilterText('search', filter.search);
    if (!search.ok) throw search.error;
    const scope = {
      organizationId: membership.organization.id,
      // Every team for an admin (null); for a member, those the domain's visibility rule lets them see.
      visibleTeamIds:
        membership.role === 'admin'
          ? null
          : [...(await teamIdsSeenAsMember(deps, actor.user.id, [membership]))],
      memberUserId: filter.userId?.toLowerCase() ?? null,
      search: search.value,
    };
    const [teams, totalCount] = await Promise.all([
      deps.repos.teams.list({ ...scope, ...pageWindow(page) }),
      deps.repos.teams.count(scope),
    ]);
    return { teams, totalCount };
  };
