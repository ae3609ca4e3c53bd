import type { Suite, SuiteAccessLevel, TeamSuite } from '@ci/domain';

/** How a list of team suites is ordered: newest first, or by the other side's name (then newest). */
export type TeamSuiteOrder = 'newest' | 'name';

export interface SuiteRepository {
  /** 'slug_taken' when the organization has a suite of this slug. */
  insert(suite: Suite): Promise<'inserted' | 'slug_taken'>;
  byIds(ids: readonly string[]): Promise<Suite[]>;
  /** A page of the organization's suites, newest first. */
  list(input: { organizationId: string; offset: number; limit: number }): Promise<Suite[]>;
  count(organizationId: string): Promise<number>;
  teamSuitesByIds(ids: readonly string[]): Promise<TeamSuite[]>;
  /** 'taken' when the team has access to the suite already, however close the race. */
  insertTeamSuite(teamSuite: TeamSuite): Promise<'inserted' | 'taken'>;
  updateTeamSuite(id: string, accessLevel: SuiteAccessLevel): Promise<TeamSuite | null>;
  deleteTeamSuite(id: string): Promise<boolean>;
  /** A page of the team suites of a suite, or of a team: newest first, or by the other side's name. */
  listTeamSuites(input: {
    of: 'suite' | 'team';
    id: string;
    order: TeamSuiteOrder;
    offset: number;
    limit: number;
  }): Promise<TeamSuite[]>;
  countTeamSuites(input: { of: 'suite' | 'team'; id: string }): Promise<number>;
}
