/** Conversions between PostgreSQL's text forms (the ORM's pool leaves timestamps as text) and domain values. */

const PG_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})(?::?(\d{2}))?$/;

export function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  const text = String(value);
  const match = PG_TIMESTAMP.exec(text);
  const date = match ? new Date(`${match[1]}T${match[2]}${match[3]}:${match[4] ?? '00'}`) : new Date(text);
  if (Number.isNaN(date.getTime())) throw new Error(`Unreadable timestamp from the database: ${text}`);
  return date;
}

export function toDateOrNull(value: unknown): Date | null {
  return value === null || value === undefined ? null : toDate(value);
}

/** Windows of several parents' lists as the three arrays a `unnest(…) as w(parent, off, lim)` reads. */
export function parentWindows(
  windows: readonly { parentId: string; offset: number; limit: number }[],
): [string[], number[], number[]] {
  return [windows.map((w) => w.parentId), windows.map((w) => w.offset), windows.map((w) => w.limit)];
}
