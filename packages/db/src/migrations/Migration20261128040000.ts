import { Migration } from '@mikro-orm/migrations';

/** A block job's step's fields (what unblocking asks for), null for other jobs. */
export class Migration20261128040000 extends Migration {
  override name = 'Migration20261128040000';

  override up(): void {
    this.addSql('alter table "jobs" add "block_fields" jsonb null;');
  }

  override down(): void {
    this.addSql('alter table "jobs" drop column "block_fields";');
  }
}
