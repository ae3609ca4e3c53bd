import { Migration } from '@mikro-orm/migrations';

const NEXT = "nextval('content_revisions')";

/** The tables whose catalog triggers served only the access cache (ADR 0013, superseded by ADR 0016). */
const ACCESS_ONLY: { table: string; added: boolean }[] = [
  { table: 'access_tokens', added: false },
  { table: 'team_members', added: true },
  { table: 'team_pipelines', added: true },
];

/**
 * Tokens, team members and team pipelines no longer move the catalog revision: no server caches what a
 * token may do any more (ADR 0016), and no answer about a pipeline's builds shows them. Users,
 * organizations, memberships and agents still move it (the content revision's part beside the builds).
 */
export class Migration20261126120000 extends Migration {
  override name = 'Migration20261126120000';

  override up(): void {
    for (const { table, added } of ACCESS_ONLY) {
      this.addSql(`drop trigger ${table}_catalog_truncated on ${table};`);
      if (added) this.addSql(`drop trigger ${table}_catalog_added on ${table};`);
      this.addSql(`drop trigger ${table}_catalog_removed on ${table};`);
      this.addSql(`drop trigger ${table}_catalog_revised on ${table};`);
    }
    this.addSql('drop function team_pipelines_catalog_removed_by_commit();');
  }

  override down(): void {
    this.addSql(`create function team_pipelines_catalog_removed_by_commit() returns trigger language plpgsql as $$
begin
  if exists (select 1 from pipelines p where p.id = old.pipeline_id) then
    update catalog_revision set revision = ${NEXT} where xmin <> pg_current_xact_id()::xid;
  end if;
  return null;
end $$;`);
    for (const { table, added } of ACCESS_ONLY) {
      const deferred = (name: string, event: string, when: string, fn = 'catalog_revised_by_commit') =>
        this.addSql(`create constraint trigger ${table}_catalog_${name} after ${event} on ${table}
  deferrable initially deferred for each row${when ? ` when (${when})` : ''} execute function ${fn}();`);
      deferred('revised', 'update', 'old is distinct from new');
      deferred(
        'removed',
        'delete',
        '',
        table === 'team_pipelines' ? 'team_pipelines_catalog_removed_by_commit' : undefined,
      );
      if (added) deferred('added', 'insert', '');
      this.addSql(`create trigger ${table}_catalog_truncated after truncate on ${table}
  for each statement execute function catalog_revised();`);
    }
  }
}
