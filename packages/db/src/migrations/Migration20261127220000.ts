import { Migration } from '@mikro-orm/migrations';

/** The group step a job's step came from (REST `group_key`), null outside a group. */
export class Migration20261127220000 extends Migration {
  override name = 'Migration20261127220000';

  override up(): void {
    this.addSql('alter table "jobs" add "group_key" text null;');
  }

  override down(): void {
    this.addSql('alter table "jobs" drop column "group_key";');
  }
}
