import type { OrganizationMemberRepository } from '@ci/application';
import type { OrganizationRole } from '@ci/domain';
import { toDate } from '../rows';
import type { Sql } from '../sql';
import { USER_COLUMNS, userFromRow } from './identity.repository';

export function organizationMemberRepository(sql: Sql): OrganizationMemberRepository {
  return {
    async list({ organizationId, offset, limit }) {
      // Longest-standing member first; the user id (time-ordered) settles members who joined together.
      const rows = await sql.query(
        `select ${USER_COLUMNS}, m.role, m.created_at as m_created_at
         from organization_members m join users u on u.id = m.user_id
         where m.organization_id = $1
         order by m.created_at, u.id limit $2 offset $3`,
        [organizationId, limit, offset],
      );
      return rows.map((row) => ({
        user: userFromRow(row),
        role: row.role as OrganizationRole,
        createdAt: toDate(row.m_created_at),
      }));
    },
    async count(organizationId) {
      const [row] = await sql.query<{ count: number }>(
        'select count(*)::int as count from organization_members where organization_id = $1',
        [organizationId],
      );
      return row?.count ?? 0;
    },
  };
}
