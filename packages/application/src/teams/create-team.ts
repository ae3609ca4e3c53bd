import { canCreateTeam, forbidden, parseNewTeam, type Team, teamNameTaken } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization } from '../auth/authorize';
import type { Deps, TeamView } from '../ports';

/**
 * Only organization admins create teams (the public API's rule); the creator is recorded as
 * `created_by` and is not made a member. The slug is unique per organization: the database decides,
 * so concurrent creates of one name make one team.
 */
export const createTeam =
  (deps: Deps) =>
  async (actor: Actor, organizationSlug: string, body: unknown): Promise<TeamView> => {
    const { organization, role } = await requireOrganization(deps)(actor, 'createTeam', organizationSlug);
    if (!canCreateTeam(role)) throw forbidden();
    const input = parseNewTeam(body);
    if (!input.ok) throw input.error;
    const team: Team = {
      ...input.value,
      id: deps.newId(),
      organizationId: organization.id,
      createdById: actor.user.id,
      createdAt: deps.clock.now(),
    };
    if ((await deps.repos.teams.insert(team)) === 'slug_taken') throw teamNameTaken();
    return { team, createdBy: actor.user };
  };
