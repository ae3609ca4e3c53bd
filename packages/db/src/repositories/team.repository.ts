import type { TeamListScope, TeamMemberView, TeamRepository, TeamView } from '@ci/application';
import type { InferEntity } from '@mikro-orm/core';
import {
  ForeignKeyConstraintViolationException,
  LockMode,
  raw,
  UniqueConstraintViolationException,
} from '@mikro-orm/postgresql';
import { OrganizationMemberEntity, toUser, UserEntity } from '../entities/organization.entity';
import {
  TeamEntity,
  TeamMemberEntity,
  TeamPipelineEntity,
  toTeam,
  toTeamMember,
} from '../entities/team.entity';
import { converted, type EntityManagerSource, updateReturning, violates } from '../orm';
import { likeLiteral } from '../sql';
import { inParentWindows } from './parent-windows';
import { lockPipelines } from './pipeline-locks';

/** The constraint that keeps team slugs unique per organization (the entity's `uniques`). */
const SLUG_CONSTRAINT = 'teams_organization_id_slug_unique';

const slugTaken = (error: unknown) => violates(error, UniqueConstraintViolationException, SLUG_CONSTRAINT);

/**
 * The role in the team `t` of the user whose id is the parameter `user` (null: not a member), as
 * `viewer_role`: for the pipelines' SQL.
 */
export function viewerRole(user: string): string {
  return `(select m.role from team_members m where m.team_id = t.id and m.user_id = ${user}) as viewer_role`;
}

type TeamRecord = InferEntity<typeof TeamEntity>;
type TeamMemberRecord = InferEntity<typeof TeamMemberEntity>;

/** A team read with its creator (`populate: ['createdBy']`). */
function toView(team: TeamRecord): TeamView {
  return { team: toTeam(team), createdBy: team.createdBy ? toUser(team.createdBy) : null };
}

/** A membership read with its user (`populate: ['user']`). */
function toMemberView(member: TeamMemberRecord): TeamMemberView {
  return { member: toTeamMember(member), userName: member.user.name };
}

/** The organization's teams; `visibleTeamIds` null: every one; `memberUserId`: only that user's. */
function inScope(scope: TeamListScope) {
  return {
    organization: scope.organizationId,
    ...(scope.visibleTeamIds ? { id: { $in: scope.visibleTeamIds } } : {}),
    ...(scope.memberUserId ? { members: { $some: { user: scope.memberUserId } } } : {}),
    ...(scope.search ? { name: { $ilike: `%${likeLiteral(scope.search)}%` } } : {}),
  };
}

