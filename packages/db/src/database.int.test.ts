import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../../test/support/database';
import { type Database, openDatabase } from './database';
import { migrationsList } from './migrations';
import { openOrm, unitsOfWork } from './orm';

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

describe('the unit of work', () => {
  it("is one EntityManager fork per request context, and a fork per call outside one, never another database's", async () => {
    const url = await freshDatabaseUrl();
    const [first, second] = await Promise.all([openOrm({ url, poolMax: 1 }), openOrm({ url, poolMax: 1 })]);
    try {
      const units = unitsOfWork(first);
      const em = units.entityManager;
      const otherEm = unitsOfWork(second).entityManager;
      const outside = [em(), em()];
      expect(outside[0]).not.toBe(outside[1]);
      expect(outside[0]).not.toBe(first.em);
      const inside = await units.run(async () => {
        const before = em();
        await new Promise((resolve) => setTimeout(resolve, 1));
        return [before, em(), otherEm()];
      });
      expect(inside[0]).toBe(inside[1]);
      expect(inside[0]).not.toBe(first.em);
      expect(inside[2]?.getMetadata()).toBe(second.em.getMetadata());
      const another = units.run(() => em());
      expect(another).not.toBe(inside[0]);
    } finally {
      await Promise.all([first.close(true), second.close(true)]);
    }
  });
});
