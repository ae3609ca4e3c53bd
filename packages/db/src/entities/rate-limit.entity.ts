import { defineEntity, p } from '@mikro-orm/core';

/**
 * One request counter per subject (an organization or a user) and fixed one-minute window. The table
 * is UNLOGGED (set by its migration, which the ORM does not model): counters are worth no WAL write or
 * flush on every request, and losing them in a crash only restarts the current minute. The key starts
 * with the window, so sweeping old windows is a range of the primary key. No foreign keys: rows live
 * for minutes, and a check on every new window would cost more than the stray counter of a deleted user.
 */
export const RateLimitWindowEntity = defineEntity({
  name: 'RateLimitWindow',
  tableName: 'rate_limit_windows',
  properties: {
    windowStart: p.datetime(3).primary(),
    /** `organization`, `user`, or `address` (a client address's refused tokens, its MD5 as the id) */
    subjectKind: p.string().length(16).primary(),
    subjectId: p.uuid().primary(),
    requests: p.integer(),
  },
});
