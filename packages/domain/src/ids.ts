const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_V7_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const MAX_UUID_V7_TIME = 2 ** 48 - 1;

/** A time-ordered RFC 9562 UUIDv7, so ids sort by creation time in indexes. */
export function newId(nowMs: number = Date.now()): string {
  if (!Number.isInteger(nowMs) || nowMs < 0 || nowMs > MAX_UUID_V7_TIME) {
    throw new RangeError(`UUIDv7 time must be an integer between 0 and ${MAX_UUID_V7_TIME}, got ${nowMs}`);
  }
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  let time = nowMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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
