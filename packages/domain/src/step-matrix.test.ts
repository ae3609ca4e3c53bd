import { describe, expect, it } from 'vitest';
import {
  interpolateMatrix,
  jobMatrix,
  type Matrix,
  matrixCombinations,
  matrixSize,
  parseMatrix,
} from './step-matrix';

const matrix = (raw: unknown): Matrix => {
  const parsed = parseMatrix(raw);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
};
const refusal = (raw: unknown) => {
  const parsed = parseMatrix(raw);
  return parsed.ok ? null : parsed.error;
};

describe('step matrix', () => {
  it('makes one combination per value of a list, shown as the value', () => {
    const list = matrix(['linux', 'macos', 3, true]);
    const combinations = matrixCombinations(list);
    expect(combinations.map((c) => jobMatrix(c.values))).toEqual(['linux', 'macos', 3, true]);
    expect(matrixSize(list)).toBe(4);
  });

  it('makes the product of named dimensions, the first slowest, shown by name', () => {
    const setup = matrix({ setup: { os: ['linux', 'macos'], arch: ['amd64', 'arm64'] } });
    expect(matrixCombinations(setup).map((c) => c.values)).toEqual([
      { os: 'linux', arch: 'amd64' },
      { os: 'linux', arch: 'arm64' },
      { os: 'macos', arch: 'amd64' },
      { os: 'macos', arch: 'arm64' },
    ]);
    expect(jobMatrix({ os: 'linux', arch: 'amd64' })).toEqual({ os: 'linux', arch: 'amd64' });
  });

  it('skips, soft-fails and adds combinations by adjustment, counted as made', () => {
    const adjusted = matrix({
      setup: { os: ['linux', 'macos'], arch: ['amd64', 'arm64'] },
      adjustments: [
        { with: { os: 'macos', arch: 'amd64' }, skip: 'no such machine' },
        { with: { os: 'linux', arch: 'arm64' }, soft_fail: true },
        { with: { os: 'windows', arch: 'amd64' } },
        { with: { os: 'plan9', arch: 'mips' }, skip: true },
      ],
    });
    const combinations = matrixCombinations(adjusted);
    expect(combinations).toEqual([
      { values: { os: 'linux', arch: 'amd64' }, softFail: false },
      { values: { os: 'linux', arch: 'arm64' }, softFail: true },
      { values: { os: 'macos', arch: 'arm64' }, softFail: false },
      { values: { os: 'windows', arch: 'amd64' }, softFail: false },
    ]);
    expect(matrixSize(adjusted)).toBe(combinations.length);
    // The list form's adjustments name the value itself.
    const list = matrix({ setup: ['a', 'b'], adjustments: [{ with: 'b', skip: true }, { with: 'c' }] });
    expect(matrixCombinations(list).map((c) => jobMatrix(c.values))).toEqual(['a', 'c']);
    expect(matrixSize(list)).toBe(2);
  });

  it('fills {{matrix}} and {{matrix.name}}, spaces allowed, and leaves other braces', () => {
    expect(interpolateMatrix('test on {{matrix}} and {{ matrix }}', { '': 'linux' })).toBe(
      'test on linux and linux',
    );
    expect(
      interpolateMatrix('{{matrix.os}}/{{ matrix.arch }} {{matrix.gone}} {{env}}', { os: 'l', arch: 'a' }),
    ).toBe('l/a {{matrix.gone}} {{env}}');
  });

  it('refuses bad forms and sizes with a message', () => {
    expect(refusal('linux')).toMatch(/a list or \{ setup/);
    expect(refusal([])).toMatch(/non-empty list/);
    expect(refusal([{ a: 1 }])).toMatch(/strings, numbers or booleans/);
    expect(refusal([''])).toMatch(/strings, numbers or booleans/);
    expect(refusal({ setup: {} })).toMatch(/at least one dimension/);
    expect(refusal({ setup: 'x' })).toMatch(/a list or a map/);
    expect(refusal({ setup: { 'a b': ['x'] } })).toMatch(/not a plain name/);
    expect(refusal({ setup: ['a'], extra: 1 })).toMatch(/unknown keys: extra/);
    expect(refusal(Array.from({ length: 21 }, (_, i) => `v${i}`))).toMatch(/more than 20 values/);
    const seven = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`d${i}`, ['x']]));
    expect(refusal({ setup: seven })).toMatch(/more than 6 dimensions/);
    expect(refusal({ setup: { os: ['a'] }, adjustments: 'x' })).toMatch(/must be a list/);
    expect(refusal({ setup: { os: ['a'] }, adjustments: [{ with: { arch: 'x' } }] })).toMatch(
      /exactly the dimensions os/,
    );
    expect(refusal({ setup: { os: ['a'] }, adjustments: [{ with: { os: 'a' }, soft_fail: 'yes' }] })).toMatch(
      /soft_fail must be true or false/,
    );
    const many = Array.from({ length: 13 }, (_, i) => ({ with: { os: `x${i}` } }));
    expect(refusal({ setup: { os: ['a'] }, adjustments: many })).toMatch(/more than 12 entries/);
  });
});
