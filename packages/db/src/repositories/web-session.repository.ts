import type { WebSessionRepository } from '@ci/application';
import { toDate } from '../rows';
import type { Sql } from '../sql';
import { accessTokenWithUserFromRow } from './access-token.repository';
import { USER_COLUMNS } from './identity.repository';

export function webSessionRepository(sql: Sql): WebSessionRepository {
  return {
    async insert(session) {
      await sql.query(
        `insert into web_sessions (id, session_hash, access_token_id, created_at, expires_at)
         values ($1, $2, $3, $4, $5)`,
        [session.id, session.sessionHash, session.accessTokenId, session.createdAt, session.expiresAt],
      );
    },
    async findByHash(sessionHash) {
      const [row] = await sql.prepared(
        `select s.id as s_id, s.session_hash, s.created_at as s_created_at, s.expires_at as s_expires_at,
           t.id as t_id, t.user_id, t.token_hash, t.scopes, t.organization_ids, t.description,
           t.created_at as t_created_at, t.expires_at, t.revoked_at, ${USER_COLUMNS}
         from web_sessions s join access_tokens t on t.id = s.access_token_id join users u on u.id = t.user_id
         where s.session_hash = $1`,
        [sessionHash],
      );
      if (!row) return null;
      const { token, user } = accessTokenWithUserFromRow(row);
      return {
        session: {
          id: row.s_id as string,
          sessionHash: row.session_hash as string,
          accessTokenId: token.id,
          createdAt: toDate(row.s_created_at),
          expiresAt: toDate(row.s_expires_at),
        },
        token,
        user,
      };
    },
    async deleteExpired(at) {
      await sql.query('delete from web_sessions where expires_at <= $1', [at]);
    },
    async deleteByHash(sessionHash) {
      await sql.query('delete from web_sessions where session_hash = $1', [sessionHash]);
    },
  };
}
