import { Migration } from '@mikro-orm/migrations';

/**
 * A job's combination of its step's matrix (step-matrix.ts) and its timeout in minutes: both null for
 * every job before them, and for jobs outside a matrix or without a timeout.
 */
export class Migration20261127150000 extends Migration {
  override name = 'Migration20261127150000';

  override up(): void {
    this.addSql('alter table "jobs" add "matrix" jsonb null, add "timeout_in_minutes" int null;');
  }

  override down(): void {
    this.addSql('alter table "jobs" drop column "matrix", drop column "timeout_in_minutes";');
  }
}
