import { Migration } from '@mikro-orm/migrations';

/**
 * REST's agent controls: an agent's pause (when, why, until when; `stopping` and `stopped` are
 * connection states and need no column), and an index for each agent's last finished job.
 */
export class Migration20261127030000 extends Migration {
  override name = 'Migration20261127030000';

  override up(): void {
    this.addSql(
      'alter table "agents" add "paused_at" timestamptz(3) null, add "pause_note" text null, add "paused_until" timestamptz(3) null;',
    );
    this.addSql(
      'create index "jobs_agent_finished_idx" on "jobs" ("agent_id", "finished_at") where "agent_id" is not null and "finished_at" is not null;',
    );
  }

  override down(): void {
    this.addSql('drop index "jobs_agent_finished_idx";');
    this.addSql(
      'alter table "agents" drop column "paused_at", drop column "pause_note", drop column "paused_until";',
    );
  }
}
