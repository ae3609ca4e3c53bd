import { Migration } from '@mikro-orm/migrations';

/** The tables access is decided from that the catalog did not cover yet, and what of theirs revises it. */
export const ACCESS: { table: string; added: boolean }[] = [
  // A new token names a hash no server remembers: only a change to an existing one matters.
  { table: 'access_tokens', added: false },
  { table: 'team_members', added: true },
  { table: 'team_pipelines', added: true },
];

/**
 * The catalog revision also moves when what decides access changes (ADR 0013): a token changed or removed
 * (revoked, its scopes or organizations changed), and teams' members and pipelines added, changed or
 * removed. Users, organizations and memberships revise it already (Migration20261125090000), and a
 * pipeline's own row has its revision. So a server that remembers what a token may do on a pipeline,
 * with the catalog and pipeline revisions it read that at, sees every change to it, whichever process
 * made it, by reading those two revisions.
 *
 * One row for both, not a second one: a transaction that changed a membership and a team would
 * otherwise lock two shared rows, in either order. (Its triggers lock the row from the statement on; since
 * Migration20261125170000 they lock it at commit, ADR 0013.)
 */
export class Migration20261125150000 extends Migration {
  override name = 'Migration20261125150000';

  override up(): void {
    for (const { table, added } of ACCESS) {
      this.addSql(`create trigger ${table}_catalog_revised after update on ${table} for each row
  when (old is distinct from new) execute function catalog_revised();`);
      this.addSql(`create trigger ${table}_catalog_removed after delete or truncate on ${table}
  for each statement execute function catalog_revised();`);
      if (added) {
        this.addSql(`create trigger ${table}_catalog_added after insert on ${table}
  for each statement execute function catalog_revised();`);
      }
    }
  }

  override down(): void {
    for (const { table, added } of ACCESS) {
      if (added) this.addSql(`drop trigger if exists ${table}_catalog_added on ${table};`);
      this.addSql(`drop trigger if exists ${table}_catalog_removed on ${table};`);
      this.addSql(`drop trigger if exists ${table}_catalog_revised on ${table};`);
    }
  }
}
