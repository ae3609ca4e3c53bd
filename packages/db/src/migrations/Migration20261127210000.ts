import { Migration } from '@mikro-orm/migrations';

/**
 * The web app's sign-in sessions: the hash of each cookie's secret and the access token it signed in
 * with (deleting the token deletes its sessions); expired ones are swept by their expiry's index.
 */
export class Migration20261127210000 extends Migration {
  override name = 'Migration20261127210000';

  override up(): void {
    this.addSql(
      'create table "web_sessions" ("id" uuid not null, "session_hash" varchar(64) not null, "access_token_id" uuid not null, "created_at" timestamptz(3) not null, "expires_at" timestamptz(3) not null, primary key ("id"));',
    );
    this.addSql(
      'alter table "web_sessions" add constraint "web_sessions_session_hash_unique" unique ("session_hash");',
    );
    this.addSql('create index "web_sessions_access_token_id_index" on "web_sessions" ("access_token_id");');
    this.addSql('create index "web_sessions_expires_at_index" on "web_sessions" ("expires_at");');
    this.addSql(
      'alter table "web_sessions" add constraint "web_sessions_access_token_id_foreign" foreign key ("access_token_id") references "access_tokens" ("id") on delete cascade;',
    );
  }

  override down(): void {
    this.addSql('drop table if exists "web_sessions" cascade;');
  }
}
