import { Migration } from '@mikro-orm/migrations';

export class Migration20261121035716 extends Migration {
  override name = 'Migration20261121035716';

  override up(): void {
    this.addSql(
      'create table "organizations" ("id" uuid not null, "slug" varchar(255) not null, "name" varchar(255) not null, "created_at" timestamptz(3) not null, primary key ("id"));',
    );
    this.addSql('alter table "organizations" add constraint "organizations_slug_unique" unique ("slug");');
    this.addSql(
      'create table "pipelines" ("id" uuid not null, "organization_id" uuid not null, "slug" varchar(255) not null, "name" varchar(255) not null, "description" text null, "repository" varchar(1024) not null, "default_branch" varchar(255) null, "branch_configuration" varchar(1024) null, "steps" jsonb not null, "provider" jsonb not null, "webhook_token" varchar(64) not null, "skip_queued_branch_builds" boolean not null default false, "skip_queued_branch_builds_filter" varchar(1024) null, "cancel_running_branch_builds" boolean not null default false, "cancel_running_branch_builds_filter" varchar(1024) null, "next_build_number" int not null default 1, "archived_at" timestamptz(3) null, "created_at" timestamptz(3) not null, primary key ("id"));',
    );
    this.addSql(
      'alter table "pipelines" add constraint "pipelines_webhook_token_unique" unique ("webhook_token");',
    );
    this.addSql(
      'alter table "pipelines" add constraint "pipelines_organization_id_slug_unique" unique ("organization_id", "slug");',
    );
    this.addSql(
      'create table "registries" ("id" uuid not null, "organization_id" uuid not null, "slug" varchar(255) not null, "name" varchar(255) not null, "ecosystem" varchar(32) not null, "description" text null, "emoji" varchar(255) null, "color" varchar(255) null, "public" boolean not null default false, "oidc_policy" text null, "created_at" timestamptz(3) not null, primary key ("id"));',
    );
    this.addSql(
      'alter table "registries" add constraint "registries_organization_id_slug_unique" unique ("organization_id", "slug");',
    );
    this.addSql(
      'create table "teams" ("id" uuid not null, "organization_id" uuid not null, "slug" varchar(255) not null, "name" varchar(255) not null, "description" text null, "privacy" varchar(16) not null default \'visible\', "is_default_team" boolean not null default false, "created_at" timestamptz(3) not null, primary key ("id"));',
    );
    this.addSql(
      'alter table "teams" add constraint "teams_organization_id_slug_unique" unique ("organization_id", "slug");',
    );
    this.addSql(
      'create table "team_pipelines" ("team_id" uuid not null, "pipeline_id" uuid not null, "access_level" varchar(32) not null, "created_at" timestamptz(3) not null, primary key ("team_id", "pipeline_id"));',
    );
    this.addSql('create index "team_pipelines_pipeline_id_index" on "team_pipelines" ("pipeline_id");');
    this.addSql(
      'create table "users" ("id" uuid not null, "name" varchar(255) not null, "email" varchar(255) not null, "avatar_url" varchar(1024) null, "created_at" timestamptz(3) not null, primary key ("id"));',
    );
    this.addSql('alter table "users" add constraint "users_email_unique" unique ("email");');
    this.addSql(
      'create table "team_members" ("team_id" uuid not null, "user_id" uuid not null, "role" varchar(16) not null, "created_at" timestamptz(3) not null, primary key ("team_id", "user_id"));',
    );
    this.addSql('create index "team_members_user_id_index" on "team_members" ("user_id");');
    this.addSql(
      'create table "organization_members" ("organization_id" uuid not null, "user_id" uuid not null, "role" varchar(16) not null, "created_at" timestamptz(3) not null, primary key ("organization_id", "user_id"));',
    );
    this.addSql('create index "organization_members_user_id_index" on "organization_members" ("user_id");');
    this.addSql(
      'create table "builds" ("id" uuid not null, "organization_id" uuid not null, "pipeline_id" uuid not null, "number" int not null, "state" varchar(16) not null, "blocked_state" varchar(16) null, "cancel_reason" text null, "message" text null, "commit" varchar(255) not null, "branch" varchar(255) not null, "env" jsonb not null, "meta_data" jsonb not null, "source" varchar(16) not null, "author" jsonb null, "creator_id" uuid null, "rebuilt_from_id" uuid null, "pull_request" jsonb null, "clean_checkout" boolean not null default false, "created_at" timestamptz(3) not null, "scheduled_at" timestamptz(3) null, "started_at" timestamptz(3) null, "failing_at" timestamptz(3) null, "finished_at" timestamptz(3) null, primary key ("id"));',
    );
    this.addSql(
      'create index "builds_pipeline_order_idx" on "builds" ("pipeline_id", "created_at" desc, "number" desc);',
    );
    this.addSql(
      'create index "builds_organization_order_idx" on "builds" ("organization_id", "created_at" desc, "number" desc);',
    );
    this.addSql('create index "builds_order_idx" on "builds" ("created_at" desc, "number" desc);');
    this.addSql(
      'create index "builds_pipeline_branch_idx" on "builds" ("pipeline_id", "branch", "created_at" desc, "number" desc);',
    );
    this.addSql(
      'create index "builds_pipeline_state_idx" on "builds" ("pipeline_id", "state", "created_at" desc, "number" desc);',
    );
    this.addSql('create index "builds_commit_idx" on "builds" ("commit");');
    this.addSql('create index "builds_creator_idx" on "builds" ("creator_id");');
    this.addSql('create index "builds_finished_at_idx" on "builds" ("finished_at");');
    this.addSql('create index "builds_meta_data_idx" on "builds" using gin ("meta_data" jsonb_path_ops);');
    this.addSql(
      'alter table "builds" add constraint "builds_pipeline_id_number_unique" unique ("pipeline_id", "number");',
    );
    this.addSql(
      'create table "agents" ("id" uuid not null, "organization_id" uuid not null, "name" varchar(255) not null, "hostname" varchar(255) null, "ip_address" varchar(64) null, "user_agent" varchar(255) null, "connection_state" varchar(32) not null, "tags" text[] not null, "creator_id" uuid null, "created_at" timestamptz(3) not null, primary key ("id"));',
    );
    this.addSql(
      'create table "jobs" ("id" uuid not null, "build_id" uuid not null, "step_id" uuid null, "position" int not null, "type" varchar(16) not null, "name" text null, "step_key" varchar(255) null, "command" text null, "state" varchar(16) not null, "agent_query_rules" text[] not null, "agent_id" uuid null, "exit_status" int null, "soft_failed" boolean not null default false, "artifact_paths" text null, "env" jsonb not null, "retried" boolean not null default false, "retried_in_job_id" uuid null, "retries_count" int null, "retry_type" varchar(16) null, "parallel_group_index" int null, "parallel_group_total" int null, "created_at" timestamptz(3) not null, "scheduled_at" timestamptz(3) null, "runnable_at" timestamptz(3) null, "started_at" timestamptz(3) null, "finished_at" timestamptz(3) null, primary key ("id"));',
    );
    this.addSql('create index "jobs_agent_id_index" on "jobs" ("agent_id");');
    this.addSql('create index "jobs_build_position_idx" on "jobs" ("build_id", "position");');
    this.addSql(
      'create table "access_tokens" ("id" uuid not null, "user_id" uuid not null, "token_hash" varchar(64) not null, "scopes" text[] not null, "organization_ids" uuid[] null, "description" varchar(255) null, "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) null, "revoked_at" timestamptz(3) null, primary key ("id"));',
    );
    this.addSql('create index "access_tokens_user_id_index" on "access_tokens" ("user_id");');
    this.addSql(
      'alter table "access_tokens" add constraint "access_tokens_token_hash_unique" unique ("token_hash");',
    );
    this.addSql(
      'alter table "pipelines" add constraint "pipelines_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "registries" add constraint "registries_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "teams" add constraint "teams_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "team_pipelines" add constraint "team_pipelines_team_id_foreign" foreign key ("team_id") references "teams" ("id") on update cascade on delete cascade;',
    );
    this.addSql(
      'alter table "team_pipelines" add constraint "team_pipelines_pipeline_id_foreign" foreign key ("pipeline_id") references "pipelines" ("id") on update cascade on delete cascade;',
    );
    this.addSql(
      'alter table "team_members" add constraint "team_members_team_id_foreign" foreign key ("team_id") references "teams" ("id") on update cascade on delete cascade;',
    );
    this.addSql(
      'alter table "team_members" add constraint "team_members_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;',
    );
    this.addSql(
      'alter table "organization_members" add constraint "organization_members_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on update cascade on delete cascade;',
    );
    this.addSql(
      'alter table "organization_members" add constraint "organization_members_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;',
    );
    this.addSql(
      'alter table "builds" add constraint "builds_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "builds" add constraint "builds_pipeline_id_foreign" foreign key ("pipeline_id") references "pipelines" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "builds" add constraint "builds_creator_id_foreign" foreign key ("creator_id") references "users" ("id") on delete set null;',
    );
    this.addSql(
      'alter table "builds" add constraint "builds_rebuilt_from_id_foreign" foreign key ("rebuilt_from_id") references "builds" ("id") on delete set null;',
    );
    this.addSql(
      'alter table "agents" add constraint "agents_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "agents" add constraint "agents_creator_id_foreign" foreign key ("creator_id") references "users" ("id") on delete set null;',
    );
    this.addSql(
      'alter table "jobs" add constraint "jobs_build_id_foreign" foreign key ("build_id") references "builds" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "jobs" add constraint "jobs_agent_id_foreign" foreign key ("agent_id") references "agents" ("id") on delete set null;',
    );
    this.addSql(
      'alter table "access_tokens" add constraint "access_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;',
    );
  }

