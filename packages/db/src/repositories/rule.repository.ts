import type { RuleListScope, RuleRepository } from '@ci/application';
import { RuleEntity, toRule } from '../entities/rule.entity';
import { type EntityManagerSource, updateReturning } from '../orm';

function inScope({ organizationId, types, sourcePipelineId, targetPipelineId }: RuleListScope) {
  return {
    organization: organizationId,
    ...(types ? { type: { $in: [...types] } } : {}),
    ...(sourcePipelineId === null ? {} : { sourcePipeline: sourcePipelineId }),
    ...(targetPipelineId === null ? {} : { targetPipeline: targetPipelineId }),
  };
}

export function ruleRepository(entityManager: EntityManagerSource): RuleRepository {
  return {
    async insert({ organizationId, sourcePipelineId, targetPipelineId, creatorId, ...rule }) {
      await entityManager().insert(RuleEntity, {
        ...rule,
        organization: organizationId,
        sourcePipeline: sourcePipelineId,
        targetPipeline: targetPipelineId,
        creator: creatorId,
      });
    },
    async byIds(ids) {
      if (ids.length === 0) return [];
      return (await entityManager().find(RuleEntity, { id: { $in: [...ids] } })).map(toRule);
    },
    async list({ offset, limit, ...scope }) {
      const rules = await entityManager().find(RuleEntity, inScope(scope), {
        orderBy: { createdAt: 'desc', id: 'desc' },
        limit,
        offset,
      });
      return rules.map(toRule);
    },
    count: (scope) => entityManager().count(RuleEntity, inScope(scope)),
    async update(id, { sourcePipelineId, targetPipelineId, value, description }) {
      const rule = await updateReturning(
        entityManager(),
        RuleEntity,
        { id },
        { sourcePipeline: sourcePipelineId, targetPipeline: targetPipelineId, value, description },
      );
      return rule ? toRule(rule) : null;
    },
    async delete(id) {
      return (await entityManager().nativeDelete(RuleEntity, { id })) > 0;
    },
  };
}
