import { Migration } from '@mikro-orm/migrations';

/** Artifacts: the files jobs upload, listed by build and by job, oldest first. */
export class Migration20261127130000 extends Migration {
  override name = 'Migration20261127130000';

  override up(): void {
    this.addSql(
      'create table "artifacts" ("id" uuid not null, "job_id" uuid not null, "build_id" uuid not null, "path" text not null, "glob_path" text null, "original_path" text null, "mime_type" varchar(255) not null, "file_size" bigint not null, "sha1sum" varchar(40) not null, "sha256sum" varchar(64) null, "state" varchar(16) not null, "created_at" timestamptz(3) not null, "uploaded_at" timestamptz(3) null, primary key ("id"));',
    );
    this.addSql('create index "artifacts_build_order_idx" on "artifacts" ("build_id", "created_at", "id");');
    this.addSql('create index "artifacts_job_order_idx" on "artifacts" ("job_id", "created_at", "id");');
    this.addSql(
      'alter table "artifacts" add constraint "artifacts_job_id_foreign" foreign key ("job_id") references "jobs" ("id") on delete cascade;',
    );
    this.addSql(
      'alter table "artifacts" add constraint "artifacts_build_id_foreign" foreign key ("build_id") references "builds" ("id") on delete cascade;',
    );
  }

  override down(): void {
    this.addSql('drop table if exists "artifacts" cascade;');
  }
}
