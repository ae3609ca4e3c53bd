import { splitCronline } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import { checkCron, nextTick } from './cron';

const at = (iso: string) => new Date(iso);
const check = (text: string) => {
  const split = splitCronline(text);
  if (!split.ok) throw new Error(split.error);
  return checkCron(split.value);
};

describe('checkCron', () => {
  it.each([
    '* * * * *',
    '*/15 9-17 * * 1-5',
    '0 0 1 jan *',
    '30 2 * * sun',
    '0 0 29 2 *',
    '@daily',
    '@midnight Europe/London',
    '@yearly',
  ])('takes %j', (text) => expect(check(text)).toBeNull());

  it.each(['61 * * * *', '* 24 * * *', '* * 32 * *', '* * * 13 *', '* * * * 8', 'x * * * *', '*/0 * * * *'])(
    'refuses %j with the parser reason',
    (text) => expect(check(text)).toEqual(expect.any(String)),
  );

  it('refuses a day that never comes', () => {
    expect(check('0 0 31 2 *')).toEqual(expect.any(String));
  });
});

describe('nextTick', () => {
  it.each([
    ['* * * * *', '2026-03-01T10:07:30Z', '2026-03-01T10:08:00Z'],
    ['* * * * *', '2026-03-01T10:08:00Z', '2026-03-01T10:09:00Z'],
    ['0 * * * *', '2026-03-01T10:00:00Z', '2026-03-01T11:00:00Z'],
    ['@daily', '2026-03-01T10:00:00Z', '2026-03-02T00:00:00Z'],
    ['@hourly', '2026-03-01T10:59:59Z', '2026-03-01T11:00:00Z'],
    ['@weekly', '2026-03-04T00:00:00Z', '2026-03-08T00:00:00Z'],
    ['@monthly', '2026-03-04T00:00:00Z', '2026-04-01T00:00:00Z'],
    ['0 9 * * 1-5', '2026-03-06T09:00:00Z', '2026-03-09T09:00:00Z'],
    ['0 0 29 2 *', '2026-03-01T00:00:00Z', '2028-02-29T00:00:00Z'],
    // Day-of-month or day-of-week, as cron has it: the 13th, or any Friday.
    ['0 0 13 * 5', '2026-03-01T00:00:00Z', '2026-03-06T00:00:00Z'],
  ])('%j after %s is %s', (cronline, after, expected) => {
    expect(nextTick(cronline, at(after))).toEqual(at(expected));
  });

  it("reads the times in the cronline's time zone, across daylight saving", () => {
    // London is UTC+0 in winter, UTC+1 from 29 March 2026.
    expect(nextTick('0 9 * * * Europe/London', at('2026-03-27T12:00:00Z'))).toEqual(
      at('2026-03-28T09:00:00Z'),
    );
    expect(nextTick('0 9 * * * Europe/London', at('2026-03-28T12:00:00Z'))).toEqual(
      at('2026-03-29T08:00:00Z'),
    );
    expect(nextTick('30 8 * * * America/New_York', at('2026-07-01T00:00:00Z'))).toEqual(
      at('2026-07-01T12:30:00Z'),
    );
  });

  it('answers null for a text that is not a cronline', () => {
    expect(nextTick('every day', at('2026-03-01T00:00:00Z'))).toBeNull();
    expect(nextTick('99 * * * *', at('2026-03-01T00:00:00Z'))).toBeNull();
  });
});

describe('the tick after a run', () => {
  const at = (iso: string) => new Date(iso);

  it('is the first tick after now, skipping ticks missed while down', () => {
    expect(nextTick('* * * * *', at('2026-01-01T10:07:30Z'))).toEqual(at('2026-01-01T10:08:00Z'));
  });

  it('is never a tick at or before now', () => {
    expect(nextTick('* * * * *', at('2026-01-01T10:08:00Z'))).toEqual(at('2026-01-01T10:09:00Z'));
  });
});
