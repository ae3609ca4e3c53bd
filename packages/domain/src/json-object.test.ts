import { describe, expect, it } from 'vitest';
import { isJsonObject } from './json-object';

describe('isJsonObject', () => {
  it.each<[string, unknown, boolean]>([
    ['an empty object', {}, true],
    ['an object', { a: 1 }, true],
    ['null', null, false],
    ['an array', [], false],
    ['a string', 'x', false],
    ['a number', 1, false],
    ['undefined', undefined, false],
  ])('says %s is a JSON object: %s', (_name, value, expected) => {
    expect(isJsonObject(value)).toBe(expected);
  });
});
