import { Migration } from '@mikro-orm/migrations';

export class Migration20261121120100 extends Migration {
  override name = 'Migration20261121120100';

  override up(): void {
    this.addSql(
      'alter table "pipelines" add "env" jsonb not null default \'{}\', add "visibility" varchar(16) not null default \'private\', add "tags" text[] null, add "cluster_id" uuid null, add "allow_rebuilds" boolean not null default true, add "configuration" text null, add "created_by_id" uuid null;',
    );
    this.addSql(
      'alter table "pipelines" add constraint "pipelines_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null;',
    );
    this.addSql('create index "pipelines_created_by_id_index" on "pipelines" ("created_by_id");');
  }

  override down(): void {
    this.addSql('alter table "pipelines" drop constraint "pipelines_created_by_id_foreign";');
    this.addSql('drop index "pipelines_created_by_id_index";');
    this.addSql(
      'alter table "pipelines" drop column "env", drop column "visibility", drop column "tags", drop column "cluster_id", drop column "allow_rebuilds", drop column "configuration", drop column "created_by_id";',
    );
  }
}
