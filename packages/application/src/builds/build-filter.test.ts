import { describe, expect, it } from 'vitest';
import type { BuildFilter } from '../ports';
import { requireStorableFilter } from './build-filter';

describe('requireStorableFilter', () => {
  it.each<[string, BuildFilter, RegExp]>([
    ['a NUL in a second branch', { branches: ['main', 'a\u0000b'] }, /branch/],
    ['a NUL commit', { commits: ['\u0000'] }, /commit/],
    ['a NUL in a meta-data value', { metaData: { env: 'pr\u0000d' } }, /meta_data/],
    ['a NUL in a meta-data key', { metaData: { 'e\u0000v': 'prod' } }, /meta_data/],
    ['an unpaired surrogate in a branch', { branches: ['\ud800'] }, /branch/],
  ])('refuses %s with a 400 naming the filter', (_what, filter, name) => {
    expect(() => requireStorableFilter(filter)).toThrow(name);
    try {
      requireStorableFilter(filter);
    } catch (error) {
      expect(error).toMatchObject({ kind: 'bad_request' });
    }
  });

  it('takes every storable text, and no filter at all', () => {
    expect(() =>
      requireStorableFilter({ branches: ['main', 'release/*'], commits: ['abc'], metaData: { env: 'prod' } }),
    ).not.toThrow();
    expect(() => requireStorableFilter({})).not.toThrow();
  });
});
