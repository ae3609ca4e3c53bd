import type { IdempotencyKeyRepository } from '@ci/application';
import type { Sql } from '../sql';

/**
 * Takes the key when nobody holds it, it expired, or the same request held it past its lock (a process
 * that died mid-request); `xmax = 0` tells the row this statement wrote from one it found and left.
 * Nothing returned: another request holds it, read next.
 */
const RESERVE = `
insert into idempotency_keys (user_id, key, request_hash, locked_until, expires_at)
values ($1, $2, $3, $5, $6)
on conflict (user_id, key) do update
set request_hash = excluded.request_hash, locked_until = excluded.locked_until,
    expires_at = excluded.expires_at, status = null, content_type = null, body = null
where idempotency_keys.expires_at <= $4
   or (idempotency_keys.status is null and idempotency_keys.locked_until <= $4
       and idempotency_keys.request_hash = excluded.request_hash)
returning 1`;

const HELD = `
select request_hash, status, content_type, body from idempotency_keys where user_id = $1 and key = $2`;

export function idempotencyKeyRepository(sql: Sql): IdempotencyKeyRepository {
  return {
    async reserve({ userId, key, requestHash, now, lockedUntil, expiresAt }) {
      const reserved = await sql.query(RESERVE, [userId, key, requestHash, now, lockedUntil, expiresAt]);
      if (reserved.length) return 'reserved';
      const [held] = await sql.query<{
        request_hash: string;
        status: number | null;
        content_type: string | null;
        body: string | null;
      }>(HELD, [userId, key]);
      // Released between the two statements: the caller's next try takes it.
      if (!held) return { requestHash, response: null };
      return {
        requestHash: held.request_hash,
        response:
          held.status === null
            ? null
            : { status: held.status, contentType: held.content_type, body: held.body },
      };
    },
    async keep({ userId, key }, response) {
      await sql.query(
        'update idempotency_keys set status = $3, content_type = $4, body = $5 where user_id = $1 and key = $2',
        [userId, key, response.status, response.contentType, response.body],
      );
    },
    async release({ userId, key }) {
      await sql.query('delete from idempotency_keys where user_id = $1 and key = $2 and status is null', [
        userId,
        key,
      ]);
    },
  };
}
