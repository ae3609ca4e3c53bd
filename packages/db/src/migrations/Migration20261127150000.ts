import { Migration } from '@mikro-orm/migrations';

/** A job's combination of its step's matrix (step-matrix.ts): null for every job before it and outside one. */
export class Migration20261127150000 extends Migration {
  override name = 'Migration20261127150000';

  override up(): void {
    this.addSql('alter table "jobs" add "matrix" jsonb null;');
  }

  override down(): void {
    this.addSql('alter table "jobs" drop column "matrix";');
  }
}
