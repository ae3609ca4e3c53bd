import { Migration } from '@mikro-orm/migrations';

/** An agent's row without the columns its protocol moves while nothing an answer shows changes. */
const shown = (row: 'old' | 'new', quiet: string[]) =>
  `to_jsonb(${row})${quiet.map((column) => ` - '${column}'`).join('')}`;

/**
 * An agent's heartbeat leaves the catalog revision alone (ADR 0012). Migration20261125090000 left out
 * `last_seen_at`, but a heartbeat also moves `heartbeat_at` (agent.repository.ts `touch`), which no kept
 * answer shows either (REST shows neither; GraphQL's `heartbeatAt` is not among kept-answers.ts's fields):
 * every heartbeat of every agent made a new catalog revision, so every kept answer was made again, and
 * heartbeats queued on the one `catalog_revision` row. Connects and disconnects still revise (they
 * change the connection state and its times, which answers show).
 */
export class Migration20261125130000 extends Migration {
  override name = 'Migration20261125130000';

  override up(): void {
    this.replaceTrigger(['last_seen_at', 'heartbeat_at']);
  }

  override down(): void {
    this.replaceTrigger(['last_seen_at']);
  }

  private replaceTrigger(quiet: string[]): void {
    this.addSql('drop trigger agents_catalog_revised on agents;');
    this.addSql(`create trigger agents_catalog_revised after update on agents for each row
  when (${shown('old', quiet)} is distinct from ${shown('new', quiet)}) execute function catalog_revised();`);
  }
}
