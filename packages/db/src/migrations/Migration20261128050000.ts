import { Migration } from '@mikro-orm/migrations';

/** Each nullable foreign key without an index, as pairs of table and column (`referencesIndex`). */
const REFERENCES: Array<[string, string]> = [
  ['builds', 'rebuilt_from_id'],
  ['jobs', 'unblocked_by_id'],
  ['agents', 'creator_id'],
  ['agent_registration_tokens', 'creator_id'],
  ['agent_registration_tokens', 'revoked_by_id'],
  ['rules', 'creator_id'],
  ['pipeline_templates', 'creator_id'],
  ['pipeline_templates', 'updater_id'],
  ['team_suites', 'creator_id'],
  ['notification_services', 'creator_id'],
];

/**
 * An index for every foreign key that had none: deleting a pipeline scanned all builds once per deleted
 * build for the builds rebuilt from it, and deleting a user scanned all jobs (and the smaller tables).
 * A job's agent's index holds only the jobs that have one: every new job added a null to it.
 */
export class Migration20261128050000 extends Migration {
  override name = 'Migration20261128050000';

  override up(): void {
    this.addSql('drop index "jobs_agent_id_index";');
    this.addSql('create index "jobs_agent_id_idx" on "jobs" ("agent_id") where "agent_id" is not null;');
    for (const [table, column] of REFERENCES) {
      this.addSql(
        `create index "${table}_${column}_idx" on "${table}" ("${column}") where "${column}" is not null;`,
      );
    }
  }

  override down(): void {
    for (const [table, column] of REFERENCES) this.addSql(`drop index "${table}_${column}_idx";`);
    this.addSql('drop index "jobs_agent_id_idx";');
    this.addSql('create index "jobs_agent_id_index" on "jobs" ("agent_id");');
  }
}
