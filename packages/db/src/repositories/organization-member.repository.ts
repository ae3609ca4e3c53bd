import type { OrganizationMember, OrganizationMemberRepository } from '@ci/application';
import type { OrganizationRole } from '@ci/domain';
import { toDate } from '../rows';
import type { Sql } from '../sql';
import { USER_COLUMNS, userFromRow } from './identity.repository';

/** A membership (`m`) with its user (`u`). */
export const MEMBER_SELECT = `select ${USER_COLUMNS}, m.id as m_id, m.organization_id as m_organization_id, m.role,
  m.created_at as m_created_at
from organization_members m join users u on u.id = m.user_id`;

export function memberFromRow(row: Record<string, unknown>): OrganizationMember {
  return {
    id: row.m_id as string,
    organizationId: row.m_organization_id as string,
    user: userFromRow(row),
    role: row.role as OrganizationRole,
    createdAt: toDate(row.m_created_at),
  };
}

export function organizationMemberRepository(sql: Sql): OrganizationMemberRepository {
  return {
    async list({ organizationId, offset, limit }) {
      // Longest-standing member first; the user id (time-ordered) settles members who joined together.
      const rows = await sql.query(
        `${MEMBER_SELECT} where m.organization_id = $1
         order by m.created_at, u.id limit $2 offset $3`,
        [organizationId, limit, offset],
      );
      return rows.map(memberFromRow);
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
