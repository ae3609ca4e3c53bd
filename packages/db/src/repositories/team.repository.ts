import type { TeamListScope, TeamMemberView, TeamRepository, TeamView } from '@ci/application';
import type { Team, TeamMember, TeamMemberRole, TeamPrivacy } from '@ci/domain';
import { inParentWindows, parentWindows, toDate } from '../rows';
import { isForeignKeyViolation, isUniqueViolation, type Sql } from '../sql';
import { joinedUserFromRow, USER_COLUMNS_PREFIXED } from './identity.repository';

type Row = Record<string, unknown>;

/** The team (`t`) and its creator (`u`, left-joined: null for CLI-made teams), prefixed apart. */
const TEAM_COLUMNS = `t.id, t.organization_id, t.slug, t.name, t.description, t.privacy, t.is_default_team,
  t.default_member_role, t.members_can_create_pipelines, t.created_by_id, t.created_at, ${USER_COLUMNS_PREFIXED}`;
const TEAM_FROM = 'teams t left join users u on u.id = t.created_by_id';

/** The constraint that keeps team slugs unique per organization (the entity's `uniques`). */
const SLUG_CONSTRAINT = 'teams_organization_id_slug_unique';

/** The role in the team `t` of the user whose id is the parameter `user` (null: not a member), as `viewer_role`. */
export function viewerRole(user: string): string {
  return `(select m.role from team_members m where m.team_id = t.id and m.user_id = ${user}) as viewer_role`;
}

const MEMBER_COLUMNS = 'tm.id, tm.team_id, tm.user_id, tm.role, tm.created_at, u.name as user_name';

export function teamFromRow(row: Row): Team {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    slug: row.slug as string,
    name: row.name as string,
    description: (row.description as string | null) ?? null,
    privacy: row.privacy as TeamPrivacy,
    isDefaultTeam: row.is_default_team as boolean,
    defaultMemberRole: row.default_member_role as TeamMemberRole,
    membersCanCreatePipelines: row.members_can_create_pipelines as boolean,
    createdById: (row.created_by_id as string | null) ?? null,
    createdAt: toDate(row.created_at),
  };
}

function viewFromRow(row: Row): TeamView {
  return { team: teamFromRow(row), createdBy: joinedUserFromRow(row) };
}

export function teamMemberFromRow(row: Row): TeamMember {
  return {
    id: row.id as string,
    teamId: row.team_id as string,
    userId: row.user_id as string,
    role: row.role as TeamMemberRole,
    createdAt: toDate(row.created_at),
  };
}

function memberFromRow(row: Row): TeamMemberView {
  return { member: teamMemberFromRow(row), userName: row.user_name as string };
}

/** `$1` the organization; `$2` null: every team, else only these; `$3` null: anyone's, else that user's teams. */
const LIST_SCOPE = `t.organization_id = $1 and ($2::uuid[] is null or t.id = any($2::uuid[]))
  and ($3::uuid is null or exists (select 1 from team_members m where m.team_id = t.id and m.user_id = $3))`;

const listParameters = (scope: TeamListScope) => [
  scope.organizationId,
  scope.visibleTeamIds,
  scope.memberUserId,
];

