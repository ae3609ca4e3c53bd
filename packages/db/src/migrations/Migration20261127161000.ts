import { Migration } from '@mikro-orm/migrations';

/**
 * A command job's concurrency group and limit (its step's `concurrency_group` and `concurrency`), null
 * for jobs without; dispatch counts a group's held and waiting jobs through the partial index.
 */
export class Migration20261127161000 extends Migration {
  override name = 'Migration20261127161000';

  override up(): void {
    this.addSql('alter table "jobs" add "concurrency_group" text null, add "concurrency_limit" int null;');
    this.addSql(
      'create index "jobs_concurrency_group_idx" on "jobs" ("concurrency_group", "created_at") where "concurrency_group" is not null and "state" in (\'scheduled\', \'assigned\', \'accepted\', \'running\', \'canceling\');',
    );
  }

  override down(): void {
    this.addSql('drop index "jobs_concurrency_group_idx";');
    this.addSql('alter table "jobs" drop column "concurrency_group", drop column "concurrency_limit";');
  }
}
