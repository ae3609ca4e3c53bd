import { Migration } from '@mikro-orm/migrations';

/**
 * A pipeline's delete leaves the catalog revision alone (ADR 0013). Its team associations go with it by
 * cascade, and Migration20261125150000 made any delete of team associations move the catalog revision:
 * the delete then held the one catalog row from its cascade to team associations until it committed,
 * while it went on to delete every build and job of the pipeline (agents connecting, tokens revoked,
 * memberships changed all waiting on it), and took that row before those rows' locks, not after.
 * A remembered access sees a deleted pipeline without it: its pipeline's row, and so its revision, is
 * gone. So associations deleted with their pipeline (not visible to the trigger any more) move nothing;
 * every other delete of associations, and a truncate, still does.
 */
export class Migration20261125160000 extends Migration {
  override name = 'Migration20261125160000';

  override up(): void {
    this.addSql(`create function team_pipelines_catalog_removed() returns trigger language plpgsql as $$
begin
  if exists (select 1 from removed r join pipelines p on p.id = r.pipeline_id) then
    update catalog_revision set revision = nextval('content_revisions');
  end if;
  return null;
end $$;`);
    this.addSql('drop trigger team_pipelines_catalog_removed on team_pipelines;');
    this.addSql(`create trigger team_pipelines_catalog_removed after delete on team_pipelines
  referencing old table as removed for each statement execute function team_pipelines_catalog_removed();`);
    this.addSql(`create trigger team_pipelines_catalog_truncated after truncate on team_pipelines
  for each statement execute function catalog_revised();`);
  }

  override down(): void {
    this.addSql('drop trigger team_pipelines_catalog_truncated on team_pipelines;');
    this.addSql('drop trigger team_pipelines_catalog_removed on team_pipelines;');
    this.addSql(`create trigger team_pipelines_catalog_removed after delete or truncate on team_pipelines
  for each statement execute function catalog_revised();`);
    this.addSql('drop function team_pipelines_catalog_removed();');
  }
}
