import { Migration } from '@mikro-orm/migrations';

/*
 * Migration20261121170000's revised columns, and the four added here. Written out, not imported: a
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
];
const AFTER = [...BEFORE, 'color', 'emoji', 'default_timeout_in_minutes', 'maximum_timeout_in_minutes'];

function revisedTrigger(columns: string[]): string {
  const row = (name: string) => `(${columns.map((column) => `${name}."${column}"`).join(', ')})`;
  return `create trigger pipelines_revised before update of ${columns.map((column) => `"${column}"`).join(', ')}
  on pipelines for each row when (${row('old')} is distinct from ${row('new')})
  execute function pipelines_revised();`;
}

/**
 * What GraphQL's `Pipeline` (and REST's `emoji`, `color`) show and its mutations set: the pipeline's color
 * and emoji, and its default and maximum command timeouts (stored, not yet enforced). A change to any of
 * them makes a new revision, as a change to any other column does.
 */
export class Migration20261127031000 extends Migration {
  override name = 'Migration20261127031000';

  override up(): void {
    this.addSql(
      'alter table "pipelines" add "color" varchar(255) null, add "emoji" varchar(255) null, add "default_timeout_in_minutes" int null, add "maximum_timeout_in_minutes" int null;',
    );
    this.addSql('drop trigger pipelines_revised on pipelines;');
    this.addSql(revisedTrigger(AFTER));
  }

  override down(): void {
    this.addSql('drop trigger pipelines_revised on pipelines;');
    this.addSql(revisedTrigger(BEFORE));
    this.addSql(
      'alter table "pipelines" drop column "color", drop column "emoji", drop column "default_timeout_in_minutes", drop column "maximum_timeout_in_minutes";',
    );
  }
}
