import { describe, expect, it } from 'vitest';
import { factsOf } from './build.fixture';
import {
  type ConditionFacts,
  conditionHolds,
  MAX_CONDITION_LENGTH,
  MAX_CONDITION_PATTERN_LENGTH,
  parseCondition,
  type RegexEngine,
} from './step-condition';
import { testPatterns } from './step-condition.fixture';

const holds = (text: string, facts: Partial<ConditionFacts> = {}) => {
  const condition = parseCondition(text, testPatterns);
  if (!condition.ok) throw new Error(condition.error);
  return conditionHolds(condition.value, factsOf(facts));
};
const refusal = (text: string) => {
  const condition = parseCondition(text, testPatterns);
  return condition.ok ? null : condition.error;
};

describe('step conditions', () => {
  it('compares variables with strings, both quotes, == and !=', () => {
    expect(holds('build.branch == "main"')).toBe(true);
    expect(holds("build.branch == 'main'")).toBe(true);
    expect(holds('build.branch != "main"')).toBe(false);
    expect(holds('build.branch == "main"', { branch: 'feature' })).toBe(false);
    expect(holds('"main" == build.branch')).toBe(true);
  });

  it('combines with &&, ||, ! and parentheses, && binding tighter than ||', () => {
    expect(holds('build.branch == "x" || build.source == "api" && pipeline.slug == "pipeline-1"')).toBe(true);
    expect(holds('(build.branch == "x" || build.source == "api") && pipeline.slug == "other"')).toBe(false);
    expect(holds('!(build.branch == "main")')).toBe(false);
    expect(holds('!!(build.branch == "main")')).toBe(true);
    expect(holds('build.branch == "main" && !build.tag')).toBe(true);
  });

  it('reads null, tags and pull requests; a bare value is true unless false, null, empty or 0', () => {
    expect(holds('build.tag == null')).toBe(true);
    expect(holds('build.tag != null', { tag: 'v1.0.0' })).toBe(true);
    expect(holds('build.tag', { tag: 'v1' })).toBe(true);
    expect(holds('build.pull_request.id != null', { pullRequestId: '12' })).toBe(true);
    expect(holds('build.pull_request.base_branch == "main"', { pullRequestBaseBranch: 'main' })).toBe(true);
    expect(holds('build.message')).toBe(false);
    expect(holds('true && 1')).toBe(true);
    expect(holds('false || 0 || ""')).toBe(false);
    expect(holds('organization.slug == "acme" && pipeline.default_branch == build.branch')).toBe(true);
    expect(holds('build.commit == "HEAD"')).toBe(true);
  });

  it('keeps escaped quotes inside strings', () => {
    expect(holds('build.message == "say \\"hi\\""', { message: 'say "hi"' })).toBe(true);
  });

  it('refuses what it cannot read, saying what', () => {
    expect(refusal('build.author.email == "a"')).toMatch(/unknown variable "build.author.email"/);
    expect(refusal('build.branch == "main')).toMatch(/not closed/);
    expect(refusal('(build.branch == "main"')).toMatch(/"\(" is not closed/);
    expect(refusal('build.branch == "main")')).toMatch(/unexpected "\)"/);
    expect(refusal('build.branch ==')).toMatch(/ends too early/);
    expect(refusal('build.branch "main"')).toMatch(/unexpected "main"/);
    expect(refusal('')).toMatch(/empty/);
    expect(refusal('   ')).toMatch(/empty/);
    expect(refusal('build.branch == "a" & x')).toMatch(/unexpected "&"/);
    expect(refusal(`${'('.repeat(40)}true${')'.repeat(40)}`)).toMatch(/too deeply nested/);
    expect(refusal(`"${'a'.repeat(MAX_CONDITION_LENGTH)}"`)).toMatch(/longer than/);
  });

  it('matches =~ and !~ against a regular expression literal, anywhere in the value', () => {
    expect(holds('build.message =~ /deploy/', { message: 'please deploy now' })).toBe(true);
    expect(holds('build.message =~ /^deploy/', { message: 'please deploy now' })).toBe(false);
    expect(holds('build.message !~ /skip ci/', { message: 'fix the build' })).toBe(true);
    expect(holds('build.message !~ /skip ci/', { message: 'fix [skip ci]' })).toBe(false);
    expect(holds('build.branch =~ /^release-[0-9]+$/', { branch: 'release-12' })).toBe(true);
    expect(holds('build.branch=~/^main$/')).toBe(true);
    expect(holds("'main' =~ /ai/")).toBe(true);
  });

  it('reads the i flag as case-insensitive, and without it cases differ', () => {
    expect(holds('build.message =~ /^WIP/i', { message: 'wip: half done' })).toBe(true);
    expect(holds('build.message =~ /^WIP/', { message: 'wip: half done' })).toBe(false);
    expect(holds('build.message !~ /^WIP/i', { message: 'wip: half done' })).toBe(false);
  });

  it('matches no pattern with null or a number, so !~ holds for them', () => {
    expect(holds('build.tag =~ /.*/')).toBe(false);
    expect(holds('build.tag !~ /.*/')).toBe(true);
    expect(holds('build.message =~ /x/', { message: null })).toBe(false);
    expect(holds('1 =~ /1/')).toBe(false);
  });

  it('combines matches with && || ! and parentheses', () => {
    const facts = { branch: 'main', message: 'Release 1.2' };
    expect(holds('build.branch == "main" && build.message =~ /^release/i', facts)).toBe(true);
    expect(holds('build.branch == "x" || build.message =~ /^nope/', facts)).toBe(false);
    expect(holds('!(build.message =~ /release/i)', facts)).toBe(false);
    expect(holds('!build.message =~ /release/i', facts)).toBe(false);
    expect(holds('(build.message =~ /1\\.2/) && build.tag == null', facts)).toBe(true);
  });

  it('reads escaped slashes and slashes inside a character class as part of the pattern', () => {
    expect(holds('build.branch =~ /^feature\\/x$/', { branch: 'feature/x' })).toBe(true);
    expect(holds('build.branch =~ /^a[/]b$/', { branch: 'a/b' })).toBe(true);
    expect(holds('build.message =~ /a\\\\/', { message: 'a\\' })).toBe(true);
  });

  it('passes the pattern and its flag to the engine it is given, and says what the engine refuses', () => {
    const seen: string[] = [];
    const engine: RegexEngine = (pattern, { caseInsensitive }) => {
      seen.push(`${pattern}|${caseInsensitive}`);
      return pattern === 'bad'
        ? { ok: false, error: 'it is bad' }
        : testPatterns(pattern, { caseInsensitive });
    };
    expect(parseCondition('build.branch =~ /ma/i && build.branch !~ /x/', engine).ok).toBe(true);
    expect(seen).toEqual(['ma|true', 'x|false']);
    const bad = parseCondition('build.branch =~ /bad/', engine);
    expect(bad.ok ? null : bad.error).toBe('invalid regular expression /bad/: it is bad');
  });

  it('refuses a pattern it cannot read, naming the problem', () => {
    expect(refusal('build.message =~ /(a/')).toMatch(/^invalid regular expression \/\(a\/: /);
    expect(refusal('build.message =~ /abc')).toMatch(/regular expression is not closed/);
    expect(refusal('build.message =~ /a[/')).toMatch(/regular expression is not closed/);
    expect(refusal('build.message =~ //')).toMatch(/regular expression is empty/);
    expect(refusal('build.message =~ /a/g')).toBe(
      'unsupported regular expression flag "g" in /a/g (only "i" is supported)',
    );
    expect(refusal('build.message =~ /a/ix')).toMatch(/unsupported regular expression flag "x"/);
    expect(refusal('build.message =~ "a"')).toBe(
      '=~ must be followed by a regular expression, like /pattern/',
    );
    expect(refusal('build.message !~')).toMatch(/!~ must be followed by a regular expression/);
    expect(refusal('build.message == /a/')).toBe('a regular expression may only follow =~ or !~');
    expect(refusal('/a/')).toBe('a regular expression may only follow =~ or !~');
    expect(refusal('build.message =~ /a/ /b/')).toBe('a regular expression may only follow =~ or !~');
    expect(refusal('build.message =~ /a/ =~ /b/')).toMatch(/unexpected "=~"/);
    expect(refusal(`build.message =~ /${'a'.repeat(MAX_CONDITION_PATTERN_LENGTH + 1)}/`)).toBe(
      `a regular expression is longer than ${MAX_CONDITION_PATTERN_LENGTH} characters`,
    );
    expect(refusal(`build.message =~ /${'a'.repeat(MAX_CONDITION_PATTERN_LENGTH)}/`)).toBeNull();
  });
});
