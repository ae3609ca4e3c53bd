import { Migration } from '@mikro-orm/migrations';

/*
 * Migration20261127031000's revised columns, and the one added here. Written out, not imported: a
 * migration is frozen.
 */
const BEFORE = [
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
  'color',
  'emoji',
  'default_timeout_in_minutes',
  'maximum_timeout_in_minutes',
];
const AFTER = [...BEFORE, 'pipeline_template_id'];

function revisedTrigger(columns: string[]): string {
  const row = (name: string) => `(${columns.map((column) => `${name}."${column}"`).join(', ')})`;
  return `create trigger pipelines_revised before update of ${columns.map((column) => `"${column}"`).join(', ')}
  on pipelines for each row when (${row('old')} is distinct from ${row('new')})
  execute function pipelines_revised();`;
}

/**
 * The pipeline template a pipeline's steps came from (REST `pipeline_template_uuid`, GraphQL
 * `Pipeline.pipelineTemplate`). Deleting the template leaves the pipeline, without it. A change of it
 * makes a new revision, as a change to any other column does.
 */
export class Migration20261127042500 extends Migration {
  override name = 'Migration20261127042500';

  override up(): void {
    this.addSql('alter table "pipelines" add "pipeline_template_id" uuid null;');
    this.addSql(
      'create index "pipelines_pipeline_template_id_index" on "pipelines" ("pipeline_template_id");',
    );
    this.addSql(
      'alter table "pipelines" add constraint "pipelines_pipeline_template_id_foreign" foreign key ("pipeline_template_id") references "pipeline_templates" ("id") on delete set null;',
    );
    this.addSql('drop trigger pipelines_revised on pipelines;');
    this.addSql(revisedTrigger(AFTER));
  }

  override down(): void {
    this.addSql('drop trigger pipelines_revised on pipelines;');
    this.addSql(revisedTrigger(BEFORE));
    this.addSql('alter table "pipelines" drop column "pipeline_template_id";');
  }
}
