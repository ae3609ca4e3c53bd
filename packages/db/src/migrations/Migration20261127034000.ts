import { Migration } from '@mikro-orm/migrations';

/**
 * Clusters, their queues and agent tokens (issue 28), and the foreign key of `pipelines.cluster_id`, which
 * until now was a UUID stored as given: no cluster existed, so every value named none and becomes null
 * here. A cluster that pipelines use cannot be deleted (`no action`: the use case answers 422 first).
 */
export class Migration20261127034000 extends Migration {
  override name = 'Migration20261127034000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "clusters" ("id" uuid not null, "organization_id" uuid not null, "name" varchar(255) not null, "description" text null, "emoji" varchar(255) null, "color" varchar(255) null, "default_queue_id" uuid null, "created_by_id" uuid null, "created_at" timestamptz(3) not null, primary key ("id"));`,
    );
    this.addSql(`create index "clusters_default_queue_id_index" on "clusters" ("default_queue_id");`);
    this.addSql(`create index "clusters_created_by_id_index" on "clusters" ("created_by_id");`);
    this.addSql(
      `create index "clusters_organization_id_created_at_id_index" on "clusters" ("organization_id", "created_at", "id");`,
    );

    this.addSql(
      `create table "cluster_tokens" ("id" uuid not null, "cluster_id" uuid not null, "description" text not null, "token_hash" varchar(64) not null, "allowed_ip_addresses" text null, "expires_at" timestamptz(3) null, "created_by_id" uuid null, "created_at" timestamptz(3) not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "cluster_tokens" add constraint "cluster_tokens_token_hash_unique" unique ("token_hash");`,
    );
    this.addSql(`create index "cluster_tokens_created_by_id_index" on "cluster_tokens" ("created_by_id");`);
    this.addSql(
      `create index "cluster_tokens_cluster_id_created_at_id_index" on "cluster_tokens" ("cluster_id", "created_at", "id");`,
    );

    this.addSql(
      `create table "cluster_queues" ("id" uuid not null, "cluster_id" uuid not null, "key" varchar(255) not null, "description" text null, "dispatch_paused_at" timestamptz(3) null, "dispatch_paused_by_id" uuid null, "dispatch_paused_note" text null, "hosted_agents" jsonb null, "retry_agent_affinity" varchar(32) not null default 'prefer-warmest', "created_by_id" uuid null, "created_at" timestamptz(3) not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "cluster_queues_dispatch_paused_by_id_index" on "cluster_queues" ("dispatch_paused_by_id");`,
    );
    this.addSql(`create index "cluster_queues_created_by_id_index" on "cluster_queues" ("created_by_id");`);
    this.addSql(
      `alter table "cluster_queues" add constraint "cluster_queues_cluster_id_key_unique" unique ("cluster_id", "key");`,
    );

    this.addSql(`update "pipelines" set "cluster_id" = null where "cluster_id" is not null;`);
    this.addSql(
      `alter table "pipelines" add constraint "pipelines_cluster_id_foreign" foreign key ("cluster_id") references "clusters" ("id") on delete no action;`,
    );
    this.addSql(`create index "pipelines_cluster_id_index" on "pipelines" ("cluster_id");`);

    this.addSql(
      `alter table "clusters" add constraint "clusters_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "clusters" add constraint "clusters_default_queue_id_foreign" foreign key ("default_queue_id") references "cluster_queues" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "clusters" add constraint "clusters_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "cluster_tokens" add constraint "cluster_tokens_cluster_id_foreign" foreign key ("cluster_id") references "clusters" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "cluster_tokens" add constraint "cluster_tokens_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null;`,
    );

    this.addSql(
      `alter table "cluster_queues" add constraint "cluster_queues_cluster_id_foreign" foreign key ("cluster_id") references "clusters" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "cluster_queues" add constraint "cluster_queues_dispatch_paused_by_id_foreign" foreign key ("dispatch_paused_by_id") references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "cluster_queues" add constraint "cluster_queues_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null;`,
    );
  }

  override down(): void | Promise<void> {
    // The cluster ids pipelines had are lost with the clusters; the column stays, without its key.
    this.addSql(`alter table "pipelines" drop constraint "pipelines_cluster_id_foreign";`);
    this.addSql(`drop index "pipelines_cluster_id_index";`);
    this.addSql(`update "pipelines" set "cluster_id" = null where "cluster_id" is not null;`);
    this.addSql(`drop table if exists "cluster_tokens" cascade;`);
    this.addSql(`drop table if exists "cluster_queues" cascade;`);
    this.addSql(`drop table if exists "clusters" cascade;`);
  }
}
