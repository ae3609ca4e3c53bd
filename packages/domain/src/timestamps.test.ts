import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPipelineCreatedAt, formatTimestamp, parseTimestamp } from './timestamps';

describe('formatTimestamp', () => {
  it.each<[Date | null | undefined, string | null]>([
    [new Date('2026-11-21T10:04:05.123Z'), '2026-11-21T10:04:05.123Z'],
    [new Date('2026-11-21T12:04:05+02:00'), '2026-11-21T10:04:05.000Z'],
    [null, null],
    [undefined, null],
  ])('writes %s as %j', (date, expected) => {
    expect(formatTimestamp(date)).toBe(expected);
  });

  it('writes exactly what toISOString writes, for any date', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.date({ noInvalidDate: true }),
          fc.date({
            min: new Date('1000-01-01T00:00:00Z'),
            max: new Date('9999-12-31T23:59:59.999Z'),
            noInvalidDate: true,
          }),
        ),
        (date) => {
          expect(formatTimestamp(date)).toBe(date.toISOString());
        },
      ),
      { numRuns: 5000 },
    );
    for (const iso of [
      '0999-12-31T23:59:59.999Z',
      '1000-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
      '+010000-01-01T00:00:00.000Z',
      '1970-01-01T00:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
      '2000-02-29T12:00:00.500Z',
      '2024-02-29T23:59:59.999Z',
      '1900-02-28T23:59:59.999Z',
      '1900-03-01T00:00:00.000Z',
      '2026-12-31T23:59:59.999Z',
      '2027-01-01T00:00:00.000Z',
      '1600-02-29T00:00:00.001Z',
    ])
      expect(formatTimestamp(new Date(iso))).toBe(iso);
  });

  it('writes each date right whatever day it wrote before (it keeps the last day it computed)', () => {
    const sameDay = ['2026-11-24T00:00:00.000Z', '2026-11-24T23:59:59.999Z', '2026-11-24T12:34:56.789Z'];
    const sequence = [
      ...sameDay,
      '2026-11-25T00:00:00.000Z',
      ...sameDay,
      '1999-12-31T23:59:59.999Z',
      ...sameDay,
    ];
    expect(sequence.map((iso) => formatTimestamp(new Date(iso)))).toEqual(sequence);
  });

  it('refuses an invalid date as toISOString does', () => {
    expect(() => formatTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe('formatPipelineCreatedAt', () => {
  it('writes the older "YYYY-MM-DD HH:MM:SS UTC" form, dropping milliseconds', () => {
    expect(formatPipelineCreatedAt(new Date('2026-03-07T08:09:05.999Z'))).toBe('2026-03-07 08:09:05 UTC');
  });
});

describe('parseTimestamp', () => {
  it.each([
    ['2026-11-21T10:04:05Z', '2026-11-21T10:04:05.000Z'],
    ['2026-11-21T10:04:05.123Z', '2026-11-21T10:04:05.123Z'],
    ['2026-11-21T10:04:05.1Z', '2026-11-21T10:04:05.100Z'],
    ['2026-11-21T10:04:05.123456789Z', '2026-11-21T10:04:05.123Z'],
    ['2026-11-21T12:04:05+02:00', '2026-11-21T10:04:05.000Z'],
    ['2026-11-21T05:04:05-0500', '2026-11-21T10:04:05.000Z'],
    ['2026-11-21T00:30:00+01:00', '2026-11-20T23:30:00.000Z'],
    ['2026-11-21T10:04:05.5+05:30', '2026-11-21T04:34:05.500Z'],
    ['2026-11-21', '2026-11-21T00:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2000-02-29T23:59:59Z', '2000-02-29T23:59:59.000Z'],
    ['0001-01-01', '0001-01-01T00:00:00.000Z'],
  ])('reads %s as %s', (input, expected) => {
    expect(parseTimestamp(input)?.toISOString()).toBe(expected);
  });

  it.each([
    '',
    'yesterday',
    '1700000000',
    '2026-13-45',
    '2026-00-10',
    '2026-11-00',
    '2026-02-29',
    '1900-02-29',
    '2026-02-30',
    '2026-04-31',
    '2026-11-21T24:00:00Z',
    '2026-11-21T10:60:00Z',
    '2026-11-21T10:04:60Z',
    '2026-11-21T10:04:05',
    '2026-11-21T10:04Z',
    '2026-11-21T10:04:05+24:00',
    '2026-11-21T10:04:05+02:60',
    '2026-11-21T10:04:05+02',
    '2026-11-21T10:04:05.Z',
    '2026-11-21 10:04:05Z',
    '2026-11-21t10:04:05z',
    '26-11-21',
    '2026-1-21',
    ' 2026-11-21',
    '2026-11-21T10:04:05Z trailing',
  ])('rejects %j', (input) => {
    expect(parseTimestamp(input)).toBeNull();
  });

  it('reads back what formatTimestamp writes', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0001-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        (date) => {
          expect(parseTimestamp(formatTimestamp(date)!)).toEqual(date);
        },
      ),
    );
  });
});
