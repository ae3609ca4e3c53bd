import { Migration } from '@mikro-orm/migrations';

/**
 * A pipeline's new slug moves the catalog revision: builds of other pipelines show it (`triggered_from`'s
 * `build_pipeline_slug`), and their answers' revision would not move with this pipeline's own. Renames are
 * rare; at commit, as the catalog's other triggers (Migration20261125170000).
 */
export class Migration20261128000000 extends Migration {
  override name = 'Migration20261128000000';

  override up(): void {
    this.addSql(`create constraint trigger pipelines_slug_catalog_revised after update of slug on pipelines
  deferrable initially deferred for each row when (old.slug is distinct from new.slug)
  execute function catalog_revised_by_commit();`);
  }

  override down(): void {
    this.addSql('drop trigger if exists pipelines_slug_catalog_revised on pipelines;');
  }
}
