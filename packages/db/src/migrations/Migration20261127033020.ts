import { Migration } from '@mikro-orm/migrations';

/** Pipeline templates: an organization's named pipeline configurations, listed by name. */
export class Migration20261127033020 extends Migration {
  override name = 'Migration20261127033020';

  override up(): void {
    this.addSql(
      'create table "pipeline_templates" ("id" uuid not null, "organization_id" uuid not null, "name" varchar(255) not null, "description" text null, "configuration" text not null, "available" boolean not null default false, "creator_id" uuid null, "updater_id" uuid null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));',
    );
    this.addSql(
      'create index "pipeline_templates_organization_name_idx" on "pipeline_templates" ("organization_id", "name", "id");',
    );
    this.addSql(
      'alter table "pipeline_templates" add constraint "pipeline_templates_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "pipeline_templates" add constraint "pipeline_templates_creator_id_foreign" foreign key ("creator_id") references "users" ("id") on delete set null;',
    );
    this.addSql(
      'alter table "pipeline_templates" add constraint "pipeline_templates_updater_id_foreign" foreign key ("updater_id") references "users" ("id") on delete set null;',
    );
  }

  override down(): void {
    this.addSql('drop table if exists "pipeline_templates" cascade;');
  }
}
