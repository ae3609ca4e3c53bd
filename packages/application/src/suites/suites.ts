import {
  distinctUuids,
  forbidden,
  isSuiteAccessLevel,
  isUuid,
  notFound,
  type Organization,
  parseSuiteName,
  type Suite,
  type SuiteAccessLevel,
  type Team,
  type TeamSuite,
  teamSuiteTaken,
  unprocessable,
} from '@ci/domain';
import { findOrganization } from '../admin/organizations';
import type { Actor } from '../auth/actor';
import { requireOrganization, requireScope } from '../auth/authorize';
import { usableMemberships } from '../auth/usable-memberships';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { Deps, OrganizationAccess } from '../ports';
import type { TeamSuiteOrder } from './suite-ports';

/**
 * Test suites and the teams that may use them. Every member of the organization reads them
 * (`read_suites`); its admins give, change and take away a team's access (`write_suites`). Suites are made
 * by the operator (`createSuite`); their test runs are not kept here.
 */

export interface SuiteView {
  suite: Suite;
  organization: Organization;
}

export interface TeamSuiteView {
  teamSuite: TeamSuite;
  organization: Organization;
  /** whether the actor may change or remove it (an admin of its organization) */
  mayChange: boolean;
}

/** The operator's command: a suite in the organization with this slug. */
export const createSuite =
  (deps: Deps) =>
  async (input: { organization: string; name: string; defaultBranch?: string | null }): Promise<Suite> => {
    const organization = await findOrganization(deps)(input.organization);
    const named = parseSuiteName(input.name);
    if (!named.ok) throw named.error;
    const suite: Suite = {
      id: deps.newId(),
      organizationId: organization.id,
      ...named.value,
      defaultBranch: input.defaultBranch ?? null,
      applicationName: null,
      emoji: null,
      color: null,
      createdAt: deps.clock.now(),
    };
    if ((await deps.repos.suites.insert(suite)) === 'slug_taken') {
      throw unprocessable('suite_taken', 'Name has already been taken');
    }
    return suite;
  };

/** Objects of the actor's organizations among these, with their organization, by id. */
async function visible<T extends { id: string }>(
  deps: Deps,
  actor: Actor,
  found: readonly T[],
  organizationOf: (item: T) => string | undefined,
): Promise<Map<string, { item: T; membership: OrganizationAccess }>> {
  const memberships = await usableMemberships(deps, actor);
  const seen = new Map<string, { item: T; membership: OrganizationAccess }>();
  for (const item of found) {
    const organizationId = organizationOf(item);
    const membership = organizationId ? memberships.get(organizationId) : undefined;
    if (membership) seen.set(item.id, { item, membership });
  }
  return seen;
}

export const getSuitesById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<SuiteView | null>> => {
    requireScope(actor, 'getSuite');
    const suites = await deps.repos.suites.byIds(distinctUuids(ids));
    const seen = await visible(deps, actor, suites, (suite) => suite.organizationId);
    return ids.map((id) => {
      const found = seen.get(id.toLowerCase());
      return found ? { suite: found.item, organization: found.membership.organization } : null;
    });
  };

/** Team suites with their team's organization (a team and its suites are always of one organization). */
async function teamSuitesSeen(deps: Deps, actor: Actor, teamSuites: readonly TeamSuite[]) {
  const teams = await deps.repos.lookups.teams([...new Set(teamSuites.map((teamSuite) => teamSuite.teamId))]);
  const organizationOfTeam = new Map(teams.map((team) => [team.id, team.organizationId]));
  return visible(deps, actor, teamSuites, (teamSuite) => organizationOfTeam.get(teamSuite.teamId));
}

export const getTeamSuitesById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<TeamSuiteView | null>> => {
    requireScope(actor, 'getSuite');
    const seen = await teamSuitesSeen(
      deps,
      actor,
      await deps.repos.suites.teamSuitesByIds(distinctUuids(ids)),
    );
    return ids.map((id) => {
      const found = seen.get(id.toLowerCase());
      return found
        ? {
            teamSuite: found.item,
            organization: found.membership.organization,
            mayChange: found.membership.role === 'admin',
          }
        : null;
    });
  };

function accessLevel(value: string | null | undefined): SuiteAccessLevel {
  const level = value ?? 'read_only';
  if (!isSuiteAccessLevel(level)) throw unprocessable('invalid_access_level', 'Access level is not valid');
  return level;
}

function requireAdmin(membership: OrganizationAccess): void {
  if (membership.role !== 'admin') throw forbidden();
}

