import { type DomainError, unprocessable } from './errors';
import { isJsonObject } from './json-object';
import { err, ok, type Result } from './result';
import { isStorableText, UNSTORABLE_TEXT } from './storable-text';

/**
 * Organization rules, as the public API names them: `<source>.<action>.<target>`, each letting a source
 * pipeline do something to a target pipeline in another cluster. Both are enforced:
 * `artifacts_read` by {@link mayReadArtifacts}, `trigger_build` by `mayTriggerBuild` (trigger.ts).
 */
export const RULE_TYPES = ['pipeline.trigger_build.pipeline', 'pipeline.artifacts_read.pipeline'] as const;
export type RuleType = (typeof RULE_TYPES)[number];
export type RuleAction = 'trigger_build' | 'artifacts_read';

export const MAX_RULE_DESCRIPTION_LENGTH = 1000;
const MAX_CONDITIONS = 10;
const MAX_CONDITION_LENGTH = 1000;

export interface Rule {
  id: string;
  organizationId: string;
  type: RuleType;
  sourcePipelineId: string;
  targetPipelineId: string;
  /** the rule's value as stored: the pipelines by UUID, and the conditions when given */
  value: RuleValue;
  description: string | null;
  creatorId: string | null;
  createdAt: Date;
}

export interface RuleValue {
  source_pipeline: string;
  target_pipeline: string;
  conditions?: string[];
}

/** A rule's value as a client sent it: the pipelines by UUID or slug, not yet found. */
export interface RuleValueInput {
  sourcePipeline: string;
  targetPipeline: string;
  conditions: string[] | null;
}

export function isRuleType(value: string): value is RuleType {
  return (RULE_TYPES as readonly string[]).includes(value);
}

export function ruleAction(type: RuleType): RuleAction {
  return type === 'pipeline.trigger_build.pipeline' ? 'trigger_build' : 'artifacts_read';
}

/** The rule as the public API shows it in `document`: its type and value, as JSON. */
export function ruleDocument(rule: Pick<Rule, 'type' | 'value'>): string {
  return JSON.stringify({ rule: rule.type, value: rule.value });
}

function invalid(message: string): DomainError {
  return unprocessable('invalid_rule', message);
}

export function parseRuleType(type: string): Result<RuleType, DomainError> {
  return isRuleType(type) ? ok(type) : err(invalid(`Type must be one of ${RULE_TYPES.join(', ')}`));
}

/**
 * A rule's value: a JSON object (or a JSON text of one) with `source_pipeline` and `target_pipeline`
 * (a pipeline's UUID or slug) and optionally `conditions` (texts); nothing else.
 */
export function parseRuleValue(value: unknown): Result<RuleValueInput, DomainError> {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return err(invalid('Value must be a JSON object'));
    }
  }
  if (!isJsonObject(parsed)) return err(invalid('Value must be a JSON object'));
  const unknown = Object.keys(parsed).filter(
    (key) => !['source_pipeline', 'target_pipeline', 'conditions'].includes(key),
  );
  if (unknown.length) return err(invalid(`Value has unknown keys: ${unknown.join(', ')}`));
  const pipelines: string[] = [];
  for (const key of ['source_pipeline', 'target_pipeline'] as const) {
    const pipeline = parsed[key];
    if (typeof pipeline !== 'string' || pipeline.trim() === '') {
      return err(invalid(`Value ${key} must name a pipeline (its UUID or slug)`));
    }
    if (!isStorableText(pipeline) || pipeline.length > 255)
      return err(invalid(`Value ${key} names no pipeline`));
    pipelines.push(pipeline.trim());
  }
  const conditions = parsed.conditions;
  if (
    conditions !== undefined &&
    (!Array.isArray(conditions) ||
      conditions.length > MAX_CONDITIONS ||
      !conditions.every(
        (condition) =>
          typeof condition === 'string' &&
          isStorableText(condition) &&
          condition.length <= MAX_CONDITION_LENGTH,
      ))
  ) {
    return err(invalid(`Value conditions must be a list of at most ${MAX_CONDITIONS} texts`));
  }
  return ok({
    sourcePipeline: pipelines[0] as string,
    targetPipeline: pipelines[1] as string,
    conditions: conditions === undefined ? null : (conditions as string[]),
  });
}

/** A rule's description: optional, blank is none, at most 1000 characters the database keeps. */
export function parseRuleDescription(value: string | null | undefined): Result<string | null, DomainError> {
  const text = value?.trim() ?? '';
  if (text === '') return ok(null);
  if (!isStorableText(text)) return err(invalid(`Description ${UNSTORABLE_TEXT}`));
  if (text.length > MAX_RULE_DESCRIPTION_LENGTH) {
    return err(invalid(`Description is too long (maximum is ${MAX_RULE_DESCRIPTION_LENGTH} characters)`));
  }
  return ok(text);
}

/**
 * Whether a job of the source pipeline, running in `sourceClusterId`, may read the artifacts of a build
 * of the target pipeline: always its own pipeline's and within one cluster (both unclustered too), across clusters only by a
 * `pipeline.artifacts_read.pipeline` rule from source to target. Conditions are not evaluated, so a rule
 * with conditions grants nothing.
 */
export function mayReadArtifacts(input: {
  sourcePipelineId: string;
  sourceClusterId: string | null;
  targetPipelineId: string;
  targetClusterId: string | null;
  rules: readonly Pick<Rule, 'type' | 'sourcePipelineId' | 'targetPipelineId' | 'value'>[];
}): boolean {
  if (input.sourceClusterId === input.targetClusterId) return true;
  if (input.sourcePipelineId === input.targetPipelineId) return true;
  return input.rules.some(
    (rule) =>
      rule.type === 'pipeline.artifacts_read.pipeline' &&
      rule.sourcePipelineId === input.sourcePipelineId &&
      rule.targetPipelineId === input.targetPipelineId &&
      !rule.value.conditions?.length,
  );
}
