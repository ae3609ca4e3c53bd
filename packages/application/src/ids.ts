import { v7 } from 'uuid';

/**
 * The id source the use cases are given (`deps.newId`): an RFC 9562 UUIDv7 from `uuid`, so ids sort by
 * creation time in indexes. Without a time, `uuid`'s monotonic mode: ids made by one process sort in
 * the order they were made, within a millisecond too (a counter seeded at random each millisecond, its
 * top bit kept clear for headroom). With `nowMs`, that time and random bits, no counter.
 */
export function newId(nowMs?: number): string {
  if (nowMs === undefined) return v7();
  if (!Number.isInteger(nowMs) || nowMs < 0 || nowMs > MAX_UUID_V7_TIME) {
    throw new RangeError(`UUIDv7 time must be an integer between 0 and ${MAX_UUID_V7_TIME}, got ${nowMs}`);
  }
  return v7({ msecs: nowMs });
}

const MAX_UUID_V7_TIME = 2 ** 48 - 1;
