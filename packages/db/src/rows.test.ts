import { describe, expect, it } from 'vitest';
import { prefixedColumns, prefixedObject, toDate, toDateOrNull } from './rows';

describe('toDate', () => {
  it.each([
    ['2026-01-02 03:04:05+00', '2026-01-02T03:04:05.000Z'],
    ['2026-01-02 03:04:05.6+00', '2026-01-02T03:04:05.600Z'],
    ['2026-01-02 03:04:05.67+00', '2026-01-02T03:04:05.670Z'],
    ['2026-01-02 03:04:05.678+00', '2026-01-02T03:04:05.678Z'],
    // Microseconds are truncated, never rounded up into the next millisecond.
    ['2026-01-02 03:04:05.678999+00', '2026-01-02T03:04:05.678Z'],
    ['2026-12-31 23:59:59.999999+00', '2026-12-31T23:59:59.999Z'],
    ['2024-02-29 12:00:00+00', '2024-02-29T12:00:00.000Z'],
    ['2000-02-29 12:00:00+00', '2000-02-29T12:00:00.000Z'],
    ['2026-04-30 23:59:59.999+00', '2026-04-30T23:59:59.999Z'],
    ['1600-03-01 00:00:00+00', '1600-03-01T00:00:00.000Z'],
    ['1970-01-01 00:00:00+00', '1970-01-01T00:00:00.000Z'],
    ['1969-12-31 23:59:59.999+00', '1969-12-31T23:59:59.999Z'],
    // The general path: other zones, years before 1000.
    ['2026-01-02 03:04:05+02', '2026-01-02T01:04:05.000Z'],
    ['2026-01-02 03:04:05.5-05:30', '2026-01-02T08:34:05.500Z'],
    ['0999-06-01 00:00:00+00', '0999-06-01T00:00:00.000Z'],
    ['0050-06-01 00:00:00+00', '0050-06-01T00:00:00.000Z'],
    ['2026-01-02T03:04:05.000Z', '2026-01-02T03:04:05.000Z'],
    // As JSON shows them (json_build_object, json_agg, in a UTC session).
    ['2026-01-02T03:04:05+00:00', '2026-01-02T03:04:05.000Z'],
    ['2026-01-02T03:04:05.6+00:00', '2026-01-02T03:04:05.600Z'],
    ['2026-01-02T03:04:05.678+00:00', '2026-01-02T03:04:05.678Z'],
    ['2026-01-02T03:04:05.678999+00:00', '2026-01-02T03:04:05.678Z'],
    ['2024-02-29T12:00:00+00:00', '2024-02-29T12:00:00.000Z'],
    ['2026-01-02T03:04:05+02:00', '2026-01-02T01:04:05.000Z'],
    ['2026-01-02T03:04:05.5-05:30', '2026-01-02T08:34:05.500Z'],
  ])('reads %s', (text, iso) => {
    expect(toDate(text).toISOString()).toBe(iso);
  });

  it.each([
    '2026-13-01 00:00:00+00',
    '2026-01-01 1a:00:00+00',
    '2026-01-01 10:00:60+00',
    '2026-01-32 00:00:00+00',
    'infinity',
    '',
    '2026-01-01T00:00:00.+00:00',
  ])('refuses %j', (text) => {
    expect(() => toDate(text)).toThrow(/Unreadable timestamp/);
  });

  it('agrees with Date parsing the ISO form on many UTC timestamps', () => {
    for (let i = 0; i < 2000; i++) {
      const [from, to] = [Date.UTC(1000, 0, 1), Date.UTC(9999, 11, 31)];
      const iso = new Date(from + Math.floor(Math.random() * (to - from))).toISOString();
      const micros = String(Math.floor(Math.random() * 1e6)).padStart(6, '0');
      const places = Math.floor(Math.random() * 7);
      const fraction = places ? `.${micros.slice(0, places)}` : '';
      const text = `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction}+00`;
      const inJson = `${iso.slice(0, 10)}T${iso.slice(11, 19)}${fraction}+00:00`;
      const expected = new Date(`${iso.slice(0, 19)}${fraction}Z`);
      expect(toDate(text).getTime(), text).toBe(expected.getTime());
      expect(toDate(inJson).getTime(), inJson).toBe(expected.getTime());
    }
  });

  it('keeps Dates and nulls', () => {
    const date = new Date();
    expect(toDate(date)).toBe(date);
    expect(toDateOrNull(null)).toBeNull();
    expect(toDateOrNull(undefined)).toBeNull();
  });
});

describe('prefixedColumns', () => {
  it('names each column of the alias with the alias as its prefix', () => {
    expect(prefixedColumns('u', ['id', 'avatar_url'])).toBe('u.id as u_id, u.avatar_url as u_avatar_url');
  });
});

describe('prefixedObject', () => {
  it('keys each column of the alias by the name prefixedColumns gives it', () => {
    expect(prefixedObject('u', ['id', 'avatar_url'])).toBe(
      "json_build_object('u_id', u.id, 'u_avatar_url', u.avatar_url)",
    );
  });
});
