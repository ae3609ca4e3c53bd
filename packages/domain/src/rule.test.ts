import { describe, expect, it } from 'vitest';
import {
  mayReadArtifacts,
  parseRuleDescription,
  parseRuleType,
  parseRuleValue,
  ruleAction,
  ruleDocument,
} from './rule';

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

describe('mayReadArtifacts', () => {
  const rule = (
    type: 'pipeline.artifacts_read.pipeline' | 'pipeline.trigger_build.pipeline',
    conditions?: string[],
  ) => ({
    type,
    sourcePipelineId: 'a',
    targetPipelineId: 'b',
    value: { source_pipeline: 'a', target_pipeline: 'b', ...(conditions ? { conditions } : {}) },
  });
  const may = (
    sourceClusterId: string | null,
    targetClusterId: string | null,
    rules = [] as ReturnType<typeof rule>[],
    target = 'b',
  ) =>
    mayReadArtifacts({
      sourcePipelineId: 'a',
      sourceClusterId,
      targetPipelineId: target,
      targetClusterId,
      rules,
    });

  it('lets a job read within its cluster, unclustered ones among themselves, and its own pipeline anywhere', () => {
    expect(may(null, null)).toBe(true);
    expect(may('c1', 'c1')).toBe(true);
    expect(may('c1', 'c2', [], 'a')).toBe(true);
  });

  it('needs an artifacts_read rule from source to target across clusters, without conditions', () => {
    expect(may('c1', 'c2')).toBe(false);
    expect(may('c1', null)).toBe(false);
    expect(may('c1', 'c2', [rule('pipeline.artifacts_read.pipeline')])).toBe(true);
    expect(may('c1', 'c2', [rule('pipeline.trigger_build.pipeline')])).toBe(false);
    expect(may('c1', 'c2', [rule('pipeline.artifacts_read.pipeline', ['build.branch == "main"'])])).toBe(
      false,
    );
    expect(
      mayReadArtifacts({
        sourcePipelineId: 'other',
        sourceClusterId: 'c1',
        targetPipelineId: 'b',
        targetClusterId: 'c2',
        rules: [rule('pipeline.artifacts_read.pipeline')],
      }),
    ).toBe(false);
  });
});
