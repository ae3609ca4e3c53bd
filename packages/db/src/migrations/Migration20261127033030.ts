import { Migration } from '@mikro-orm/migrations';

/** Test suites and the teams' access to them (one per team and suite). */
export class Migration20261127033030 extends Migration {
  override name = 'Migration20261127033030';

  override up(): void {
    this.addSql(
      'create table "suites" ("id" uuid not null, "organization_id" uuid not null, "name" varchar(255) not null, "slug" varchar(255) not null, "default_branch" varchar(255) null, "application_name" varchar(255) null, "emoji" varchar(255) null, "color" varchar(255) null, "created_at" timestamptz(3) not null, primary key ("id"));',
    );
    this.addSql(
      'alter table "suites" add constraint "suites_organization_id_slug_unique" unique ("organization_id", "slug");',
    );
    this.addSql(
      'create table "team_suites" ("id" uuid not null, "team_id" uuid not null, "suite_id" uuid not null, "access_level" varchar(32) not null, "creator_id" uuid null, "created_at" timestamptz(3) not null, primary key ("id"));',
    );
    this.addSql('create index "team_suites_suite_id_index" on "team_suites" ("suite_id");');
    this.addSql(
      'alter table "team_suites" add constraint "team_suites_team_id_suite_id_unique" unique ("team_id", "suite_id");',
    );
    this.addSql(
      'alter table "suites" add constraint "suites_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "team_suites" add constraint "team_suites_team_id_foreign" foreign key ("team_id") references "teams" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "team_suites" add constraint "team_suites_suite_id_foreign" foreign key ("suite_id") references "suites" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "team_suites" add constraint "team_suites_creator_id_foreign" foreign key ("creator_id") references "users" ("id") on delete set null;',
    );
  }

  override down(): void {
    this.addSql('drop table if exists "team_suites" cascade;');
    this.addSql('drop table if exists "suites" cascade;');
  }
}
