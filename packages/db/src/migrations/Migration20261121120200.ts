import { Migration } from '@mikro-orm/migrations';

export class Migration20261121120200 extends Migration {
  override name = 'Migration20261121120200';

  override up(): void {
    this.addSql(
      'alter table "teams" add "default_member_role" varchar(16) not null default \'member\', add "members_can_create_pipelines" boolean not null default true, add "created_by_id" uuid null;',
    );
    this.addSql(
      'alter table "teams" add constraint "teams_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null;',
    );
    this.addSql('create index "teams_created_by_id_index" on "teams" ("created_by_id");');
  }

  override down(): void {
    this.addSql('alter table "teams" drop constraint "teams_created_by_id_foreign";');
    this.addSql('drop index "teams_created_by_id_index";');
    this.addSql(
      'alter table "teams" drop column "default_member_role", drop column "members_can_create_pipelines", drop column "created_by_id";',
    );
  }
}