export function teamRepository(entityManager: EntityManagerSource): TeamRepository {
  return {
    async findBySlug(organizationId, slug) {
      const team = await entityManager().findOne(TeamEntity, { organization: organizationId, slug });
      return team ? toTeam(team) : null;
    },
    async findForViewer({ organizationId, teamId, userId }) {
      // One statement: the team, its creator and the user's membership (joined on the user).
      const team = await entityManager().findOne(
        TeamEntity,
        { organization: organizationId, id: teamId },
        {
          populate: ['createdBy', 'members'],
          populateWhere: { members: { user: userId } },
          strategy: 'joined',
        },
      );
      if (!team) return null;
      return { view: toView(team), viewerRole: team.members.getItems()[0]?.role ?? null };
    },
    async viewerFacts({ organizationIds, userId }) {
      // Plain facts, no entities: the teams are not loaded, only what the rule needs of them.
      const rows: Array<{
        id: string;
        privacy: TeamRecord['privacy'];
        role: TeamMemberRecord['role'] | null;
      }> = await entityManager()
        .createQueryBuilder(TeamEntity, 't')
        .leftJoin('t.members', 'm', { 'm.user': userId })
        .select(['t.id', 't.privacy', 'm.role'])
        .where({ organization: { $in: [...organizationIds] } })
        .execute();
      return rows.map((row) => ({ teamId: row.id, privacy: row.privacy, viewerRole: row.role ?? null }));
    },
    async list({ offset, limit, ...scope }) {
      const teams = await entityManager().find(TeamEntity, inScope(scope), {
        populate: ['createdBy'],
        orderBy: { createdAt: 'asc', id: 'asc' },
        offset,
        limit,
      });
      return teams.map(toView);
    },
    count: (scope) => entityManager().count(TeamEntity, inScope(scope)),
    async insert({ organizationId, createdById, ...team }) {
      try {
        await entityManager().insert(TeamEntity, {
          ...team,
          organization: organizationId,
          createdBy: createdById,
        });
        return 'inserted';
      } catch (error) {
        if (slugTaken(error)) return 'slug_taken';
        throw error;
      }
    },
    async update({ id, changes }) {
      const em = entityManager();
      try {
        const team = await updateReturning(em, TeamEntity, { id }, changes);
        if (!team) return 'not_found';
        await em.populate(team, ['createdBy']);
        return toView(team);
      } catch (error) {
        if (slugTaken(error)) return 'slug_taken';
        throw error;
      }
    },
    deleteUnlessLastTeam(teamId) {
      return entityManager().transactional(async (em) => {
        // The team's row lock holds back new associations and memberships (their foreign key checks
        // wait for it); the pipelines' row locks, taken in one order, are the ones removing an
        // association takes, so a pipeline cannot lose its other teams while this decides.
        const team = await converted(
          em,
          em
            .createQueryBuilder(TeamEntity)
            .select('id')
            .where({ id: teamId })
            .setLockMode(LockMode.PESSIMISTIC_WRITE)
            .execute('get'),
        );
        if (!team) return 'not_found';
        await lockPipelines(em, { teamId });
        // A statement of its own, so it reads what was committed before the locks were granted.
        const lastTeamOf = await em.count(TeamPipelineEntity, {
          team: teamId,
          pipeline: { teams: { $none: { team: { $ne: teamId } } } },
        });
        if (lastTeamOf > 0) return { lastTeamOf };
        await em.nativeDelete(TeamEntity, { id: teamId });
        return 'deleted';
      });
    },
    async defaultTeams(organizationId) {
      const teams = await entityManager().find(
        TeamEntity,
        { organization: organizationId, isDefaultTeam: true },
        { orderBy: { createdAt: 'asc', id: 'asc' } },
      );
      return teams.map(toTeam);
    },
    async putMember({ id, teamId, userId, role, at }) {
      const em = entityManager();
      await converted(
        em,
        em
          .createQueryBuilder(TeamMemberEntity)
          .insert({ id, team: teamId, user: userId, role, createdAt: at })
          .onConflict(['team', 'user'])
          .merge(['role'])
          .execute('run'),
      );
    },
    async listMembers({ teamId, offset, limit }) {
      const members = await entityManager().find(
        TeamMemberEntity,
        { team: teamId },
        { populate: ['user'], orderBy: { createdAt: 'asc', user: 'asc' }, offset, limit },
      );
      return members.map(toMemberView);
    },
    countMembers: (teamId) => entityManager().count(TeamMemberEntity, { team: teamId }),
    async findMember({ teamId, userId }) {
      // Refreshed: the unit of work may hold it from before a change or a removal.
      const member = await entityManager().findOne(
        TeamMemberEntity,
        { team: teamId, user: userId },
        { populate: ['user'], refresh: true },
      );
      return member ? toMemberView(member) : null;
    },
    async insertMember({ organizationId, member }) {
      const em = entityManager();
      try {
        const user = await em.findOne(UserEntity, { id: member.userId });
        if (!user) return 'not_in_organization';
        // One statement: only a member of the organization is inserted, and the (team, user) key
        // settles concurrent adds (one row, the others insert nothing).
        const fromMembership = em
          .createQueryBuilder(OrganizationMemberEntity, 'om')
          .select([
            raw('?::uuid', [member.id]).as('id'),
            raw('?::uuid', [member.teamId]).as('team_id'),
            'om.user',
            raw('?', [member.role]).as('role'),
            raw('?::timestamptz', [member.createdAt]).as('created_at'),
          ])
          .where({ organization: organizationId, user: member.userId });
        const inserted = await converted(
          em,
          em
            .createQueryBuilder(TeamMemberEntity)
            .insertFrom(fromMembership, { columns: ['id', 'team', 'user', 'role', 'createdAt'] })
            .onConflict(['team', 'user'])
            .ignore()
            .execute('run'),
        );
        if (inserted.affectedRows > 0) return { member, userName: user.name };
        const inOrganization = await em.count(OrganizationMemberEntity, {
          organization: organizationId,
          user: member.userId,
        });
        return inOrganization > 0 ? 'taken' : 'not_in_organization';
      } catch (error) {
        // The team or the user was deleted meanwhile.
        const deleted = (constraint: string) =>
          violates(error, ForeignKeyConstraintViolationException, constraint);
        if (deleted('team_members_team_id_foreign')) return 'team_not_found';
        if (deleted('team_members_user_id_foreign')) return 'not_in_organization';
        throw error;
      }
    },
    async updateMember({ teamId, userId, role }) {
      const em = entityManager();
      const member = await updateReturning(em, TeamMemberEntity, { team: teamId, user: userId }, { role });
      if (!member) return null;
      await em.populate(member, ['user']);
      return toMemberView(member);
    },
    async deleteMember({ teamId, userId }) {
      return (await entityManager().nativeDelete(TeamMemberEntity, { team: teamId, user: userId })) > 0;
    },
    async listMembersOfTeams(windows) {
      if (windows.every((window) => window.limit === 0)) return [];
      const members = await entityManager().find(
        TeamMemberEntity,
        {
          [inParentWindows(
            windows,
            `select m.id from team_members m where m.team_id = w.parent_id
             order by m.created_at, m.user_id offset w.off limit w.lim`,
          )]: [],
        },
        { orderBy: { team: 'asc', createdAt: 'asc', user: 'asc' } },
      );
      return members.map(toTeamMember);
    },
    async countMembersOfTeams(teamIds) {
      if (teamIds.length === 0) return [];
      const counts = await entityManager().countBy(TeamMemberEntity, 'team', {
        where: { team: { $in: [...teamIds] } },
      });
      return Object.entries(counts).map(([parentId, count]) => ({ parentId, count }));
    },
  };
}
