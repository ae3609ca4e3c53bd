import { describe, expect, it } from 'vitest';
import { parseRuleDescription, parseRuleType, parseRuleValue, ruleAction, ruleDocument } from './rule';

describe('rules', () => {
  it('knows the two pipeline rule types and their actions', () => {
    expect(parseRuleType('pipeline.trigger_build.pipeline')).toEqual({
      ok: true,
      value: 'pipeline.trigger_build.pipeline',
    });
    expect(ruleAction('pipeline.artifacts_read.pipeline')).toBe('artifacts_read');
    expect(parseRuleType('pipeline.deploy.pipeline').ok).toBe(false);
  });

  it('reads a value from a JSON object or a JSON text', () => {
    const value = { source_pipeline: 'acme/a', target_pipeline: '0190b5d2-0000-7000-8000-000000000000' };
    const expected = { sourcePipeline: 'acme/a', targetPipeline: value.target_pipeline, conditions: null };
    expect(parseRuleValue(value)).toEqual({ ok: true, value: expected });
    expect(parseRuleValue(JSON.stringify(value))).toEqual({ ok: true, value: expected });
    expect(parseRuleValue({ ...value, conditions: ['build.branch == "main"'] })).toMatchObject({
      ok: true,
      value: { conditions: ['build.branch == "main"'] },
    });
  });

  it.each([
    ['not json', 'Value must be a JSON object'],
    [[1], 'Value must be a JSON object'],
    [{ target_pipeline: 'b' }, 'Value source_pipeline must name a pipeline (its UUID or slug)'],
    [
      { source_pipeline: 'a', target_pipeline: ' ' },
      'Value target_pipeline must name a pipeline (its UUID or slug)',
    ],
    [{ source_pipeline: 'a', target_pipeline: 'b', effect: 'deny' }, 'Value has unknown keys: effect'],
    [
      { source_pipeline: 'a', target_pipeline: 'b', conditions: 'x' },
      'Value conditions must be a list of at most 10 texts',
    ],
  ])('refuses the value %j', (value, message) => {
    const result = parseRuleValue(value);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toBe(message);
  });

  it('shows its document as the public API does', () => {
    expect(
      ruleDocument({
        type: 'pipeline.trigger_build.pipeline',
        value: { source_pipeline: 'a', target_pipeline: 'b' },
      }),
    ).toBe(
      '{"rule":"pipeline.trigger_build.pipeline","value":{"source_pipeline":"a","target_pipeline":"b"}}',
    );
  });

  it('keeps a description up to 1000 characters', () => {
    expect(parseRuleDescription(' ')).toEqual({ ok: true, value: null });
    expect(parseRuleDescription('x'.repeat(1001)).ok).toBe(false);
  });
});
