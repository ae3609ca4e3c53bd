import { Migration } from '@mikro-orm/migrations';

/** Agents run the jobs: registration tokens, agent access tokens, job policy and outcome, log chunks. */
export class Migration20261121130000 extends Migration {
  override name = 'Migration20261121130000';

  override up(): void {
    this.addSql(
      'create table "agent_registration_tokens" ("id" uuid not null, "organization_id" uuid not null, "token_hash" varchar(64) not null, "description" varchar(255) null, "created_at" timestamptz(3) not null, primary key ("id"));',
    );
    this.addSql(
      'create index "agent_registration_tokens_organization_id_index" on "agent_registration_tokens" ("organization_id");',
    );
    this.addSql(
      'alter table "agent_registration_tokens" add constraint "agent_registration_tokens_token_hash_unique" unique ("token_hash");',
    );
    this.addSql(
      'create table "job_log_chunks" ("job_id" uuid not null, "sequence" int not null, "byte_offset" bigint not null, "content" text not null, "received_at" timestamptz(3) not null, primary key ("job_id", "sequence"));',
    );
    this.addSql(
      'alter table "agents" add "access_token_hash" varchar(64) null, add "last_seen_at" timestamptz(3) null;',
    );
    this.addSql(
      'alter table "agents" add constraint "agents_access_token_hash_unique" unique ("access_token_hash");',
    );
    this.addSql(
      'alter table "jobs" add "soft_fail" boolean not null default false, add "continue_on_failure" boolean not null default false, add "retry_automatic_limit" int null, add "signal" varchar(32) null, add "signal_reason" varchar(64) null, add "unblocked_by_id" uuid null, add "unblocked_at" timestamptz(3) null;',
    );
    this.addSql(
      'alter table "jobs" add constraint "jobs_unblocked_by_id_foreign" foreign key ("unblocked_by_id") references "users" ("id") on delete set null;',
    );
    this.addSql(
      'create index "jobs_runnable_idx" on "jobs" ("runnable_at", "id") where "state" = \'scheduled\';',
    );
    this.addSql(
      'create unique index "jobs_one_active_per_agent_idx" on "jobs" ("agent_id") where "state" in (\'assigned\', \'accepted\', \'running\', \'canceling\');',
    );
    this.addSql(
      'alter table "agent_registration_tokens" add constraint "agent_registration_tokens_organization_id_foreign" foreign key ("organization_id") references "organizations" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "job_log_chunks" add constraint "job_log_chunks_job_id_foreign" foreign key ("job_id") references "jobs" ("id") on delete cascade;',
    );
  }

  override down(): void {
    this.addSql('drop table if exists "job_log_chunks" cascade;');
    this.addSql('drop table if exists "agent_registration_tokens" cascade;');
    this.addSql('drop index if exists "jobs_one_active_per_agent_idx";');
    this.addSql('drop index if exists "jobs_runnable_idx";');
    this.addSql(
      'alter table "jobs" drop column "soft_fail", drop column "continue_on_failure", drop column "retry_automatic_limit", drop column "signal", drop column "signal_reason", drop column "unblocked_by_id", drop column "unblocked_at";',
    );
    this.addSql('alter table "agents" drop column "access_token_hash", drop column "last_seen_at";');
  }
}
