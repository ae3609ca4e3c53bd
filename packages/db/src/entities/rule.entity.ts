import type { Rule, RuleType, RuleValue } from '@ci/domain';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationEntity, UserEntity } from './organization.entity';
import { PipelineEntity } from './pipeline.entity';
import { referencesIndex } from './references-index';

/** An organization rule: a source pipeline may do something to a target pipeline (read by trigger steps and artifact reads). */
export const RuleEntity = defineEntity({
  name: 'Rule',
  tableName: 'rules',
  indexes: [
    // An organization's rules are listed newest first.
    {
      name: 'rules_organization_order_idx',
      expression:
        'create index "rules_organization_order_idx" on "rules" ("organization_id", "created_at" desc, "id" desc)',
    },
    referencesIndex('rules', 'creator_id'),
  ],
  properties: {
    id: p.uuid().primary(),
    organization: () => p.manyToOne(OrganizationEntity).deleteRule('cascade'),
    type: p.string().length(64),
    // A rule goes with either of its pipelines.
    sourcePipeline: () => p.manyToOne(PipelineEntity).deleteRule('cascade').index(),
    targetPipeline: () => p.manyToOne(PipelineEntity).deleteRule('cascade').index(),
    value: p.json<RuleValue>(),
    description: p.text().nullable(),
    creator: () => p.manyToOne(UserEntity).nullable().deleteRule('set null'),
    createdAt: p.datetime(3),
  },
});

export function toRule(rule: InferEntity<typeof RuleEntity>): Rule {
  return {
    id: rule.id,
    organizationId: rule.organization.id,
    type: rule.type as RuleType,
    sourcePipelineId: rule.sourcePipeline.id,
    targetPipelineId: rule.targetPipeline.id,
    value: rule.value,
    description: rule.description ?? null,
    creatorId: rule.creator?.id ?? null,
    createdAt: rule.createdAt,
  };
}
