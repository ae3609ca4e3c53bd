import { uuidV7Time } from '@ci/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newId } from './ids';

const maxTime = 2 ** 48 - 1;
const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newId', () => {
  it('returns a lowercase canonical UUID with version 7 and variant 10', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: maxTime }), (time) => V7.test(newId(time))));
    expect(newId()).toMatch(V7);
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

  it('sorts the ids one process makes in the order it made them, within a millisecond too', () => {
    const ids = Array.from({ length: 5000 }, () => newId());
    expect(new Set(ids).size).toBe(5000);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(id).toMatch(V7);
  });

  it('fills the rest of an id of a given time with randomness, so ids of the same millisecond differ', () => {
    const ids = Array.from({ length: 5000 }, () => newId(1_700_000_000_000));
    expect(new Set(ids).size).toBe(5000);
    for (const id of ids) {
      expect(id).toMatch(V7);
      expect(uuidV7Time(id)).toBe(1_700_000_000_000);
    }
    // Random nibbles look uniform: every hex digit turns up in each fully random position; the first
    // after the version is the counter's top, whose highest bit uuid keeps clear (0 to 7).
    for (const position of [16, 20, 35]) {
      expect(new Set(ids.map((id) => id[position])).size).toBe(16);
    }
    expect(new Set(ids.map((id) => id[15]))).toEqual(new Set('01234567'));
  });

  it.each([-1, 1.5, 2 ** 48, Number.NaN])('refuses the out-of-range time %s', (time) => {
    expect(() => newId(time)).toThrow(RangeError);
  });
});
