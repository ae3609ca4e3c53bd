import type { PipelineTriggerRepository } from '@ci/application';
import { PipelineTriggerEntity, toPipelineTrigger } from '../entities/pipeline-trigger.entity';
import { type EntityManagerSource, updateReturning } from '../orm';
import type { Sql } from '../sql';
import { inboundFromRow, inboundSelect } from './inbound.repository';

/** Triggers through the EntityManager; SQL for the lookup of each delivery, with the pipeline it builds. */
export function pipelineTriggerRepository(
  entityManager: EntityManagerSource,
  sql: Sql,
): PipelineTriggerRepository {
  return {
    async list(pipelineId) {
      const triggers = await entityManager().find(
        PipelineTriggerEntity,
        { pipeline: pipelineId },
        { orderBy: { createdAt: 'asc', id: 'asc' } },
      );
      return triggers.map(toPipelineTrigger);
    },
    async find(pipelineId, id) {
      const trigger = await entityManager().findOne(PipelineTriggerEntity, { pipeline: pipelineId, id });
      return trigger ? toPipelineTrigger(trigger) : null;
    },
    async insert({ pipelineId, createdById, ...trigger }) {
      await entityManager().insert(PipelineTriggerEntity, {
        ...trigger,
        pipeline: pipelineId,
        createdBy: createdById,
      });
    },
    async update({ pipelineId, id, changes }) {
      const trigger = await updateReturning(
        entityManager(),
        PipelineTriggerEntity,
        { pipeline: pipelineId, id },
        changes,
      );
      return trigger ? toPipelineTrigger(trigger) : null;
    },
    async delete(pipelineId, id) {
      return (await entityManager().nativeDelete(PipelineTriggerEntity, { pipeline: pipelineId, id })) > 0;
    },
    async findByTokenHash(hash) {
      const [row] = await sql.query(
        `${inboundSelect('to_jsonb(t) as trigger')}
         join pipeline_triggers t on t.pipeline_id = p.id where t.token_hash = $1`,
        [hash],
      );
      if (!row) return null;
      const trigger = entityManager().map(PipelineTriggerEntity, row.trigger as Record<string, unknown>);
      return { ...inboundFromRow(row), trigger: toPipelineTrigger(trigger) };
    },
  };
}