  override down(): void {
    this.addSql('alter table "pipelines" drop constraint "pipelines_organization_id_foreign";');
    this.addSql('alter table "registries" drop constraint "registries_organization_id_foreign";');
    this.addSql('alter table "teams" drop constraint "teams_organization_id_foreign";');
    this.addSql(
      'alter table "organization_members" drop constraint "organization_members_organization_id_foreign";',
    );
    this.addSql('alter table "builds" drop constraint "builds_organization_id_foreign";');
    this.addSql('alter table "agents" drop constraint "agents_organization_id_foreign";');
    this.addSql('alter table "team_pipelines" drop constraint "team_pipelines_pipeline_id_foreign";');
    this.addSql('alter table "builds" drop constraint "builds_pipeline_id_foreign";');
    this.addSql('alter table "team_pipelines" drop constraint "team_pipelines_team_id_foreign";');
    this.addSql('alter table "team_members" drop constraint "team_members_team_id_foreign";');
    this.addSql('alter table "team_members" drop constraint "team_members_user_id_foreign";');
    this.addSql('alter table "organization_members" drop constraint "organization_members_user_id_foreign";');
    this.addSql('alter table "builds" drop constraint "builds_creator_id_foreign";');
    this.addSql('alter table "agents" drop constraint "agents_creator_id_foreign";');
    this.addSql('alter table "access_tokens" drop constraint "access_tokens_user_id_foreign";');
    this.addSql('alter table "builds" drop constraint "builds_rebuilt_from_id_foreign";');
    this.addSql('alter table "jobs" drop constraint "jobs_build_id_foreign";');
    this.addSql('alter table "jobs" drop constraint "jobs_agent_id_foreign";');
    this.addSql('drop table if exists "organizations" cascade;');
    this.addSql('drop table if exists "pipelines" cascade;');
    this.addSql('drop table if exists "registries" cascade;');
    this.addSql('drop table if exists "teams" cascade;');
    this.addSql('drop table if exists "team_pipelines" cascade;');
    this.addSql('drop table if exists "users" cascade;');
    this.addSql('drop table if exists "team_members" cascade;');
    this.addSql('drop table if exists "organization_members" cascade;');
    this.addSql('drop table if exists "builds" cascade;');
    this.addSql('drop table if exists "agents" cascade;');
    this.addSql('drop table if exists "jobs" cascade;');
    this.addSql('drop table if exists "access_tokens" cascade;');
  }
}
