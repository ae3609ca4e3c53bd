import type { OrganizationRepository, UserRepository } from '@ci/application';
import type { Organization, User } from '@ci/domain';
import { prefixedColumns, toDate } from '../rows';
import type { Sql } from '../sql';

type Row = Record<string, unknown>;

const USER_COLUMN_NAMES = ['id', 'name', 'email', 'avatar_url', 'created_at'];

/** The columns of users `u`, as {@link userFromRow} reads them. */
export const USER_COLUMNS = USER_COLUMN_NAMES.map((column) => `u.${column}`).join(', ');

/** The columns of users `u` beside another table's, each named `u_<column>`: for `userFromRow(row, 'u_')`. */
export const USER_COLUMNS_PREFIXED = prefixedColumns('u', USER_COLUMN_NAMES);

export function userFromRow(row: Row, prefix = ''): User {
  return {
    id: row[`${prefix}id`] as string,
    name: row[`${prefix}name`] as string,
    email: row[`${prefix}email`] as string,
    avatarUrl: (row[`${prefix}avatar_url`] as string | null) ?? null,
    createdAt: toDate(row[`${prefix}created_at`]),
  };
}

/** The user of a left join read with {@link USER_COLUMNS_PREFIXED}; null when there was none. */
export function joinedUserFromRow(row: Row): User | null {
  return row.u_id ? userFromRow(row, 'u_') : null;
}

export function organizationFromRow(row: Row, prefix = ''): Organization {
  return {
    id: row[`${prefix}id`] as string,
    slug: row[`${prefix}slug`] as string,
    name: row[`${prefix}name`] as string,
    createdAt: toDate(row[`${prefix}created_at`]),
  };
}

export function userRepository(sql: Sql): UserRepository {
  return {
    async findByEmail(email) {
      const [row] = await sql.query(`select ${USER_COLUMNS} from users u where u.email = $1`, [email]);
      return row ? userFromRow(row) : null;
    },
    async insert(user) {
      await sql.query(
        'insert into users (id, name, email, avatar_url, created_at) values ($1, $2, $3, $4, $5)',
        [user.id, user.name, user.email, user.avatarUrl, user.createdAt],
      );
    },
  };
}

export function organizationRepository(sql: Sql): OrganizationRepository {
  return {
    async findBySlug(slug) {
      const [row] = await sql.query('select id, slug, name, created_at from organizations where slug = $1', [
        slug,
      ]);
      return row ? organizationFromRow(row) : null;
    },
    async insert(organization) {
      await sql.query('insert into organizations (id, slug, name, created_at) values ($1, $2, $3, $4)', [
        organization.id,
        organization.slug,
        organization.name,
        organization.createdAt,
      ]);
    },
    async putMember({ id, organizationId, userId, role, at, teamsIfNew = [] }) {
      // One statement: a new membership (a row the insert made has no deleting transaction, `xmax` 0) and
      // the teams it joins are written together, or neither is.
      const [row] = await sql.query<{ added: boolean }>(
        `with member as (
           insert into organization_members (id, organization_id, user_id, role, created_at) values ($5, $1, $2, $3, $4)
           on conflict (organization_id, user_id) do update set role = excluded.role
           returning (xmax = 0) as added
         ), joined as (
           insert into team_members (id, team_id, user_id, role, created_at)
           select t.id, t.team_id, $2, t.role, $4
           from unnest($6::uuid[], $7::uuid[], $8::text[]) as t(id, team_id, role), member
           where member.added
           on conflict (team_id, user_id) do nothing
         )
         select added from member`,
        [
          organizationId,
          userId,
          role,
          at,
          id,
          teamsIfNew.map((team) => team.id),
          teamsIfNew.map((team) => team.teamId),
          teamsIfNew.map((team) => team.role),
        ],
      );
      return row?.added ? 'added' : 'changed';
    },
    async countAll() {
      const [row] = await sql.query<{ count: string }>('select count(*) from organizations');
      return Number(row?.count ?? 0);
    },
  };
}