/** Gives the team access to the suite: both of one organization the actor administers. */
export const createTeamSuite =
  (deps: Deps) =>
  async (
    actor: Actor,
    input: { teamId: string | null; suiteId: string | null; accessLevel?: string | null },
  ): Promise<TeamSuiteView & { team: Team; suite: Suite }> => {
    requireScope(actor, 'writeSuite');
    const [teams, suites, memberships] = await Promise.all([
      input.teamId && isUuid(input.teamId) ? deps.repos.lookups.teams([input.teamId.toLowerCase()]) : [],
      input.suiteId && isUuid(input.suiteId) ? deps.repos.suites.byIds([input.suiteId.toLowerCase()]) : [],
      usableMemberships(deps, actor),
    ]);
    const [team] = teams;
    const [suite] = suites;
    const membership = team ? memberships.get(team.organizationId) : undefined;
    if (!team || !membership) throw notFound('team');
    if (!suite || suite.organizationId !== team.organizationId) throw notFound('suite');
    requireAdmin(membership);
    const teamSuite: TeamSuite = {
      id: deps.newId(),
      teamId: team.id,
      suiteId: suite.id,
      accessLevel: accessLevel(input.accessLevel),
      creatorId: actor.user.id,
      createdAt: deps.clock.now(),
    };
    if ((await deps.repos.suites.insertTeamSuite(teamSuite)) === 'taken') throw teamSuiteTaken();
    return { teamSuite, organization: membership.organization, mayChange: true, team, suite };
  };

async function administeredTeamSuite(deps: Deps, actor: Actor, id: string | null) {
  requireScope(actor, 'writeSuite');
  const [teamSuite] = id && isUuid(id) ? await deps.repos.suites.teamSuitesByIds([id.toLowerCase()]) : [];
  const seen = teamSuite ? (await teamSuitesSeen(deps, actor, [teamSuite])).get(teamSuite.id) : undefined;
  if (!teamSuite || !seen) throw notFound('team_suite');
  requireAdmin(seen.membership);
  return { teamSuite, membership: seen.membership };
}

export const updateTeamSuite =
  (deps: Deps) =>
  async (actor: Actor, input: { id: string | null; accessLevel: string }): Promise<TeamSuiteView> => {
    const { teamSuite, membership } = await administeredTeamSuite(deps, actor, input.id);
    const updated = await deps.repos.suites.updateTeamSuite(teamSuite.id, accessLevel(input.accessLevel));
    if (!updated) throw notFound('team_suite');
    return { teamSuite: updated, organization: membership.organization, mayChange: true };
  };

export const deleteTeamSuite =
  (deps: Deps) =>
  async (actor: Actor, id: string | null): Promise<{ teamSuite: TeamSuite }> => {
    const { teamSuite } = await administeredTeamSuite(deps, actor, id);
    if (!(await deps.repos.suites.deleteTeamSuite(teamSuite.id))) throw notFound('team_suite');
    return { teamSuite };
  };

export const listSuites =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationSlug: string,
    page: Page | RowWindow,
  ): Promise<{ items: SuiteView[]; totalCount: number }> => {
    const { organization } = await requireOrganization(deps)(actor, 'getSuite', organizationSlug);
    const [suites, totalCount] = await Promise.all([
      deps.repos.suites.list({ organizationId: organization.id, ...pageWindow(page) }),
      deps.repos.suites.count(organization.id),
    ]);
    return { items: suites.map((suite) => ({ suite, organization })), totalCount };
  };

/** The team suites of a suite or a team the actor sees (its organization's), newest first. */
export const listTeamSuites =
  (deps: Deps) =>
  async (
    actor: Actor,
    parent: { of: 'suite' | 'team'; id: string; organizationId: string },
    page: Page | RowWindow,
    order: TeamSuiteOrder = 'newest',
  ): Promise<{ items: TeamSuiteView[]; totalCount: number }> => {
    requireScope(actor, 'getSuite');
    const membership = (await usableMemberships(deps, actor)).get(parent.organizationId);
    if (!membership) throw notFound(parent.of);
    const [teamSuites, totalCount] = await Promise.all([
      deps.repos.suites.listTeamSuites({ of: parent.of, id: parent.id, order, ...pageWindow(page) }),
      deps.repos.suites.countTeamSuites({ of: parent.of, id: parent.id }),
    ]);
    const mayChange = membership.role === 'admin';
    return {
      items: teamSuites.map((teamSuite) => ({ teamSuite, organization: membership.organization, mayChange })),
      totalCount,
    };
  };
