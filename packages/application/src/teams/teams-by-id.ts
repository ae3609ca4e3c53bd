import {
  type DomainError,
  distinctUuids,
  isDomainError,
  isUuid,
  notFound,
  type Organization,
  type Team,
  type TeamMember,
  type TeamMemberRole,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireComparable, requireOrganization, requireScope, requireSlugParts } from '../auth/authorize';
import { usableById, usableMemberships } from '../auth/usable-memberships';
import { type ListPart, type PartRequest, readParts } from '../page';
import type { Deps, OrganizationAccess, TeamView } from '../ports';
import { addTeamMember } from './add-team-member';
import { createTeam } from './create-team';
import { deleteTeam } from './delete-team';
import { listTeams } from './list-teams';
import { removeTeamMember } from './remove-team-member';
import { requireTeamIn, teamIdsSeenAsMember } from './team-access';
import { updateTeam } from './update-team';
import { updateTeamMember } from './update-team-member';

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

/** The REST address of a team the actor's organizations hold; any other answers `No team found`. */
async function addressTeam(deps: Deps, actor: Actor, teamId: string | null) {
  const { found: team, membership } = await usableById(deps, actor, {
    id: teamId,
    read: (id) => deps.repos.lookups.teams([id]),
    organizationOf: (found) => found.organizationId,
    resource: 'team',
  });
  return { ref: { organization: membership.organization.slug, team: team.id }, membership };
}

/** The REST address of a membership the actor's organizations hold; any other answers `No team member found`. */
async function addressTeamMember(deps: Deps, actor: Actor, memberId: string | null) {
  const [member] =
    memberId && isUuid(memberId) ? await deps.repos.lookups.teamMembers([memberId.toLowerCase()]) : [];
  if (!member) throw notFound('team_member');
  const { ref } = await addressTeam(deps, actor, member.teamId).catch((error: unknown) => {
    throw isDomainError(error) && error.code === 'team_not_found' ? notFound('team_member') : error;
  });
  return { ...ref, user: member.userId, member };
}

/** The team a membership's change answers with: as the actor may see it. */
async function teamOf(deps: Deps, actor: Actor, teamId: string): Promise<Team> {
  const [team] = await getTeamsById(deps)(actor, [teamId]);
  if (!team) throw notFound('team');
  return team;
}

/**
 * Creates a team in the organization with this UUID from a REST create body (`createTeam`'s rules:
 * `write_teams`, admins only). Answers the team and its place in the organization's list (oldest first).
 */
export const createTeamInOrganizationId =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationId: string | null,
    body: unknown,
  ): Promise<{ view: TeamView; organization: Organization; position: number }> => {
    requireScope(actor, 'createTeam');
    const memberships = await usableMemberships(deps, actor);
    const membership = organizationId ? memberships.get(organizationId.toLowerCase()) : undefined;
    if (!membership) throw notFound('organization');
    const view = await createTeam(deps)(actor, membership.organization.slug, body);
    const { totalCount } = await listTeams(deps)(
      actor,
      membership.organization.slug,
      { userId: null },
      { offset: 0, limit: 0 },
    );
    return { view, organization: membership.organization, position: Math.max(totalCount - 1, 0) };
  };

/** Changes the team with this UUID from a REST update body (`updateTeam`'s rules). */
export const updateTeamById =
  (deps: Deps) =>
  async (actor: Actor, teamId: string | null, body: unknown): Promise<TeamView> => {
    requireScope(actor, 'updateTeam');
    const { ref } = await addressTeam(deps, actor, teamId);
    return updateTeam(deps)(actor, ref, body);
  };

/** Deletes the team with this UUID (`deleteTeam`'s rules); answers its organization. */
export const deleteTeamById =
  (deps: Deps) =>
  async (actor: Actor, teamId: string | null): Promise<{ teamId: string; organization: Organization }> => {
    requireScope(actor, 'deleteTeam');
    const { ref, membership } = await addressTeam(deps, actor, teamId);
    await deleteTeam(deps)(actor, ref);
    return { teamId: ref.team, organization: membership.organization };
  };

/**
 * Adds a user (by UUID) to the team with this UUID (`addTeamMember`'s rules); `role` null: the team's
 * default member role. Answers the membership with its team and its place in the team's list.
 */
export const addTeamMemberByIds =
  (deps: Deps) =>
  async (
    actor: Actor,
    input: { teamId: string | null; userId: string | null; role: TeamMemberRole | null },
  ): Promise<{ result: TeamMemberResult; position: number }> => {
    requireScope(actor, 'addTeamMember');
    const { ref } = await addressTeam(deps, actor, input.teamId);
    const view = await addTeamMember(deps)(actor, ref, { user_id: input.userId ?? '', role: input.role });
    // The new membership is the last of the team's list (oldest first).
    const totalCount = await deps.repos.teams.countMembers(ref.team);
    const team = await teamOf(deps, actor, ref.team);
    return { result: { member: view.member, team }, position: Math.max(totalCount - 1, 0) };
  };

/** Changes the role of the membership with this UUID (`updateTeamMember`'s rules). */
export const updateTeamMemberById =
  (deps: Deps) =>
  async (actor: Actor, memberId: string | null, role: TeamMemberRole): Promise<TeamMemberResult> => {
    requireScope(actor, 'updateTeamMember');
    const ref = await addressTeamMember(deps, actor, memberId);
    const view = await updateTeamMember(deps)(actor, ref, { role });
    return { member: view.member, team: await teamOf(deps, actor, ref.team) };
  };

/** Removes the membership with this UUID (`removeTeamMember`'s rules); answers its team. */
export const removeTeamMemberById =
  (deps: Deps) =>
  async (actor: Actor, memberId: string | null): Promise<{ memberId: string; team: Team }> => {
    requireScope(actor, 'removeTeamMember');
    const ref = await addressTeamMember(deps, actor, memberId);
    await removeTeamMember(deps)(actor, ref);
    return { memberId: ref.member.id, team: await teamOf(deps, actor, ref.team) };
  };
