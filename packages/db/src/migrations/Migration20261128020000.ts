import { Migration } from '@mikro-orm/migrations';

/**
 * The agents a sweep may mark `lost` (connected or stopping), by when they were last heard of: the
 * sweep reads only these, however many agents have come and gone.
 */
export class Migration20261128020000 extends Migration {
  override name = 'Migration20261128020000';

  override up(): void {
    this.addSql(
      `create index "agents_losable_idx" on "agents" ((coalesce("last_seen_at", "created_at")))
       where "connection_state" in ('connected', 'stopping');`,
    );
  }

  override down(): void {
    this.addSql('drop index "agents_losable_idx";');
  }
}
