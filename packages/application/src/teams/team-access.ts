import {
  canManageTeam,
  canSeeTeam,
  forbidden,
  isUuid,
  notFound,
  type Operation,
  type TeamViewer,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization } from '../auth/authorize';
import type { Deps, OrganizationAccess, TeamView } from '../ports';

/** A team addressed as the REST paths do: organization slug and team UUID. */
export interface TeamRef {
  organization: string;
  team: string;
}

/** One membership: the team's and the user's UUIDs. */
export interface TeamMemberRef extends TeamRef {
  user: string;
}

/** A team the actor may see (and, for `manage`, change), with who the actor is to it. */
export interface AuthorizedTeam extends OrganizationAccess, TeamView {
  viewer: TeamViewer;
}

/**
 * Scope (403), organization (404 `No organization found`), the team (404 `No team found`: also for
 * anything that is not a UUID, a team of another organization, and a secret team the actor is not in),
 * then for changes the domain's rule (403 `Forbidden`: only admins and the team's maintainers).
 */
export const requireTeam =
  (deps: Deps) =>
  async (
    actor: Actor,
    operation: Operation,
    ref: TeamRef,
    intent: 'read' | 'manage',
  ): Promise<AuthorizedTeam> => {
    const membership = await requireOrganization(deps)(actor, operation, ref.organization);
    return requireTeamIn(deps, actor, membership, ref.team, intent);
  };

/** `requireTeam` past the organization: the team with this id in an organization the actor may use. */
export async function requireTeamIn(
  deps: Deps,
  actor: Actor,
  membership: OrganizationAccess,
  teamId: string,
  intent: 'read' | 'manage',
): Promise<AuthorizedTeam> {
  const found = isUuid(teamId)
    ? await deps.repos.teams.findForViewer({
        organizationId: membership.organization.id,
        teamId: teamId.toLowerCase(),
        userId: actor.user.id,
      })
    : null;
  const viewer: TeamViewer = { role: membership.role, teamRole: found?.viewerRole ?? null };
  if (!found || !canSeeTeam(found.view.team.privacy, viewer)) throw notFound('team');
  if (intent === 'manage' && !canManageTeam(viewer)) throw forbidden();
  return { ...membership, ...found.view, viewer };
}

/**
 * The teams a member sees in these organizations (the domain's `canSeeTeam` over what the user is in
 * each team), in one read. Organizations where the actor is an admin are not read: an admin sees every
 * team.
 */
export async function teamIdsSeenAsMember(
  deps: Deps,
  userId: string,
  memberships: readonly OrganizationAccess[],
): Promise<Set<string>> {
  const asMember = memberships.filter((membership) => membership.role !== 'admin');
  if (asMember.length === 0) return new Set();
  const facts = await deps.repos.teams.viewerFacts({
    organizationIds: asMember.map((membership) => membership.organization.id),
    userId,
  });
  return new Set(
    facts
      .filter((fact) => canSeeTeam(fact.privacy, { role: 'member', teamRole: fact.viewerRole }))
      .map((fact) => fact.teamId),
  );
}

/** A user UUID in a path, lowercase; anything else answers like a user who is not in the team. */
export function userKey(user: string): string {
  if (!isUuid(user)) throw notFound('user');
  return user.toLowerCase();
}
