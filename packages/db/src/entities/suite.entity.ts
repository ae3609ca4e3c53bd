import type { Suite, SuiteAccessLevel, TeamSuite } from '@ci/domain';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationEntity, UserEntity } from './organization.entity';
import { referencesIndex } from './references-index';
import { TeamEntity } from './team.entity';

/** A test suite of an organization; teams get access to it. */
export const SuiteEntity = defineEntity({
  name: 'Suite',
  tableName: 'suites',
  uniques: [{ properties: ['organization', 'slug'] }],
  properties: {
    id: p.uuid().primary(),
    organization: () => p.manyToOne(OrganizationEntity).deleteRule('cascade'),
    name: p.string().length(255),
    slug: p.string().length(255),
    defaultBranch: p.string().length(255).nullable(),
    applicationName: p.string().length(255).nullable(),
    emoji: p.string().length(255).nullable(),
    color: p.string().length(255).nullable(),
    createdAt: p.datetime(3),
  },
});

/** A team's access to a suite: one per team and suite. */
export const TeamSuiteEntity = defineEntity({
  name: 'TeamSuite',
  tableName: 'team_suites',
  uniques: [{ properties: ['team', 'suite'] }],
  indexes: [referencesIndex('team_suites', 'creator_id')],
  properties: {
    id: p.uuid().primary(),
    team: () => p.manyToOne(TeamEntity).deleteRule('cascade'),
    suite: () => p.manyToOne(SuiteEntity).deleteRule('cascade').index(),
    accessLevel: p.string().length(32),
    creator: () => p.manyToOne(UserEntity).nullable().deleteRule('set null'),
    createdAt: p.datetime(3),
  },
});

export function toSuite(suite: InferEntity<typeof SuiteEntity>): Suite {
  return {
    id: suite.id,
    organizationId: suite.organization.id,
    name: suite.name,
    slug: suite.slug,
    defaultBranch: suite.defaultBranch ?? null,
    applicationName: suite.applicationName ?? null,
    emoji: suite.emoji ?? null,
    color: suite.color ?? null,
    createdAt: suite.createdAt,
  };
}

export function toTeamSuite(teamSuite: InferEntity<typeof TeamSuiteEntity>): TeamSuite {
  return {
    id: teamSuite.id,
    teamId: teamSuite.team.id,
    suiteId: teamSuite.suite.id,
    accessLevel: teamSuite.accessLevel as SuiteAccessLevel,
    creatorId: teamSuite.creator?.id ?? null,
    createdAt: teamSuite.createdAt,
  };
}
