import type { SuiteRepository } from '@ci/application';
import { UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { SuiteEntity, TeamSuiteEntity, toSuite, toTeamSuite } from '../entities/suite.entity';
import { type EntityManagerSource, updateReturning, violates } from '../orm';

export function suiteRepository(entityManager: EntityManagerSource): SuiteRepository {
  const taken = (error: unknown, constraint: string) =>
    violates(error, UniqueConstraintViolationException, constraint);
  const parent = ({ of, id }: { of: 'suite' | 'team'; id: string }) =>
    of === 'suite' ? { suite: id } : { team: id };
  return {
    async insert({ organizationId, ...suite }) {
      try {
        await entityManager().insert(SuiteEntity, { ...suite, organization: organizationId });
        return 'inserted';
      } catch (error) {
        if (taken(error, 'suites_organization_id_slug_unique')) return 'slug_taken';
        throw error;
      }
    },
    async byIds(ids) {
      if (ids.length === 0) return [];
      return (await entityManager().find(SuiteEntity, { id: { $in: [...ids] } })).map(toSuite);
    },
    async list({ organizationId, offset, limit }) {
      const suites = await entityManager().find(
        SuiteEntity,
        { organization: organizationId },
        { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset },
      );
      return suites.map(toSuite);
    },
    count: (organizationId) => entityManager().count(SuiteEntity, { organization: organizationId }),
    async teamSuitesByIds(ids) {
      if (ids.length === 0) return [];
      return (await entityManager().find(TeamSuiteEntity, { id: { $in: [...ids] } })).map(toTeamSuite);
    },
    async insertTeamSuite({ teamId, suiteId, creatorId, ...teamSuite }) {
      try {
        await entityManager().insert(TeamSuiteEntity, {
          ...teamSuite,
          team: teamId,
          suite: suiteId,
          creator: creatorId,
        });
        return 'inserted';
      } catch (error) {
        if (taken(error, 'team_suites_team_id_suite_id_unique')) return 'taken';
        throw error;
      }
    },
    async updateTeamSuite(id, accessLevel) {
      const teamSuite = await updateReturning(entityManager(), TeamSuiteEntity, { id }, { accessLevel });
      return teamSuite ? toTeamSuite(teamSuite) : null;
    },
    async deleteTeamSuite(id) {
      return (await entityManager().nativeDelete(TeamSuiteEntity, { id })) > 0;
    },
    async listTeamSuites({ offset, limit, order, ...of }) {
      const newest = { createdAt: 'desc', id: 'desc' } as const;
      const byName =
        of.of === 'suite' ? { team: { name: 'asc' as const } } : { suite: { name: 'asc' as const } };
      const teamSuites = await entityManager().find(TeamSuiteEntity, parent(of), {
        orderBy: order === 'name' ? [byName, newest] : newest,
        limit,
        offset,
      });
      return teamSuites.map(toTeamSuite);
    },
    countTeamSuites: (of) => entityManager().count(TeamSuiteEntity, parent(of)),
  };
}
