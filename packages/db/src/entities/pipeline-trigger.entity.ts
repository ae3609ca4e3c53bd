import type { PipelineTrigger } from '@ci/domain';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { UserEntity } from './organization.entity';
import { PipelineEntity } from './pipeline.entity';

/** A pipeline trigger (`bktr_…` URL): found by its token's SHA-256; the token is shown once. */
export const PipelineTriggerEntity = defineEntity({
  name: 'PipelineTrigger',
  tableName: 'pipeline_triggers',
  indexes: [{ properties: ['pipeline', 'createdAt', 'id'] }],
  properties: {
    id: p.uuid().primary(),
    pipeline: () => p.manyToOne(PipelineEntity).deleteRule('cascade'),
    label: p.string().length(255),
    enabled: p.boolean().default(true),
    tokenHash: p.string().length(64).unique(),
    branch: p.string().length(255).nullable(),
    commit: p.string().length(255).nullable(),
    message: p.text().nullable(),
    createdBy: () => p.manyToOne(UserEntity).nullable().deleteRule('set null').index(),
    createdAt: p.datetime(3),
  },
});

export function toPipelineTrigger(trigger: InferEntity<typeof PipelineTriggerEntity>): PipelineTrigger {
  return {
    id: trigger.id,
    pipelineId: trigger.pipeline.id,
    label: trigger.label,
    enabled: trigger.enabled,
    tokenHash: trigger.tokenHash,
    branch: trigger.branch ?? null,
    commit: trigger.commit ?? null,
    message: trigger.message ?? null,
    createdById: trigger.createdBy?.id ?? null,
    createdAt: trigger.createdAt,
  };
}
