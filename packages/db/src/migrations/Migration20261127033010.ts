import { Migration } from '@mikro-orm/migrations';

/**
 * Organization rules (`pipeline.trigger_build.pipeline`, `pipeline.artifacts_read.pipeline`): stored with
 * their pipelines, gone with either of them; listed newest first. Nothing enforces them yet.
 */
export class Migration20261127033010 extends Migration {
  override name = 'Migration20261127033010';

  override up(): void {
    this.addSql(
      'create table "rules" ("id" uuid not null, "organization_id" uuid not null, "type" varchar(64) not null, "source_pipeline_id" uuid not null, "target_pipeline_id" uuid not null, "value" jsonb not null, "description" text null, "creator_id" uuid null, "created_at" timestamptz(3) not null, primary key ("id"));',
    );
    this.addSql('create index "rules_source_pipeline_id_index" on "rules" ("source_pipeline_id");');
    this.addSql('create index "rules_target_pipeline_id_index" on "rules" ("target_pipeline_id");');
    this.addSql(
      'create index "rules_organization_order_idx" on "rules" ("organization_id", "created_at" desc, "id" desc);',
    );
    this.addSql(
      'alter table "rules" add constraint "rules_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "rules" add constraint "rules_source_pipeline_id_foreign" foreign key ("source_pipeline_id") references "pipelines" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "rules" add constraint "rules_target_pipeline_id_foreign" foreign key ("target_pipeline_id") references "pipelines" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "rules" add constraint "rules_creator_id_foreign" foreign key ("creator_id") references "users" ("id") on delete set null;',
    );
  }

  override down(): void {
    this.addSql('drop table if exists "rules" cascade;');
  }
}
