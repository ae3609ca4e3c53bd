import type { PipelineTemplateListScope, PipelineTemplateRepository } from '@ci/application';
import { PipelineTemplateEntity, toPipelineTemplate } from '../entities/pipeline-template.entity';
import { type EntityManagerSource, updateReturning } from '../orm';

function inScope({ organizationId, availableOnly }: PipelineTemplateListScope) {
  return { organization: organizationId, ...(availableOnly ? { available: true } : {}) };
}

export function pipelineTemplateRepository(entityManager: EntityManagerSource): PipelineTemplateRepository {
  return {
    async insert({ organizationId, creatorId, updaterId, ...template }) {
      await entityManager().insert(PipelineTemplateEntity, {
        ...template,
        organization: organizationId,
        creator: creatorId,
        updater: updaterId,
      });
    },
    async byIds(ids) {
      if (ids.length === 0) return [];
      return (await entityManager().find(PipelineTemplateEntity, { id: { $in: [...ids] } })).map(
        toPipelineTemplate,
      );
    },
    async list({ order, offset, limit, ...scope }) {
      const templates = await entityManager().find(PipelineTemplateEntity, inScope(scope), {
        orderBy: order === 'name' ? { name: 'asc', id: 'asc' } : { createdAt: 'desc', id: 'desc' },
        limit,
        offset,
      });
      return templates.map(toPipelineTemplate);
    },
    count: (scope) => entityManager().count(PipelineTemplateEntity, inScope(scope)),
    async update(id, { updaterId, ...changes }) {
      const template = await updateReturning(
        entityManager(),
        PipelineTemplateEntity,
        { id },
        {
          ...changes,
          updater: updaterId,
        },
      );
      return template ? toPipelineTemplate(template) : null;
    },
    async delete(id) {
      return (await entityManager().nativeDelete(PipelineTemplateEntity, { id })) > 0;
    },
  };
}
