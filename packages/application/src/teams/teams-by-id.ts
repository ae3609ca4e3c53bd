import { type DomainError, distinctUuids, notFound, type Team, type TeamMember } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireComparable, requireOrganization, requireScope, requireSlugParts } from '../auth/authorize';
import { usableMemberships } from '../auth/usable-memberships';
import { type ListPart, type PartRequest, readParts } from '../page';
import type { Deps, OrganizationAccess } from '../ports';
import { requireTeamIn, teamIdsSeenAsMember } from './team-access';

/**
 * The team use cases for a transport that names teams and memberships by UUID (GraphQL), with REST's
 * rules: `view_teams`, an organization the token may use, and the domain's visibility rule (a secret
 * team exists only for admins and its own members). Anything else answers as what does not exist.
 */

/** A membership with its team, as the actor may see it. */
export interface TeamMemberResult {
  member: TeamMember;
  team: Team;
}

/**
 * The teams among these the actor may see, by id, with the actor's membership of their organization.
 * What the user is in each team is read at once, where they are not an admin.
 */
export async function visibleTeams(
  deps: Deps,
  actor: Actor,
  teams: readonly Team[],
  memberships?: Map<string, OrganizationAccess>,
): Promise<Map<string, { team: Team; membership: OrganizationAccess }>> {
  const usable = memberships ?? (await usableMemberships(deps, actor));
  const inUsable = teams.filter((team) => usable.has(team.organizationId));
  const involved = [...new Set(inUsable.map((team) => team.organizationId))].map(
    (id) => usable.get(id) as OrganizationAccess,
  );
  const seen = await teamIdsSeenAsMember(deps, actor.user.id, involved);
  const visible = new Map<string, { team: Team; membership: OrganizationAccess }>();
  for (const team of inUsable) {
    const membership = usable.get(team.organizationId) as OrganizationAccess;
    if (membership.role === 'admin' || seen.has(team.id)) visible.set(team.id, { team, membership });
  }
  return visible;
}

async function visibleTeamsById(deps: Deps, actor: Actor, ids: readonly string[]) {
  const wanted = distinctUuids(ids);
  return visibleTeams(deps, actor, await deps.repos.lookups.teams(wanted));
}

/** These teams, in the order given, null for the unknown and those the actor may not see. */
export const getTeamsById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<Team | null>> => {
    requireScope(actor, 'getTeam');
    const visible = await visibleTeamsById(deps, actor, ids);
    return ids.map((id) => visible.get(id.toLowerCase())?.team ?? null);
  };

/**
 * A team by slug, `<organization>/<team>`: the organization as REST decides it (`No organization
 * found`), then the team as the REST get decides (`No team found` also for a secret team the actor is
 * not in, and for a slug of another shape).
 */
export const findTeam =
  (deps: Deps) =>
  async (actor: Actor, slug: string): Promise<Team> => {
    const [organizationSlug, teamSlug] = requireSlugParts(actor, 'getTeam', slug, {
      count: 2,
      resource: 'team',
    }) as [string, string];
    const membership = await requireOrganization(deps)(actor, 'getTeam', organizationSlug);
    requireComparable(teamSlug, 'team');
    const team = await deps.repos.teams.findBySlug(membership.organization.id, teamSlug);
    if (!team) throw notFound('team');
    return (await requireTeamIn(deps, actor, membership, team.id, 'read')).team;
  };

/** These memberships, in the order given, null for the unknown and those of teams the actor may not see. */
export const getTeamMembersById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<TeamMemberResult | null>> => {
    requireScope(actor, 'getTeamMember');
    const wanted = distinctUuids(ids);
    const members = await deps.repos.lookups.teamMembers(wanted);
    const teams = await visibleTeamsById(
      deps,
      actor,
      members.map((member) => member.teamId),
    );
    const visible = new Map<string, TeamMemberResult>();
    for (const member of members) {
      const team = teams.get(member.teamId)?.team;
      if (team) visible.set(member.id, { member, team });
    }
    return ids.map((id) => visible.get(id.toLowerCase()) ?? null);
  };

/**
 * The members of several teams at once, oldest membership first (as the REST list): whoever may see a
 * team may see who is in it; a team the actor may not see is refused with `No team found`.
 */
export const listMembersOfTeams =
  (deps: Deps) =>
  async (actor: Actor, requests: readonly PartRequest[]): Promise<Array<ListPart<TeamMemberResult>>> => {
    requireScope(actor, 'listTeamMembers');
    const teams = await visibleTeamsById(
      deps,
      actor,
      requests.map((request) => request.parentId),
    );
    const refusals = new Map<string, DomainError>(
      requests
        .filter(({ parentId }) => !teams.has(parentId))
        .map(({ parentId }) => [parentId, notFound('team')]),
    );
    return readParts({
      requests,
      refusals,
      list: async (windows) =>
        (await deps.repos.teams.listMembersOfTeams(windows)).map((member) => ({
          member,
          team: teams.get(member.teamId)?.team as Team,
        })),
      count: (teamIds) => deps.repos.teams.countMembersOfTeams(teamIds),
      parentOf: (result) => result.member.teamId,
    });
  };
