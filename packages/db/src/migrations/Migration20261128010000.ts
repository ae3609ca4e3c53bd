import { Migration } from '@mikro-orm/migrations';

/**
 * Pipeline schedules (ADR 0024): each keeps the tick it owes a build for (`next_build_at`), which the
 * `pipeline_schedules_tick` task claims and advances in the transaction that creates the build; and which
 * schedule made which build.
 */
export class Migration20261128010000 extends Migration {
  override name = 'Migration20261128010000';

  override up(): void {
    this.addSql(
      `create table "pipeline_schedules" ("id" uuid not null, "pipeline_id" uuid not null, "label" varchar(255) not null, "cronline" varchar(255) not null, "branch" varchar(255) null, "commit" varchar(255) null, "message" text null, "env" jsonb not null, "enabled" boolean not null default true, "next_build_at" timestamptz(3) null, "failed_at" timestamptz(3) null, "failed_message" text null, "created_by_id" uuid null, "created_at" timestamptz(3) not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "pipeline_schedules_created_by_id_index" on "pipeline_schedules" ("created_by_id");`,
    );
    this.addSql(
      `create index "pipeline_schedules_pipeline_id_created_at_id_index" on "pipeline_schedules" ("pipeline_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "pipeline_schedules_next_build_at_index" on "pipeline_schedules" ("next_build_at");`,
    );
    this.addSql(
      `create table "pipeline_schedule_builds" ("build_id" uuid not null, "pipeline_schedule_id" uuid not null, primary key ("build_id"));`,
    );
    this.addSql(
      `create index "pipeline_schedule_builds_pipeline_schedule_id_index" on "pipeline_schedule_builds" ("pipeline_schedule_id");`,
    );
    this.addSql(
      `alter table "pipeline_schedules" add constraint "pipeline_schedules_pipeline_id_foreign" foreign key ("pipeline_id") references "pipelines" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "pipeline_schedules" add constraint "pipeline_schedules_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "pipeline_schedule_builds" add constraint "pipeline_schedule_builds_build_id_foreign" foreign key ("build_id") references "builds" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "pipeline_schedule_builds" add constraint "pipeline_schedule_builds_pipeline_schedule_id_foreign" foreign key ("pipeline_schedule_id") references "pipeline_schedules" ("id") on delete cascade;`,
    );
  }

  override down(): void {
    this.addSql('drop table if exists "pipeline_schedule_builds" cascade;');
    this.addSql('drop table if exists "pipeline_schedules" cascade;');
  }
}
