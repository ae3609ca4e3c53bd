import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distinctUuids, isUuid, newId, uuidV7Time } from './ids';

const maxTime = 2 ** 48 - 1;

describe('newId', () => {
  it('returns a lowercase canonical UUID with version 7 and variant 10', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: maxTime }), (time) => {
        const id = newId(time);
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }),
    );
  });

  it('stores the millisecond timestamp in the first 48 bits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: maxTime }), (time) => {
        expect(uuidV7Time(newId(time))).toBe(time);
      }),
    );
  });

  it('sorts ids created at later milliseconds after earlier ones', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: maxTime - 1 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (time, gap) => {
          const later = Math.min(time + gap, maxTime);
          expect(newId(time) < newId(later)).toBe(true);
        },
      ),
    );
  });

  it('uses the current time by default', () => {
    const before = Date.now();
    const time = uuidV7Time(newId());
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Date.now());
  });

  it('fills the rest with randomness, so ids of the same millisecond differ', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId(1_700_000_000_000)));
    expect(ids.size).toBe(1000);
  });

  it('keeps every id a valid v7 with fresh random bits across the random pool refills (one per 409 ids)', () => {
    const ids = Array.from({ length: 5000 }, () => newId(1_700_000_000_000));
    expect(new Set(ids).size).toBe(5000);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(uuidV7Time(id)).toBe(1_700_000_000_000);
    }
    // The random part's nibbles look uniform: every hex digit turns up in each random position.
    for (const position of [15, 20, 35]) {
      expect(new Set(ids.map((id) => id[position])).size).toBe(16);
    }
  });

  it.each([-1, 1.5, 2 ** 48, Number.NaN])('refuses the out-of-range time %s', (time) => {
    expect(() => newId(time)).toThrow(RangeError);
  });
});

describe('isUuid', () => {
  it.each([
    ['0191df84-85e4-77aa-83ba-6579084728eb', true],
    ['3D3C3BF0-7D58-4AFE-8FE7-B3017D5504DE', true],
    ['00000000-0000-0000-0000-000000000000', true],
    ['0191df84-85e4-77aa-83ba-6579084728e', false],
    ['0191df84-85e4-77aa-83ba-6579084728ebb', false],
    ['0191df8485e477aa83ba6579084728eb', false],
    ['{0191df84-85e4-77aa-83ba-6579084728eb}', false],
    ['0191df84-85e4-77aa-83ba-6579084728eg', false],
    [' 0191df84-85e4-77aa-83ba-6579084728eb', false],
    ['', false],
  ])('says %j is a uuid: %s', (s, expected) => {
    expect(isUuid(s)).toBe(expected);
  });

  it('accepts every uuid fast-check generates', () => {
    fc.assert(fc.property(fc.uuid(), (uuid) => isUuid(uuid) && isUuid(uuid.toUpperCase())));
  });
});

describe('uuidV7Time', () => {
  it.each([
    ['0191df84-85e4-77aa-83ba-6579084728eb', 0x0191df8485e4],
    ['0191DF84-85E4-77AA-83BA-6579084728EB', 0x0191df8485e4],
    ['3d3c3bf0-7d58-4afe-8fe7-b3017d5504de', null],
    ['0191df84-85e4-77aa-c3ba-6579084728eb', null],
    ['not-a-uuid', null],
  ])('reads the time of %s as %s', (id, expected) => {
    expect(uuidV7Time(id)).toBe(expected);
  });
});

describe('distinctUuids', () => {
  const a = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
  const b = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';
  it.each<[string, string[], string[]]>([
    ['keeps UUIDs in their first order', [b, a], [b, a]],
    ['lowercases them', [a.toUpperCase()], [a]],
    ['drops repeats, in any case', [a, b, a.toUpperCase()], [a, b]],
    ['drops what is not a UUID', ['', 'web', `${a}x`, a], [a]],
    ['answers nothing for nothing', [], []],
  ])('%s', (_case, ids, expected) => {
    expect(distinctUuids(ids)).toEqual(expected);
  });
});
