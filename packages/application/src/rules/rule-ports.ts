import type { Rule, RuleType } from '@ci/domain';

/** Which rules of an organization a list covers. */
export interface RuleListScope {
  organizationId: string;
  types: readonly RuleType[] | null;
  sourcePipelineId: string | null;
  targetPipelineId: string | null;
}

export interface RuleChanges {
  sourcePipelineId: string;
  targetPipelineId: string;
  value: Rule['value'];
  /** undefined: kept */
  description?: string | null;
}

export interface RuleRepository {
  insert(rule: Rule): Promise<void>;
  /** These rules, in any organization; the use cases decide who may see them. */
  byIds(ids: readonly string[]): Promise<Rule[]>;
  /** A page of an organization's rules, newest first (the reference's `RECENTLY_CREATED`). */
  list(input: RuleListScope & { offset: number; limit: number }): Promise<Rule[]>;
  count(scope: RuleListScope): Promise<number>;
  /** The rule as changed, or null when it no longer exists. */
  update(id: string, changes: RuleChanges): Promise<Rule | null>;
  delete(id: string): Promise<boolean>;
}
