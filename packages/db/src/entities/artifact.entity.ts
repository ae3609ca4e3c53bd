import { defineEntity, p } from '@mikro-orm/core';
import { BuildEntity, JobEntity } from './build.entity';

/** A file a job uploaded; its bytes live in the artifact store under `build/job/id`. */
export const ArtifactEntity = defineEntity({
  name: 'Artifact',
  tableName: 'artifacts',
  indexes: [
    // A build's and a job's list, oldest first: each reads its own index entries.
    {
      name: 'artifacts_build_order_idx',
      expression: 'create index "artifacts_build_order_idx" on "artifacts" ("build_id", "created_at", "id")',
    },
    {
      name: 'artifacts_job_order_idx',
      expression: 'create index "artifacts_job_order_idx" on "artifacts" ("job_id", "created_at", "id")',
    },
  ],
  properties: {
    id: p.uuid().primary(),
    job: () => p.manyToOne(JobEntity).deleteRule('cascade').index(false),
    build: () => p.manyToOne(BuildEntity).deleteRule('cascade').index(false),
    path: p.text(),
    globPath: p.text().nullable(),
    originalPath: p.text().nullable(),
    mimeType: p.string().length(255),
    fileSize: p.bigint('number'),
    sha1sum: p.string().length(40),
    sha256sum: p.string().length(64).nullable(),
    state: p.string().length(16),
    createdAt: p.datetime(3),
    uploadedAt: p.datetime(3).nullable(),
  },
});
