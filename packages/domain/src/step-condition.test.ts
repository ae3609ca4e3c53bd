import { describe, expect, it } from 'vitest';
import { factsOf } from './build.fixture';
import { type ConditionFacts, conditionHolds, MAX_CONDITION_LENGTH, parseCondition } from './step-condition';

const holds = (text: string, facts: Partial<ConditionFacts> = {}) => {
  const condition = parseCondition(text);
  if (!condition.ok) throw new Error(condition.error);
  return conditionHolds(condition.value, factsOf(facts));
};
const refusal = (text: string) => {
  const condition = parseCondition(text);
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
    expect(refusal('build.branch =~ /^main$/')).toMatch(/regular expressions/);
    expect(refusal('build.branch !~ /x/')).toMatch(/regular expressions/);
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
});
