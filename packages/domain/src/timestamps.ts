/** The wire form of every timestamp: ISO 8601 UTC with milliseconds, null when unset. */
export function formatTimestamp(d: Date): string;
export function formatTimestamp(d: Date | null | undefined): string | null;
export function formatTimestamp(d: Date | null | undefined): string | null {
  if (!d) return null;
  // The same text as toISOString, built from cached digit strings and one reading of the time (each
  // getUTC… call takes the time apart again): several times faster, and a list page writes about a
  // thousand of these. Years outside 1000-9999 and invalid dates take toISOString.
  const time = d.getTime();
  if (!(time >= FIRST_FOUR_DIGIT_YEAR && time < FIRST_FIVE_DIGIT_YEAR)) return d.toISOString();
  const days = Math.floor(time / DAY);
  let rest = time - days * DAY;
  // The civil date of a day number (days since 1970-01-01), in 400-year eras starting on 1 March 0000.
  const fromEra0 = days + 719_468;
  const era = Math.floor(fromEra0 / 146_097);
  const dayOfEra = fromEra0 - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1_460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const fromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * fromMarch + 2) / 5) + 1;
  const month = fromMarch < 10 ? fromMarch + 3 : fromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1_000);
  return `${year}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T${TWO_DIGITS[hour]}:${TWO_DIGITS[minute]}:${TWO_DIGITS[second]}.${THREE_DIGITS[rest - second * 1_000]}Z`;
}

const DAY = 86_400_000;
const FIRST_FOUR_DIGIT_YEAR = Date.UTC(1000, 0, 1);
const FIRST_FIVE_DIGIT_YEAR = Date.UTC(10000, 0, 1);

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
