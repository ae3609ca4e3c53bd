import type { AccessTokenRepository } from '@ci/application';
import type { AccessToken, Scope, User } from '@ci/domain';
import { toDate, toDateOrNull } from '../rows';
import type { Sql } from '../sql';
import { USER_COLUMNS, userFromRow } from './identity.repository';

type Row = Record<string, unknown>;

const ACCESS_TOKEN_WITH_USER = `select t.id as t_id, t.user_id, t.token_hash, t.scopes, t.organization_ids, t.description,
         t.created_at as t_created_at, t.expires_at, t.revoked_at, ${USER_COLUMNS}
  from access_tokens t join users u on u.id = t.user_id`;

export function accessTokenWithUserFromRow(row: Row): { token: AccessToken; user: User } {
  const token: AccessToken = {
    id: row.t_id as string,
    userId: row.user_id as string,
    tokenHash: row.token_hash as string,
    scopes: row.scopes as Scope[],
    organizationIds: (row.organization_ids as string[] | null) ?? null,
    description: (row.description as string | null) ?? null,
    createdAt: toDate(row.t_created_at),
    expiresAt: toDateOrNull(row.expires_at),
    revokedAt: toDateOrNull(row.revoked_at),
  };
  return { token, user: userFromRow(row) };
}

export function accessTokenRepository(sql: Sql): AccessTokenRepository {
  return {
    async findByHash(tokenHash) {
      const [row] = await sql.prepared(`${ACCESS_TOKEN_WITH_USER} where t.token_hash = $1`, [tokenHash]);
      return row ? accessTokenWithUserFromRow(row) : null;
    },
    async findById(id) {
      const [row] = await sql.prepared(`${ACCESS_TOKEN_WITH_USER} where t.id = $1`, [id]);
      return row ? accessTokenWithUserFromRow(row) : null;
    },
    async insert(token) {
      await sql.query(
        `insert into access_tokens (id, user_id, token_hash, scopes, organization_ids, description, created_at, expires_at, revoked_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          token.id,
          token.userId,
          token.tokenHash,
          token.scopes,
          token.organizationIds,
          token.description,
          token.createdAt,
          token.expiresAt,
          token.revokedAt,
        ],
      );
    },
    async revoke(id, at) {
      const rows = await sql.query(
        'update access_tokens set revoked_at = $2 where id = $1 and revoked_at is null returning id',
        [id, at],
      );
      return rows.length > 0;
    },
  };
}
