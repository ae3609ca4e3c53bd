import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../../test/support/database';
import { countMessages } from '../../../test/support/pg-messages';
import { executePair, type NamedStatement } from './pg-statement-pairs';
import { openPool } from './pool';

/* Two prepared statements in one round trip (pg-statement-pairs.ts), on real connections. */

let db: TestDatabase;
let pool: pg.Pool;
beforeAll(async () => {
  db = await freshDatabase();
  pool = openPool({ url: db.url, max: 2 });
  // A table whose trigger writes a second table at the end of each statement, as the counts' triggers do.
  await pool.query(`create table pair_items (id int primary key, n int not null check (n >= 0));
    create table pair_totals (total int not null);
    insert into pair_totals values (0);
    create function pair_items_added() returns trigger language plpgsql as $$
    begin
      update pair_totals set total = total + (select coalesce(sum(n), 0) from new_items);
      return null;
    end $$;
    create trigger pair_items_added after insert on pair_items referencing new table as new_items
      for each statement execute function pair_items_added();`);
});
afterAll(async () => {
  await pool?.end();
  await db?.close();
});

let nextId = 0;
const insert = (n: number, id = ++nextId): NamedStatement => ({
  name: 'pair_insert',
  text: 'insert into pair_items values ($1, $2) returning id, n',
  values: [id, n],
});
const total: NamedStatement = { name: 'pair_total', text: 'select total from pair_totals', values: [] };
const totalNow = async () => (await pool.query('select total from pair_totals')).rows[0].total as number;

/** `work` on one checked-out connection, released after. */
async function onOneConnection(work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    await work(client);
  } finally {
    client.release();
  }
}

const MESSAGES = ['parse', 'close', 'sync'] as const;

describe('two statements in one round trip', () => {
  it("answer both, the second seeing the first's writes and its triggers' writes, with one Sync", async () => {
    await onOneConnection(async (client) => {
      const messages = countMessages(client, MESSAGES);
      const before = await totalNow();
      const [inserted, totals] = await executePair(client, insert(5), total);
      expect(inserted.rows).toEqual([[nextId, 5]]);
      expect(inserted.fields.map((field) => field.name)).toEqual(['id', 'n']);
      expect(totals.rows).toEqual([[before + 5]]);
      expect(messages.sync).toBe(1);
      // Both statements parsed once on this connection, and not again.
      expect(messages.parse).toBe(2);
      for (let i = 0; i < 3; i++) await executePair(client, insert(1), total);
      expect(messages).toEqual({ parse: 2, close: 0, sync: 4 });
      expect(await totalNow()).toBe(before + 8);
    });
  });

  it('keep neither write when the second fails, and run again on the same connection', async () => {
    await onOneConnection(async (client) => {
      const before = await totalNow();
      const failing: NamedStatement = {
        name: 'pair_failing',
        text: 'select 1 / $1::int as quotient',
        values: [0],
      };
      const id = ++nextId;
      await expect(executePair(client, insert(7, id), failing)).rejects.toMatchObject({ code: '22012' });
      expect((await pool.query('select 1 from pair_items where id = $1', [id])).rowCount).toBe(0);
      expect(await totalNow()).toBe(before);
      // The failed exchange parsed the second statement: it is known parsed, not parsed again (PostgreSQL
      // would refuse the name), by the next pair and by pg's own path alike.
      const messages = countMessages(client, MESSAGES);
      const [inserted, quotient] = await executePair(client, insert(7, id), { ...failing, values: [7] });
      expect(inserted.rows).toEqual([[id, 7]]);
      expect(quotient.rows).toEqual([[0]]);
      expect(messages.parse).toBe(0);
      const own = await client.query({ ...failing, values: [1], rowMode: 'array' });
      expect(own.rows).toEqual([[1]]);
      expect(messages.parse).toBe(0);
    });
  });

  it('skip the second when the first fails, parsing it when next sent', async () => {
    await onOneConnection(async (client) => {
      const messages = countMessages(client, MESSAGES);
      const before = await totalNow();
      const unparsed: NamedStatement = { ...total, name: 'pair_total_unparsed' };
      await expect(executePair(client, insert(-1), unparsed)).rejects.toMatchObject({ code: '23514' });
      expect(await totalNow()).toBe(before);
      expect((await executePair(client, insert(2), unparsed))[1].rows).toEqual([[before + 2]]);
      // (Marked parsed after the failure, the second statement would have been bound unparsed and refused.)
      expect(messages.sync).toBe(2);
    });
  });

  it('fail before sending anything on a value that cannot be sent', async () => {
    await onOneConnection(async (client) => {
      const messages = countMessages(client, MESSAGES);
      const unsendable = {
        toPostgres: () => {
          throw new Error('cannot send');
        },
      };
      await expect(executePair(client, insert(1), { ...total, values: [unsendable] })).rejects.toThrow(
        'cannot send',
      );
      expect(messages).toEqual({ parse: 0, close: 0, sync: 0 });
      expect((await executePair(client, insert(1), total))[0].rows).toHaveLength(1);
    });
  });

  it('run inside a transaction as part of it', async () => {
    await onOneConnection(async (client) => {
      const before = await totalNow();
      await client.query('begin');
      const [, totals] = await executePair(client, insert(3), total);
      expect(totals.rows).toEqual([[before + 3]]);
      await client.query('rollback');
      expect(await totalNow()).toBe(before);
    });
  });

  it('run on the pool, releasing every connection', async () => {
    const before = await totalNow();
    const results = await Promise.all(Array.from({ length: 10 }, () => executePair(pool, insert(1), total)));
    expect(results.every(([inserted]) => inserted.rows.length === 1)).toBe(true);
    expect(await totalNow()).toBe(before + 10);
    expect(pool.idleCount).toBe(pool.totalCount);
  });
});
