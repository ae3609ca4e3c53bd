const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_V7_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
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
