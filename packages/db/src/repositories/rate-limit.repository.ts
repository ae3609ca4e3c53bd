import type { RateLimitRepository } from '@ci/application';
import type { Sql } from '../sql';

/**
 * One statement per request: resolves the organization (only one the user belongs to and the token may
 * use, so junk or foreign slugs add no row), then upserts the user's and that organization's counters
 * of the window and returns both. Rows are upserted in one order (by kind), so concurrent statements
 * lock them in the same order and cannot deadlock; `ON CONFLICT DO UPDATE` makes each increment atomic
 * across server processes.
 */
const COUNT = `
with organization as (
  select o.id from organizations o
  join organization_members m on m.organization_id = o.id and m.user_id = $2
  where o.slug = $3 and ($4::uuid[] is null or o.id = any($4::uuid[]))
), subjects as (
  select 'organization' as kind, id from organization
  union all
  select 'user', $2::uuid
)
insert into rate_limit_windows (window_start, subject_kind, subject_id, requests)
select $1, kind, id, 1 from subjects order by kind
on conflict (window_start, subject_kind, subject_id)
do update set requests = rate_limit_windows.requests + 1
returning subject_kind, requests`;

/**
 * A client address's refused tokens, in the same table: the address is not a UUID, so its subject is
 * the UUID its MD5 spells (only telling addresses apart matters here).
 */
const COUNT_FAILED_AUTHENTICATION = `
insert into rate_limit_windows (window_start, subject_kind, subject_id, requests)
values ($1, 'address', md5($2)::uuid, 1)
on conflict (window_start, subject_kind, subject_id)
do update set requests = rate_limit_windows.requests + 1
returning requests`;

export function rateLimitRepository(sql: Sql): RateLimitRepository {
  return {
    async count({ windowStart, userId, organizationSlug, organizationIds }) {
      const rows = await sql.query<{ subject_kind: string; requests: number }>(COUNT, [
        windowStart,
        userId,
        organizationSlug,
        organizationIds,
      ]);
      const requestsOf = (kind: string) => rows.find((row) => row.subject_kind === kind)?.requests ?? null;
      const user = requestsOf('user');
      if (user === null) throw new Error('the rate-limit statement returned no user counter');
      return { organization: requestsOf('organization'), user };
    },
    async countFailedAuthentication({ windowStart, clientAddress }) {
      const [row] = await sql.query<{ requests: number }>(COUNT_FAILED_AUTHENTICATION, [
        windowStart,
        clientAddress,
      ]);
      if (!row) throw new Error('the failed-authentication statement returned no counter');
      return row.requests;
    },
    async deleteWindowsBefore(before) {
      await sql.query('delete from rate_limit_windows where window_start < $1', [before]);
    },
  };
}
