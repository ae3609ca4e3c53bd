import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateBuildNumber, MAX_BUILD_NUMBER, parseBuildNumber } from './build-number';

describe('allocateBuildNumber', () => {
  it('gives the first build of a pipeline number 1', () => {
    expect(allocateBuildNumber(1)).toEqual({ number: 1, nextCounter: 2 });
  });

  it('hands out increasing numbers that never repeat', () => {
    let counter = 1;
    const numbers = Array.from({ length: 5 }, () => {
      const { number, nextCounter } = allocateBuildNumber(counter);
      counter = nextCounter;
      return number;
    });
    expect(numbers).toEqual([1, 2, 3, 4, 5]);
  });

  it('continues after a gap in the counter', () => {
    expect(allocateBuildNumber(42)).toEqual({ number: 42, nextCounter: 43 });
  });

  it.each([0, -1, 1.5, Number.NaN, MAX_BUILD_NUMBER + 1])('refuses the counter %s', (counter) => {
    expect(() => allocateBuildNumber(counter)).toThrow(RangeError);
  });

  it('allocates a number that parses back to itself', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_BUILD_NUMBER }), (counter) => {
        const { number } = allocateBuildNumber(counter);
        expect(parseBuildNumber(String(number))).toBe(number);
      }),
    );
  });
});

describe('parseBuildNumber', () => {
  it.each<[string, number | null]>([
    ['1', 1],
    ['42', 42],
    ['2147483647', 2147483647],
    ['2147483648', null],
    ['99999999999', null],
    ['0', null],
    ['-1', null],
    ['+1', null],
    ['01', null],
    ['1.5', null],
    ['1.0', null],
    ['1e3', null],
    ['0x10', null],
    [' 1', null],
    ['1 ', null],
    ['', null],
    ['abc', null],
    ['١٢', null],
  ])('reads %j as %s', (s, expected) => {
    expect(parseBuildNumber(s)).toBe(expected);
  });
});
