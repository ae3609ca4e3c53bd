/** Conversions between PostgreSQL's text forms (MikroORM's pool leaves timestamps as text) and domain values. */

const PG_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})(?::?(\d{2}))?$/;

export function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  const text = String(value);
  const fast = typeof value === 'string' ? utcTimestamp(text) : undefined;
  if (fast) return fast;
  const match = PG_TIMESTAMP.exec(text);
  const date = match ? new Date(`${match[1]}T${match[2]}${match[3]}:${match[4] ?? '00'}`) : new Date(text);
  if (Number.isNaN(date.getTime())) throw new Error(`Unreadable timestamp from the database: ${text}`);
  return date;
}

/**
 * The forms every timestamp takes in a UTC session, read digit by digit: as text (`2026-01-02
 * 03:04:05.678901+00`) and inside JSON (`2026-01-02T03:04:05.678901+00:00`). A list page reads about a
 * thousand, and building an ISO string for `Date` to parse again costs several times more. Anything else
 * (another zone, years before 1000, out-of-range fields) answers undefined.
 */
function utcTimestamp(text: string): Date | undefined {
  const n = text.length;
  // The zone: `+00` as text, `+00:00` in JSON (with `T` between date and time).
  const json = text.charCodeAt(10) === 84; /* T */
  const zone = json ? 6 : 3;
  const end = n - zone;
  if (n < 19 + zone || n > 26 + zone || text.charCodeAt(end) !== 43 /* + */) return undefined;
  if (text.charCodeAt(end + 1) !== 48 || text.charCodeAt(end + 2) !== 48) return undefined;
  if (
    json &&
    (text.charCodeAt(end + 3) !== 58 || text.charCodeAt(end + 4) !== 48 || text.charCodeAt(end + 5) !== 48)
  )
    return undefined;
  if (!json && text.charCodeAt(10) !== 32) return undefined;
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return undefined;
  if (text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  let ms = 0;
  if (end > 19) {
    // A fraction of 1 to 6 digits; milliseconds are its first three (truncated, as Date's parser does).
    if (text.charCodeAt(19) !== 46 /* . */ || end < 21) return undefined;
    const places = end - 20;
    const fraction = digits(text, 20, places);
    if (fraction < 0) return undefined;
    ms = places >= 3 ? Math.floor(fraction / 10 ** (places - 3)) : fraction * 10 ** (3 - places);
  }
  if (year < 1000 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23) return undefined;
  if (minute < 0 || minute > 59 || second < 0 || second > 59) return undefined;
  // A day past the month's end is refused (Date.UTC would roll it over into the next month).
  if (day > 28 && day > daysInMonth(year, month)) return undefined;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms));
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The decimal value of `length` digits from `start`, or -1 if any is not a digit. */
function digits(text: string, start: number, length: number): number {
  let value = 0;
  for (let i = start; i < start + length; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    value = value * 10 + c;
  }
  return value;
}

export function toDateOrNull(value: unknown): Date | null {
  return value === null || value === undefined ? null : toDate(value);
}

/**
 * `t.column as t_column` for each column of the table aliased `t`: the columns of a table joined to
 * others, kept apart by their prefix, for a mapper that reads them with it (`userFromRow(row, 'u_')`).
 */
export function prefixedColumns(alias: string, columns: readonly string[]): string {
  return columns.map((column) => `${alias}.${column} as ${alias}_${column}`).join(', ');
}

/**
 * The same columns as one JSON object with the same names for keys (`{"t_column": …}`), for a row nested
 * in another's JSON or one value instead of many columns: the same mapper reads it with the same prefix.
 */
export function prefixedObject(alias: string, columns: readonly string[]): string {
  return `json_build_object(${columns.map((column) => `'${alias}_${column}', ${alias}.${column}`).join(', ')})`;
}

/** Windows of several parents' lists as the three arrays, `$1` to `$3`, that {@link inParentWindows} reads. */
export function parentWindows(
  windows: readonly { parentId: string; offset: number; limit: number }[],
): [string[], number[], number[]] {
  return [windows.map((w) => w.parentId), windows.map((w) => w.offset), windows.map((w) => w.limit)];
}

/**
 * The rows of several parents' windows in one statement: `select` runs once per parent (`w.parent_id`)
 * and takes its window with `offset w.off limit w.lim`; its own parameters follow {@link parentWindows}' (`$4` on).
 */
export function inParentWindows(select: string): string {
  return `select x.* from unnest($1::uuid[], $2::int[], $3::int[]) as w(parent_id, off, lim)
    cross join lateral (${select}) x`;
}
