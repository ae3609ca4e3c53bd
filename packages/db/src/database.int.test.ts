import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../../test/support/database';
import { type Database, openDatabase } from './database';
import { migrationsList } from './migrations';

const opened: Database[] = [];
afterAll(async () => {
  for (const database of opened) await database.close();
});

async function open(url: string): Promise<Database> {
  const database = await openDatabase({ url, dataDir: '', embeddedPort: 0, poolMax: 2 });
  opened.push(database);
  return database;
}

const committed = migrationsList.map((migration) => migration.name);

describe('migrations at start', () => {
  it('apply every committed migration once, however many processes start together', async () => {
    const url = await freshDatabaseUrl({ template: 'template0' });
    const first = await Promise.all([open(url), open(url), open(url)]);
    expect(first.flatMap((database) => database.migrated).sort()).toEqual([...committed].sort());
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>('select name from schema_migrations order by id');
      expect(rows.map((row) => row.name)).toEqual(committed);
    } finally {
      await client.end();
    }
    expect((await open(url)).migrated).toEqual([]);
  });
});
