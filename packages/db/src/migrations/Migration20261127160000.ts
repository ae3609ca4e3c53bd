import { Migration } from '@mikro-orm/migrations';

/**
 * Trigger jobs: the step they run (`trigger`) and the build they made (`triggered_build_id`, no foreign
 * key: it is chosen before the build is written). The server's trigger pass finds the trigger jobs that
 * have something to do through a small partial index, and a build's `triggered_from` through the other.
 */
export class Migration20261127160000 extends Migration {
  override name = 'Migration20261127160000';

  override up(): void {
    this.addSql('alter table "jobs" add "trigger" jsonb null, add "triggered_build_id" uuid null;');
    this.addSql(
      'create index "jobs_triggered_build_idx" on "jobs" ("triggered_build_id") where "triggered_build_id" is not null;',
    );
    this.addSql(
      'create index "jobs_trigger_due_idx" on "jobs" ("build_id") where "type" = \'trigger\' and "state" in (\'scheduled\', \'running\');',
    );
  }

  override down(): void {
    this.addSql('drop index "jobs_trigger_due_idx";');
    this.addSql('drop index "jobs_triggered_build_idx";');
    this.addSql('alter table "jobs" drop column "trigger", drop column "triggered_build_id";');
  }
}
