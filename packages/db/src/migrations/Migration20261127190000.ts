import { Migration } from '@mikro-orm/migrations';

/** Responses kept under their `Idempotency-Key` for a day (idempotency-key.entity.ts). */
export class Migration20261127190000 extends Migration {
  override name = 'Migration20261127190000';

  override up(): void {
    this.addSql(
      'create table "idempotency_keys" ("user_id" uuid not null, "key" varchar(255) not null, "request_hash" varchar(64) not null, "status" int null, "content_type" varchar(255) null, "body" text null, "locked_until" timestamptz(3) not null, "expires_at" timestamptz(3) not null, primary key ("user_id", "key"));',
    );
    this.addSql('create index "idempotency_keys_expires_at_index" on "idempotency_keys" ("expires_at");');
  }

  override down(): void {
    this.addSql('drop table if exists "idempotency_keys" cascade;');
  }
}
