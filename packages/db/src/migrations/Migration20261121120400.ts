import { Migration } from '@mikro-orm/migrations';

/**
 * Gives each team/pipeline association an id of its own, the uuid of its GraphQL `TeamPipeline` id.
 * Existing associations get a random one (new ones get the application's time-ordered id).
 */
export class Migration20261121120400 extends Migration {
  override name = 'Migration20261121120400';

  override up(): void {
    this.addSql('alter table "team_pipelines" add "id" uuid null;');
    this.addSql('update "team_pipelines" set "id" = gen_random_uuid() where "id" is null;');
    this.addSql('alter table "team_pipelines" alter column "id" set not null;');
    this.addSql('alter table "team_pipelines" add constraint "team_pipelines_id_unique" unique ("id");');
  }

  override down(): void {
    this.addSql('alter table "team_pipelines" drop constraint "team_pipelines_id_unique";');
    this.addSql('alter table "team_pipelines" drop column "id";');
  }
}
