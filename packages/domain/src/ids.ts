const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_V7_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const MAX_UUID_V7_TIME = 2 ** 48 - 1;

/** Two lowercase hex digits of each byte value. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * Random bytes drawn from the platform's CSPRNG a page at a time: one call per 409 ids instead of one
 * per id (the same generator, the same bytes a per-id call would give; none is ever used twice).
 */
const POOL = new Uint8Array(4096);
let poolOffset = POOL.length;
function randomBytes10(): number {
  if (poolOffset + 10 > POOL.length) {
    globalThis.crypto.getRandomValues(POOL);
    poolOffset = 0;
  }
  const at = poolOffset;
  poolOffset += 10;
  return at;
}

/** A time-ordered RFC 9562 UUIDv7, so ids sort by creation time in indexes. */
export function newId(nowMs: number = Date.now()): string {
  if (!Number.isInteger(nowMs) || nowMs < 0 || nowMs > MAX_UUID_V7_TIME) {
    throw new RangeError(`UUIDv7 time must be an integer between 0 and ${MAX_UUID_V7_TIME}, got ${nowMs}`);
  }
  // 48 bits of milliseconds, then version 7 and 74 random bits (variant 10).
  let time = nowMs;
  const t: string[] = new Array(6);
  for (let i = 5; i >= 0; i--) {
    t[i] = HEX[time % 256]!;
    time = Math.floor(time / 256);
  }
  const r = randomBytes10();
  const b = (i: number) => HEX[POOL[r + i]!]!;
  return `${t[0]}${t[1]}${t[2]}${t[3]}-${t[4]}${t[5]}-${HEX[(POOL[r]! & 0x0f) | 0x70]}${b(1)}-${HEX[(POOL[r + 2]! & 0x3f) | 0x80]}${b(3)}-${b(4)}${b(5)}${b(6)}${b(7)}${b(8)}${b(9)}`;
}

export function isUuid(s: string): boolean {
  return UUID_PATTERN.test(s);
}

/**
 * The distinct UUIDs among these strings, lowercase, in their first order: what a read by id may ask
 * for. Anything else names nothing and is left out.
 */
export function distinctUuids(ids: readonly string[]): string[] {
  return [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
}

/** The millisecond timestamp of a UUIDv7, or null when `id` is not one. */
export function uuidV7Time(id: string): number | null {
  if (!UUID_V7_PATTERN.test(id)) return null;
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}
