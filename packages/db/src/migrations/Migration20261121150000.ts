import { Migration } from '@mikro-orm/migrations';

/**
 * What GraphQL's \`Agent\` shows beyond REST's embedded agent: the version and pid it registered with,
 * when it last connected, disconnected and sent a heartbeat; and an index for an organization's agents,
 * listed oldest first.
 */
export class Migration20261121150000 extends Migration {
  override name = 'Migration20261121150000';

  override up(): void {
    this.addSql(
      'alter table "agents" add "version" varchar(255) null, add "pid" varchar(32) null, add "connected_at" timestamptz(3) null, add "disconnected_at" timestamptz(3) null, add "heartbeat_at" timestamptz(3) null;',
    );
    this.addSql(
      'create index "agents_organization_order_idx" on "agents" ("organization_id", "created_at", "id");',
    );
  }

  override down(): void {
    this.addSql('drop index "agents_organization_order_idx";');
    this.addSql(
      'alter table "agents" drop column "version", drop column "pid", drop column "connected_at", drop column "disconnected_at", drop column "heartbeat_at";',
    );
  }
}
