import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distinctUuids, isUuid, uuidV7Time } from './ids';

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
