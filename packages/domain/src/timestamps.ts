/** The wire form of every timestamp: ISO 8601 UTC with milliseconds, null when unset. */
export function formatTimestamp(d: Date): string;
export function formatTimestamp(d: Date | null | undefined): string | null;
export function formatTimestamp(d: Date | null | undefined): string | null {
  if (!d) return null;
  // The same text as toISOString, built from cached digit strings: about three times faster, and a list
  // page writes about a thousand of these. Years outside 1000-9999 and invalid dates take toISOString.
  const year = d.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return d.toISOString();
  return `${year}-${TWO_DIGITS[d.getUTCMonth() + 1]}-${TWO_DIGITS[d.getUTCDate()]}T${TWO_DIGITS[d.getUTCHours()]}:${TWO_DIGITS[d.getUTCMinutes()]}:${TWO_DIGITS[d.getUTCSeconds()]}.${THREE_DIGITS[d.getUTCMilliseconds()]}Z`;
}

const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/** The spec keeps this older form for the pipeline embedded in single-build responses. */
export function formatPipelineCreatedAt(d: Date): string {
  const iso = d.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

const TIMESTAMP_PATTERN =
  /^(?<year>\d{4})-(?<month>\d{2})-(?<day>\d{2})(?:T(?<hour>\d{2}):(?<minute>\d{2}):(?<second>\d{2})(?:\.(?<fraction>\d{1,9}))?(?:Z|(?<sign>[+-])(?<offsetHours>\d{2}):?(?<offsetMinutes>\d{2})))?$/;

/**
 * Reads the ISO 8601 forms clients send: a date-time with seconds and a zone (`Z`, `+02:00`,
 * `-0500`), optionally with fractional seconds, or a bare date meaning UTC midnight.
 */
export function parseTimestamp(s: string): Date | null {
  const parts = TIMESTAMP_PATTERN.exec(s)?.groups;
  if (!parts) return null;
  const number = (name: string) => Number(parts[name] ?? 0);
  const [year, month, day] = [number('year'), number('month'), number('day')];
  const [hour, minute, second] = [number('hour'), number('minute'), number('second')];
  const [offsetHours, offsetMinutes] = [number('offsetHours'), number('offsetMinutes')];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return null;

  // setUTCFullYear, unlike Date.UTC, does not move years 0-99 into the 1900s.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number((parts.fraction ?? '').padEnd(3, '0').slice(0, 3)));
  const offsetMs = (offsetHours * 60 + offsetMinutes) * 60_000;
  return new Date(date.getTime() + (parts.sign === '-' ? offsetMs : -offsetMs));
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
