import { Migration } from '@mikro-orm/migrations';

/**
 * Inbound events (ADR 0020): a pipeline's webhook token may be dropped (`pipelineDeleteWebhook`) and its
 * deliveries signed with a secret of its own, kept as given (an HMAC needs it); pipeline triggers, each
 * found by the SHA-256 of its `bktr_` token.
 */
export class Migration20261127180000 extends Migration {
  override name = 'Migration20261127180000';

  override up(): void {
    this.addSql('alter table "pipelines" alter column "webhook_token" drop not null;');
    this.addSql('alter table "pipelines" add "webhook_secret" varchar(255) null;');
    this.addSql(
      `create table "pipeline_triggers" ("id" uuid not null, "pipeline_id" uuid not null, "label" varchar(255) not null, "enabled" boolean not null default true, "token_hash" varchar(64) not null, "branch" varchar(255) null, "commit" varchar(255) null, "message" text null, "created_by_id" uuid null, "created_at" timestamptz(3) not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "pipeline_triggers" add constraint "pipeline_triggers_token_hash_unique" unique ("token_hash");`,
    );
    this.addSql(
      `create index "pipeline_triggers_created_by_id_index" on "pipeline_triggers" ("created_by_id");`,
    );
    this.addSql(
      `create index "pipeline_triggers_pipeline_id_created_at_id_index" on "pipeline_triggers" ("pipeline_id", "created_at", "id");`,
    );
    this.addSql(
      `alter table "pipeline_triggers" add constraint "pipeline_triggers_pipeline_id_foreign" foreign key ("pipeline_id") references "pipelines" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "pipeline_triggers" add constraint "pipeline_triggers_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null;`,
    );
  }

  override down(): void {
    this.addSql('drop table if exists "pipeline_triggers" cascade;');
    this.addSql('alter table "pipelines" drop column "webhook_secret";');
    // Pipelines whose webhook was deleted get a token again before the column is required.
    this.addSql(
      `update "pipelines" set "webhook_token" = substr(md5(random()::text) || md5(random()::text), 1, 50) where "webhook_token" is null;`,
    );
    this.addSql('alter table "pipelines" alter column "webhook_token" set not null;');
  }
}
