import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesBranchFilter, matchesBranchPattern } from './branch-filter';

describe('matchesBranchPattern', () => {
  it.each([
    ['main', 'main', true],
    ['main', 'main2', false],
    ['main', 'mai', false],
    ['*', '', true],
    ['*', 'anything/at/all', true],
    ['release/*', 'release/1.0', true],
    ['release/*', 'release/', true],
    ['release/*', 'release', false],
    ['release/*', 'feature/release/1.0', false],
    ['*/fix', 'bug/fix', true],
    ['*/fix', 'a/b/fix', true],
    ['*/fix', 'bug/fixed', false],
    ['feat*-*', 'feature-x', true],
    ['feat*-*', 'feature', false],
    ['a*a', 'a', false],
    ['a*a', 'aa', true],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'acb', false],
    ['a*b*c', 'aXbYbZc', true],
    ['ab*ba', 'aba', false],
    ['**', 'x', true],
    ['v1.0', 'v1x0', false],
    ['(main)', '(main)', true],
    ['[a-z]+', 'abc', false],
    ['[a-z]+', '[a-z]+', true],
    ['^main$', 'main', false],
  ])('says %j matches %j: %s', (pattern, value, expected) => {
    expect(matchesBranchPattern(pattern, value)).toBe(expected);
  });

  it('agrees with an escaped regular expression on random input', () => {
    const alphabet = fc.constantFrom('a', 'b', '/', '.', '*', '(', '+');
    const text = fc.array(alphabet, { maxLength: 8 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(
        text,
        text.map((s) => s.replaceAll('*', '')),
        (pattern, value) => {
          const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*');
          expect(matchesBranchPattern(pattern, value)).toBe(new RegExp(`^${escaped}$`, 's').test(value));
        },
      ),
    );
  });

  it('matches a pattern against itself when it has no wildcard', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes('*')),
        (s) => matchesBranchPattern(s, s),
      ),
    );
  });
});

describe('matchesBranchFilter', () => {
  const filter = 'main release/* !release/old';
  it.each<[string | null | undefined, string, boolean]>([
    [filter, 'main', true],
    [filter, 'release/1.0', true],
    [filter, 'release/old', false],
    [filter, 'feature/x', false],
    [null, 'anything', true],
    [undefined, 'anything', true],
    ['', 'anything', true],
    ['   ', 'anything', true],
    ['!wip/*', 'main', true],
    ['!wip/*', 'wip/thing', false],
    ['!wip/* !tmp', 'tmp', false],
    ['!wip/* !tmp', 'tmpx', true],
    ['main !main', 'main', false],
    ['* !main', 'develop', true],
    ['* !main', 'main', false],
    ['  main\tdevelop \n', 'develop', true],
    ['main', 'main/sub', false],
    ['feature/*', 'feature/a/b', true],
  ])('with filter %j, branch %j matches: %s', (f, branch, expected) => {
    expect(matchesBranchFilter(f, branch)).toBe(expected);
  });
});
