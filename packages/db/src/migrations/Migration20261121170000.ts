import { Migration } from '@mikro-orm/migrations';

/*
 * The pipeline columns whose change makes a new revision: every column but the build counter (builds take
 * it under their own lock, and it is always read afresh) and the revision itself. Written out here, not
 * imported: a migration is frozen. A later migration that adds a pipeline column re-creates the trigger
 * with it (pipeline-revisions.int.test.ts fails until then).
 */
const REVISED = [
  'id',
  'organization_id',
  'slug',
  'name',
  'description',
  'repository',
  'default_branch',
  'branch_configuration',
  'steps',
  'provider',
  'webhook_token',
  'skip_queued_branch_builds',
  'skip_queued_branch_builds_filter',
  'cancel_running_branch_builds',
  'cancel_running_branch_builds_filter',
  'archived_at',
  'created_at',
  'env',
  'visibility',
  'tags',
  'cluster_id',
  'allow_rebuilds',
  'configuration',
  'created_by_id',
];
const row = (name: string) => `(${REVISED.map((column) => `${name}."${column}"`).join(', ')})`;

/**
 * A revision per pipeline (issue 8): a number from one sequence, taken when the pipeline is inserted and
 * again whenever any of its columns but the build counter changes, whoever changes it. A server keeps the
 * pipelines it read with their revisions, and its reads ask PostgreSQL for a pipeline's columns only when
 * the revision differs from the one it holds (ADR 0009): correct across processes, as the revision lives in
 * the row. From a sequence, never reused: a pipeline deleted and inserted again with the same id is a new
 * revision too.
 */
export class Migration20261121170000 extends Migration {
  override name = 'Migration20261121170000';

  override up(): void {
    this.addSql('create sequence "pipeline_revisions";');
    // A function, not `nextval` itself: a column defaulting to `nextval` reads as a serial column to MikroORM.
    this.addSql(`create function next_pipeline_revision() returns bigint language sql volatile as $$
  select nextval('pipeline_revisions')
$$;`);
    this.addSql('alter table "pipelines" add "revision" bigint not null default next_pipeline_revision();');
    this.addSql(`create function pipelines_revised() returns trigger language plpgsql as $$
begin
  new.revision := next_pipeline_revision();
  return new;
end $$;`);
    // Only an update that names one of these columns fires it (a build taking a number never does), and
    // only one that changes a value makes a revision.
    this.addSql(`create trigger pipelines_revised before update of ${REVISED.map((column) => `"${column}"`).join(', ')}
  on pipelines for each row when (${row('old')} is distinct from ${row('new')})
  execute function pipelines_revised();`);
  }

  override down(): void {
    this.addSql('drop trigger if exists pipelines_revised on pipelines;');
    this.addSql('drop function if exists pipelines_revised();');
    this.addSql('alter table "pipelines" drop column "revision";');
    this.addSql('drop function if exists next_pipeline_revision();');
    this.addSql('drop sequence if exists "pipeline_revisions";');
  }
}
