import { Migration } from '@mikro-orm/migrations';

/**
 * Organization settings of the public GraphQL API: the API IP allowlist (enforced), members' 2FA
 * (stored and shown), the banner and invitations; and the teams' suite and registry settings.
 */
export class Migration20261127032000 extends Migration {
  override name = 'Migration20261127032000';

  override up(): void {
    this.addSql(
      `create table "organization_banners" ("id" uuid not null, "organization_id" uuid not null, "message" text not null, "created_at" timestamptz(3) not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "organization_banners" add constraint "organization_banners_organization_id_unique" unique ("organization_id");`,
    );

    this.addSql(
      `create table "organization_invitations" ("id" uuid not null, "organization_id" uuid not null, "email" varchar(255) not null, "role" varchar(16) not null, "teams" jsonb not null default '[]', "created_by_id" uuid null, "created_at" timestamptz(3) not null, "accepted_at" timestamptz(3) null, "accepted_by_id" uuid null, primary key ("id"));`,
    );
    this.addSql(
      `create index "organization_invitations_organization_id_index" on "organization_invitations" ("organization_id");`,
    );
    this.addSql(
      `create index "organization_invitations_created_by_id_index" on "organization_invitations" ("created_by_id");`,
    );
    this.addSql(
      `create index "organization_invitations_accepted_by_id_index" on "organization_invitations" ("accepted_by_id");`,
    );

    this.addSql(
      `alter table "organizations" add "allowed_api_ip_addresses" text not null default '', add "members_require_two_factor_authentication" boolean not null default false;`,
    );

    this.addSql(
      `alter table "teams" add "members_can_create_suites" boolean not null default true, add "members_can_create_registries" boolean not null default true, add "members_can_destroy_registries" boolean not null default false, add "members_can_destroy_packages" boolean not null default false;`,
    );

    this.addSql(
      `alter table "organization_banners" add constraint "organization_banners_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "organization_invitations" add constraint "organization_invitations_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "organization_invitations" add constraint "organization_invitations_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "organization_invitations" add constraint "organization_invitations_accepted_by_id_foreign" foreign key ("accepted_by_id") references "users" ("id") on delete set null;`,
    );
  }

  override down(): void {
    this.addSql('drop table if exists "organization_banners" cascade;');
    this.addSql('drop table if exists "organization_invitations" cascade;');
    this.addSql(
      'alter table "organizations" drop column "allowed_api_ip_addresses", drop column "members_require_two_factor_authentication";',
    );
    this.addSql(
      'alter table "teams" drop column "members_can_create_suites", drop column "members_can_create_registries", drop column "members_can_destroy_registries", drop column "members_can_destroy_packages";',
    );
  }
}
