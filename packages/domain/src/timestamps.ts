/** The wire form of every timestamp: ISO 8601 UTC with milliseconds, null when unset. */
export function formatTimestamp(d: Date): string;
export function formatTimestamp(d: Date | null | undefined): string | null;
export function formatTimestamp(d: Date | null | undefined): string | null {
  if (!d) return null;
  // The same text as toISOString, made in one piece from one reading of the time: a list page writes
  // about a thousand of these, and concatenated parts would each be a string of their own, joined again
  // when the page is serialized. Years outside 1000-9999 and invalid dates take toISOString.
  const time = d.getTime();
  if (!(time >= FIRST_FOUR_DIGIT_YEAR && time < FIRST_FIVE_DIGIT_YEAR)) return d.toISOString();
  const days = Math.floor(time / DAY);
  if (days !== lastDate.days) lastDate = civilDate(days);
  let rest = time - days * DAY;
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1_000);
  const ms = rest - second * 1_000;
  const { y1, y2, y3, y4, m1, m2, d1, d2 } = lastDate;
  return String.fromCharCode(
    y1,
    y2,
    y3,
    y4,
    DASH,
    m1,
    m2,
    DASH,
    d1,
    d2,
    T,
    ZERO + Math.floor(hour / 10),
    ZERO + (hour % 10),
    COLON,
    ZERO + Math.floor(minute / 10),
    ZERO + (minute % 10),
    COLON,
    ZERO + Math.floor(second / 10),
    ZERO + (second % 10),
    DOT,
    ZERO + Math.floor(ms / 100),
    ZERO + (Math.floor(ms / 10) % 10),
    ZERO + (ms % 10),
    Z,
  );
}

const [ZERO, DASH, T, COLON, DOT, Z] = [48, 45, 84, 58, 46, 90];

/** The character codes of a day's `YYYY-MM-DD`, for the day number they were computed for. */
interface CivilDate {
  days: number;
  y1: number;
  y2: number;
  y3: number;
  y4: number;
  m1: number;
  m2: number;
  d1: number;
  d2: number;
}

/** The last day formatted: a page's timestamps mostly fall on a few days, often the same one. */
let lastDate: CivilDate = civilDate(0);

/** The civil date of a day number (days since 1970-01-01), in 400-year eras starting on 1 March 0000. */
function civilDate(days: number): CivilDate {
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
  return {
    days,
    y1: ZERO + Math.floor(year / 1000),
    y2: ZERO + (Math.floor(year / 100) % 10),
    y3: ZERO + (Math.floor(year / 10) % 10),
    y4: ZERO + (year % 10),
    m1: ZERO + Math.floor(month / 10),
    m2: ZERO + (month % 10),
    d1: ZERO + Math.floor(day / 10),
    d2: ZERO + (day % 10),
  };
}

const DAY = 86_400_000;
const FIRST_FOUR_DIGIT_YEAR = Date.UTC(1000, 0, 1);
const FIRST_FIVE_DIGIT_YEAR = Date.UTC(10000, 0, 1);

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
