import { type CronCheck, type Cronline, splitCronline } from '@ci/domain';
import { Cron } from 'croner';

/**
 * Cron's arithmetic, by croner (ADR 0024): five fields, day-of-month and day-of-week OR-ed as cron has
 * always done, times read in the cronline's time zone (daylight saving included).
 */
function cronOf({ expression, timezone }: Cronline): Cron {
  return new Cron(expression, { timezone, mode: '5-part', paused: true, domAndDow: false });
}

/** The parser's verdict on a split cronline: null when it has a next tick, else why not. */
export const checkCron: CronCheck = (cronline) => {
  try {
    return cronOf(cronline).nextRun() ? null : 'it never matches a time';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
};

/** The cronline's first tick strictly after `after`; null: none (or not a cronline). */
export function nextTick(cronline: string, after: Date): Date | null {
  const split = splitCronline(cronline);
  if (!split.ok) return null;
  try {
    return cronOf(split.value).nextRun(after);
  } catch {
    return null;
  }
}
