import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../../test/support/database';
import { type Database, openDatabase } from './database';
import { migrationNames } from './migrations/names';
import { openPool } from './pool';
import { pendingMigrations } from './startup-migrations';

const opened: Database[] = [];
afterAll(async () => {
  for (const database of opened) await database.close();
});

async function open(url: string): Promise<Database> {
  const database = await openDatabase({ url, dataDir: '', embeddedPort: 0, poolMax: 2 });
  opened.push(database);
  return database;
}

describe('migrations at start', () => {
  it('apply every committed migration once, however many processes start together', async () => {
    const url = await freshDatabaseUrl({ template: 'template0' });
    const pool = openPool({ url, max: 1 });
    try {
      expect(await pendingMigrations(pool)).toEqual(migrationNames);
      const first = await Promise.all([open(url), open(url), open(url)]);
      expect(first.flatMap((database) => database.migrated).sort()).toEqual([...migrationNames].sort());
      expect(await pendingMigrations(pool)).toEqual([]);
      const { rows } = await pool.query<{ name: string }>('select name from schema_migrations order by id');
      expect(rows.map((row) => row.name)).toEqual(migrationNames);
      expect((await open(url)).migrated).toEqual([]);
    } finally {
      await pool.end();
    }
  });

  it('find pending the committed migrations schema_migrations does not record, as MikroORM does', async () => {
    const url = await freshDatabaseUrl();
    const pool = openPool({ url, max: 1 });
    try {
      expect(await pendingMigrations(pool)).toEqual([]);
      const [first, last] = [migrationNames[0]!, migrationNames.at(-1)!];
      // The migrator compares names without a `.ts`/`.js` ending, and ignores names it does not know.
      await pool.query("update schema_migrations set name = name || '.ts' where name = $1", [first]);
      await pool.query("insert into schema_migrations (name) values ('Migration29990101000000')");
      await pool.query('delete from schema_migrations where name = $1', [last]);
      expect(await pendingMigrations(pool)).toEqual([last]);
    } finally {
      await pool.end();
    }
  });
});
