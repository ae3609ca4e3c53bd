import { Migration } from '@mikro-orm/migrations';
import { ACCESS } from './Migration20261125150000';
import { catalogTriggers, TEAM_PIPELINES_CATALOG_REMOVED_BY_COMMIT } from './Migration20261125170000';

/**
 * Tokens, team members and team pipelines no longer move the catalog revision: no server caches what a
 * token may do any more (ADR 0016), and no answer about a pipeline's builds shows them. Users,
 * organizations, memberships and agents still move it (the content revision's part beside the builds).
 * The tables are Migration20261125150000's `ACCESS`, whose triggers served only the access cache.
 */
export class Migration20261126120000 extends Migration {
  override name = 'Migration20261126120000';

  override up(): void {
    for (const { table, added } of ACCESS) {
      this.addSql(`drop trigger ${table}_catalog_truncated on ${table};`);
      if (added) this.addSql(`drop trigger ${table}_catalog_added on ${table};`);
      this.addSql(`drop trigger ${table}_catalog_removed on ${table};`);
      this.addSql(`drop trigger ${table}_catalog_revised on ${table};`);
    }
    this.addSql('drop function team_pipelines_catalog_removed_by_commit();');
  }

  override down(): void {
    this.addSql(TEAM_PIPELINES_CATALOG_REMOVED_BY_COMMIT);
    for (const { table, added } of ACCESS) {
      for (const statement of catalogTriggers({ table, changed: 'old is distinct from new', added })) {
        this.addSql(statement);
      }
    }
  }
}
