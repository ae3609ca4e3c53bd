import { Migration } from '@mikro-orm/migrations';

/**
 * Agent tokens as GraphQL shows them: who created one through the API, whether it is public (kept, not
 * read), and its revocation (when, by whom, why). A revoked token registers no more agents.
 */
export class Migration20261127033000 extends Migration {
  override name = 'Migration20261127033000';

  override up(): void {
    this.addSql(
      'alter table "agent_registration_tokens" add "creator_id" uuid null, add "public" boolean not null default false, add "revoked_at" timestamptz(3) null, add "revoked_by_id" uuid null, add "revoked_reason" varchar(255) null;',
    );
    this.addSql(
      'alter table "agent_registration_tokens" add constraint "agent_registration_tokens_creator_id_foreign" foreign key ("creator_id") references "users" ("id") on delete set null;',
    );
    this.addSql(
      'alter table "agent_registration_tokens" add constraint "agent_registration_tokens_revoked_by_id_foreign" foreign key ("revoked_by_id") references "users" ("id") on delete set null;',
    );
  }

  override down(): void {
    this.addSql(
      'alter table "agent_registration_tokens" drop constraint "agent_registration_tokens_creator_id_foreign", drop constraint "agent_registration_tokens_revoked_by_id_foreign";',
    );
    this.addSql(
      'alter table "agent_registration_tokens" drop column "creator_id", drop column "public", drop column "revoked_at", drop column "revoked_by_id", drop column "revoked_reason";',
    );
  }
}
