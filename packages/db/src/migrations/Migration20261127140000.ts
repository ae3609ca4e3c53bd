import { Migration } from '@mikro-orm/migrations';

/**
 * Build annotations: one per build and context (the key every write locks on), listed newest first;
 * the Markdown as sent beside the sanitised HTML rendered from it when it was written.
 */
export class Migration20261127140000 extends Migration {
  override name = 'Migration20261127140000';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "annotations" ("id" uuid not null, "build_id" uuid not null, "job_id" uuid null, "context" varchar(100) not null, "style" varchar(16) not null, "priority" int not null, "body" text not null, "body_html" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, primary key ("id"));`,
    );
    this.addSql(`create index "annotations_job_id_index" on "annotations" ("job_id");`);
    this.addSql(
      `create index "annotations_build_order_idx" on "annotations" ("build_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `alter table "annotations" add constraint "annotations_build_id_context_unique" unique ("build_id", "context");`,
    );

    this.addSql(
      `alter table "annotations" add constraint "annotations_build_id_foreign" foreign key ("build_id") references "builds" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "annotations" add constraint "annotations_job_id_foreign" foreign key ("job_id") references "jobs" ("id") on delete set null;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "annotations" cascade;`);
  }
}
