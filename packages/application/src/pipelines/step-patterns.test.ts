import {
  type ConditionFacts,
  conditionHolds,
  parseCondition,
  parseStepDefinitions,
  uploadedSteps,
} from '@ci/domain';
import { factsOf } from '@ci/domain/build.fixture';
import { describe, expect, it } from 'vitest';
import { stepPatterns } from './step-patterns';

const holds = (text: string, facts: Partial<ConditionFacts> = {}) => {
  const condition = parseCondition(text, stepPatterns);
  if (!condition.ok) throw new Error(condition.error);
  return conditionHolds(condition.value, factsOf(facts));
};
const refusal = (text: string) => {
  const condition = parseCondition(text, stepPatterns);
  return condition.ok ? null : condition.error;
};

describe('step conditions with RE2 patterns', () => {
  it('matches and does not match, anywhere in the value unless anchored', () => {
    expect(holds('build.message =~ /deploy/', { message: 'please deploy now' })).toBe(true);
    expect(holds('build.message =~ /^deploy/', { message: 'please deploy now' })).toBe(false);
    expect(holds('build.message =~ /now$/', { message: 'please deploy now' })).toBe(true);
    expect(holds('build.message !~ /\\[skip ci\\]/', { message: 'fix [skip ci]' })).toBe(false);
    expect(holds('build.message !~ /\\[skip ci\\]/', { message: 'fix the build' })).toBe(true);
    expect(holds('build.branch =~ /^release\\/v[0-9]+\\.[0-9]+$/', { branch: 'release/v1.12' })).toBe(true);
    expect(holds('build.branch =~ /^release\\/v[0-9]+\\.[0-9]+$/', { branch: 'release/v1.x' })).toBe(false);
    expect(holds('build.branch =~ /^(main|master)$/', { branch: 'master' })).toBe(true);
    expect(holds('build.tag =~ /^v/')).toBe(false);
    expect(holds('build.tag =~ /^v\\d/', { tag: 'v2.0.0' })).toBe(true);
  });

  it('is case-insensitive with i only', () => {
    expect(holds('build.message =~ /^wip\\b/i', { message: 'WIP: later' })).toBe(true);
    expect(holds('build.message =~ /^wip\\b/', { message: 'WIP: later' })).toBe(false);
    expect(holds('build.message !~ /deploy/i', { message: 'DEPLOY' })).toBe(false);
    expect(holds('build.message =~ /straße/i', { message: 'STRASSE' })).toBe(false);
    expect(holds('build.message =~ /ÉTÉ/i', { message: 'un été' })).toBe(true);
  });

  it('refuses what RE2 cannot compile, with its reason', () => {
    expect(refusal('build.message =~ /(a/')).toBe('invalid regular expression /(a/: missing closing ): `(a`');
    expect(refusal('build.message =~ /(a/i')).toBe(
      'invalid regular expression /(a/: missing closing ): `(a`',
    );
    expect(refusal('build.message =~ /a{1001}/')).toMatch(
      /^invalid regular expression .*invalid repeat count/,
    );
    expect(refusal('build.message =~ /a**/')).toMatch(/^invalid regular expression .*nested repetition/);
    // Backreferences and lookaround need backtracking: RE2 has neither.
    expect(refusal('build.message =~ /(a)\\1/')).toMatch(/^invalid regular expression \/\(a\)\\1\/: /);
    expect(refusal('build.message =~ /a(?=b)/')).toMatch(/^invalid regular expression /);
    expect(refusal('build.message =~ /[z-a]/')).toMatch(/invalid character class range/);
  });

  it('answers catastrophic-backtracking patterns correctly on long messages', () => {
    const long = `${'a'.repeat(50_000)}!`;
    expect(holds('build.message =~ /(a+)+$/', { message: long })).toBe(false);
    expect(holds('build.message =~ /(a+)+$/', { message: 'a'.repeat(50_000) })).toBe(true);
    expect(holds('build.message =~ /^(a+)+$/', { message: long })).toBe(false);
    expect(holds('build.message =~ /^(a|aa)+$/', { message: long })).toBe(false);
    expect(holds('build.message =~ /^(a|a?)+b$/', { message: long })).toBe(false);
    expect(holds('build.message !~ /^(.*a){12}$/', { message: long })).toBe(true);
    expect(holds('build.message =~ /^(a+)+!$/', { message: long })).toBe(true);
  });

  it('compiles a pattern once and answers it again for the next build', () => {
    const first = stepPatterns('^main$', { caseInsensitive: false });
    const again = stepPatterns('^main$', { caseInsensitive: false });
    const folded = stepPatterns('^main$', { caseInsensitive: true });
    expect(first.ok && again.ok && first.value === again.value).toBe(true);
    expect(folded.ok && first.ok && folded.value !== first.value).toBe(true);
  });

  it('makes a bad pattern a step problem of the pipeline and of an upload', () => {
    let n = 0;
    const ids = () => `s-${++n}`;
    const parsed = parseStepDefinitions([{ command: 'x', if: 'build.message =~ /(x/' }], ids, stepPatterns);
    expect(parsed.ok ? null : parsed.error.details?.errors).toEqual([
      {
        field: 'steps',
        code: 'invalid',
        message: 'Step 1: if: invalid regular expression /(x/: missing closing ): `(x`',
      },
    ]);
    const upload = uploadedSteps(
      { steps: [{ command: 'x', if: 'build.message =~ /x/s' }] },
      ids,
      stepPatterns,
    );
    expect(upload.ok ? null : upload.error.message).toBe(
      'The uploaded pipeline is invalid: Step 1: if: unsupported regular expression flag "s" in /x/s (only "i" is supported)',
    );
  });
});
