import { defineEntity, p } from '@mikro-orm/core';
import { BuildEntity, JobEntity } from './build.entity';

/** A build's annotation: one per context, its Markdown as sent and the sanitised HTML rendered from it. */
export const AnnotationEntity = defineEntity({
  name: 'Annotation',
  tableName: 'annotations',
  uniques: [{ properties: ['build', 'context'] }],
  indexes: [
    // A build's annotations are listed newest first.
    {
      name: 'annotations_build_order_idx',
      expression:
        'create index "annotations_build_order_idx" on "annotations" ("build_id", "created_at" desc, "id" desc)',
    },
  ],
  properties: {
    id: p.uuid().primary(),
    build: () => p.manyToOne(BuildEntity).deleteRule('cascade'),
    // The job whose agent wrote it last; a job goes, its build's annotations stay.
    job: () => p.manyToOne(JobEntity).nullable().deleteRule('set null').index(),
    context: p.string().length(100),
    style: p.string().length(16),
    priority: p.integer(),
    body: p.text(),
    bodyHtml: p.text(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});