export function teamRepository(sql: Sql): TeamRepository {
  return {
    async findBySlug(organizationId, slug) {
      const [row] = await sql.query('select * from teams where organization_id = $1 and slug = $2', [
        organizationId,
        slug,
      ]);
      return row ? teamFromRow(row) : null;
    },
    async findForViewer({ organizationId, teamId, userId }) {
      const [row] = await sql.query(
        `select ${TEAM_COLUMNS}, ${viewerRole('$3')} from ${TEAM_FROM} where t.organization_id = $1 and t.id = $2`,
        [organizationId, teamId, userId],
      );
      if (!row) return null;
      return { view: viewFromRow(row), viewerRole: (row.viewer_role as TeamMemberRole | null) ?? null };
    },
    async viewerFacts({ organizationIds, userId }) {
      const rows = await sql.query(
        `select t.id, t.privacy, m.role
         from teams t left join team_members m on m.team_id = t.id and m.user_id = $2
         where t.organization_id = any($1::uuid[])`,
        [organizationIds, userId],
      );
      return rows.map((row) => ({
        teamId: row.id as string,
        privacy: row.privacy as TeamPrivacy,
        viewerRole: (row.role as TeamMemberRole | null) ?? null,
      }));
    },
    async list(input) {
      const rows = await sql.query(
        `select ${TEAM_COLUMNS} from ${TEAM_FROM} where ${LIST_SCOPE}
         order by t.created_at, t.id offset $4 limit $5`,
        [...listParameters(input), input.offset, input.limit],
      );
      return rows.map(viewFromRow);
    },
    async count(scope) {
      const [row] = await sql.query<{ count: number }>(
        `select count(*)::int as count from teams t where ${LIST_SCOPE}`,
        listParameters(scope),
      );
      return row?.count ?? 0;
    },
    async insert(team) {
      try {
        await sql.query(
          `insert into teams (id, organization_id, slug, name, description, privacy, is_default_team,
             default_member_role, members_can_create_pipelines, created_by_id, created_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          [
            team.id,
            team.organizationId,
            team.slug,
            team.name,
            team.description,
            team.privacy,
            team.isDefaultTeam,
            team.defaultMemberRole,
            team.membersCanCreatePipelines,
            team.createdById,
            team.createdAt,
          ],
        );
        return 'inserted';
      } catch (error) {
        if (isUniqueViolation(error, SLUG_CONSTRAINT)) return 'slug_taken';
        throw error;
      }
    },
    async update({ id, changes }) {
      // Each column changes only when the update names it, so concurrent updates of other fields stay.
      const set = (column: string, flag: number) =>
        `${column} = case when $${flag} then $${flag + 1} else ${column} end`;
      try {
        const [row] = await sql.query(
          `with t as (
             update teams set ${set('name', 2)}, ${set('slug', 4)}, ${set('description', 6)}, ${set('privacy', 8)},
               ${set('is_default_team', 10)}, ${set('default_member_role', 12)},
               ${set('members_can_create_pipelines', 14)}
             where id = $1 returning *
           )
           select ${TEAM_COLUMNS} from t left join users u on u.id = t.created_by_id`,
          [
            id,
            ...(
              [
                changes.name,
                changes.slug,
                changes.description,
                changes.privacy,
                changes.isDefaultTeam,
                changes.defaultMemberRole,
                changes.membersCanCreatePipelines,
              ] as const
            ).flatMap((value) => [value !== undefined, value ?? null]),
          ],
        );
        return row ? viewFromRow(row) : 'not_found';
      } catch (error) {
        if (isUniqueViolation(error, SLUG_CONSTRAINT)) return 'slug_taken';
        throw error;
      }
    },
    async deleteUnlessLastTeam(teamId) {
      return sql.transaction(async (tx) => {
        // The team's row lock holds back new associations and memberships (their foreign key checks
        // wait for it); the pipelines' row locks, taken in one order, are the ones removing an
        // association takes, so a pipeline cannot lose its other teams while this decides.
        const team = await tx.query('select id from teams where id = $1 for update', [teamId]);
        if (team.length === 0) return 'not_found';
        await tx.query(
          `select p.id from pipelines p where p.id in (select pipeline_id from team_pipelines where team_id = $1)
           order by p.id for no key update`,
          [teamId],
        );
        // A statement of its own, so it reads what was committed before the locks were granted.
        const [row] = await tx.query<{ count: number }>(
          `select count(*)::int as count from team_pipelines tp
           where tp.team_id = $1
             and not exists (select 1 from team_pipelines other where other.pipeline_id = tp.pipeline_id and other.team_id <> $1)`,
          [teamId],
        );
        const lastTeamOf = row?.count ?? 0;
        if (lastTeamOf > 0) return { lastTeamOf };
        await tx.query('delete from teams where id = $1', [teamId]);
        return 'deleted';
      });
    },
    async defaultTeams(organizationId) {
      const rows = await sql.query(
        'select * from teams where organization_id = $1 and is_default_team order by created_at, id',
        [organizationId],
      );
      return rows.map(teamFromRow);
    },
    async putMember({ id, teamId, userId, role, at }) {
      await sql.query(
        `insert into team_members (id, team_id, user_id, role, created_at) values ($5, $1, $2, $3, $4)
         on conflict (team_id, user_id) do update set role = excluded.role`,
        [teamId, userId, role, at, id],
      );
    },
    async listMembers({ teamId, offset, limit }) {
      const rows = await sql.query(
        `select ${MEMBER_COLUMNS} from team_members tm join users u on u.id = tm.user_id
         where tm.team_id = $1 order by tm.created_at, tm.user_id offset $2 limit $3`,
        [teamId, offset, limit],
      );
      return rows.map(memberFromRow);
    },
    async countMembers(teamId) {
      const [row] = await sql.query<{ count: number }>(
        'select count(*)::int as count from team_members where team_id = $1',
        [teamId],
      );
      return row?.count ?? 0;
    },
    async findMember({ teamId, userId }) {
      const [row] = await sql.query(
        `select ${MEMBER_COLUMNS} from team_members tm join users u on u.id = tm.user_id
         where tm.team_id = $1 and tm.user_id = $2`,
        [teamId, userId],
      );
      return row ? memberFromRow(row) : null;
    },
    async insertMember({ organizationId, member }) {
      try {
        // One statement: only a member of the organization is inserted, and the (team, user) key
        // settles concurrent adds (one row, the others insert nothing).
        const [row] = await sql.query(
          `with added as (
             insert into team_members (id, team_id, user_id, role, created_at)
             select $6, $2, om.user_id, $4, $5 from organization_members om
             where om.organization_id = $1 and om.user_id = $3
             on conflict (team_id, user_id) do nothing
             returning id, team_id, user_id, role, created_at
           )
           select a.id, a.team_id, a.user_id, a.role, a.created_at, u.name as user_name,
             exists (select 1 from organization_members om where om.organization_id = $1 and om.user_id = $3)
               as in_organization
           from (select 1) one left join added a on true left join users u on u.id = a.user_id`,
          [organizationId, member.teamId, member.userId, member.role, member.createdAt, member.id],
        );
        if (row?.user_id) return memberFromRow(row);
        return row?.in_organization ? 'taken' : 'not_in_organization';
      } catch (error) {
        // The team or the user was deleted meanwhile.
        if (isForeignKeyViolation(error, 'team_members_team_id_foreign')) return 'team_not_found';
        if (isForeignKeyViolation(error, 'team_members_user_id_foreign')) return 'not_in_organization';
        throw error;
      }
    },
    async updateMember({ teamId, userId, role }) {
      const [row] = await sql.query(
        `with tm as (
           update team_members set role = $3 where team_id = $1 and user_id = $2
           returning id, team_id, user_id, role, created_at
         )
         select ${MEMBER_COLUMNS} from tm join users u on u.id = tm.user_id`,
        [teamId, userId, role],
      );
      return row ? memberFromRow(row) : null;
    },
    async deleteMember({ teamId, userId }) {
      const rows = await sql.query(
        'delete from team_members where team_id = $1 and user_id = $2 returning user_id',
        [teamId, userId],
      );
      return rows.length > 0;
    },
    async listMembersOfTeams(windows) {
      if (windows.every((window) => window.limit === 0)) return [];
      const rows = await sql.query(
        inParentWindows(
          `select tm.id, tm.team_id, tm.user_id, tm.role, tm.created_at from team_members tm
           where tm.team_id = w.parent_id order by tm.created_at, tm.user_id offset w.off limit w.lim`,
        ),
        parentWindows(windows),
      );
      return rows.map(teamMemberFromRow);
    },
    async countMembersOfTeams(teamIds) {
      if (teamIds.length === 0) return [];
      return sql.query(
        `select team_id as "parentId", count(*)::int as count from team_members
         where team_id = any($1::uuid[]) group by team_id`,
        [teamIds],
      );
    },
  };
}
