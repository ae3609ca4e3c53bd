import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../../test/support/database';
import { countMessages } from '../../../test/support/pg-messages';
import { executeDescribedOnce } from './pg-described-statements';
import { openPool } from './pool';

/* Prepared statements described once per connection (pg-described-statements.ts), against pg's own path. */

let db: TestDatabase;
let pool: pg.Pool;
beforeAll(async () => {
  db = await freshDatabase();
  pool = openPool({ url: db.url, max: 2 });
});
afterAll(async () => {
  await pool?.end();
  await db?.close();
});

const TYPES = `select $1::int as n, 'a"b'::text as t, '2026-01-02 03:04:05.678+00'::timestamptz(3) as at, array['x', null]::text[] as list,
  '{"k": [1, null]}'::jsonb as doc, null::uuid as nothing, $2::text[] as given`;

describe('statements described once per connection', () => {
  it('read the same fields and rows as pg, every time, describing only the first', async () => {
    const client = await pool.connect();
    try {
      const describes = countMessages(client, ['describe']);
      const config = { name: 'described_types', text: TYPES, values: [7, ['a', 'b,c']] };
      const expected = await client.query({ ...config, name: 'pg_types', rowMode: 'array' });
      const before = describes.describe;
      const parsers = new Set<unknown>();
      for (let i = 0; i < 3; i++) {
        const result = await executeDescribedOnce(client, config);
        parsers.add((result as unknown as { _parsers: unknown })._parsers);
        expect(result.rows).toEqual(expected.rows);
        expect(result.fields.map((field) => [field.name, field.dataTypeID])).toEqual(
          expected.fields.map((field) => [field.name, field.dataTypeID]),
        );
      }
      expect(describes.describe - before).toBe(1);
      // The parsers looked up for the description once (pg-array-results.ts).
      expect(parsers.size).toBe(1);
    } finally {
      client.release();
    }
  });

  it('run on the pool, releasing every connection', async () => {
    const config = { name: 'described_pool', text: 'select $1::int + 1 as n', values: [1] };
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => executeDescribedOnce(pool, { ...config, values: [i] })),
    );
    expect(results.map((result) => result.rows[0]![0])).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(pool.idleCount).toBe(pool.totalCount);
  });

  it('fail as pg fails when the schema changes what a statement returns', async () => {
    const client = await pool.connect();
    try {
      await client.query('create table shape_changes (a int)');
      await client.query('insert into shape_changes values (1)');
      const config = { name: 'described_shape', text: 'select * from shape_changes', values: [] };
      expect((await executeDescribedOnce(client, config)).rows).toEqual([[1]]);
      expect((await executeDescribedOnce(client, config)).rows).toEqual([[1]]);
      await client.query('alter table shape_changes add column b int');
      // Never rows read with the old description: PostgreSQL refuses the statement.
      await expect(executeDescribedOnce(client, config)).rejects.toMatchObject({ code: '0A000' });
      // The connection stays usable.
      expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.query('drop table if exists shape_changes');
      client.release();
    }
  });

  it('fail one execution alone on a value that cannot be sent', async () => {
    const client = await pool.connect();
    try {
      const config = { name: 'described_value', text: 'select $1::text as v', values: ['ok'] as unknown[] };
      await executeDescribedOnce(client, config);
      const unsendable = {
        toPostgres: () => {
          throw new Error('cannot send');
        },
      };
      await expect(executeDescribedOnce(client, { ...config, values: [unsendable] })).rejects.toThrow(
        'cannot send',
      );
      // (pg's own path closes the statement when a value fails, and its next execution then finds none.)
      expect((await executeDescribedOnce(client, config)).rows).toEqual([['ok']]);
    } finally {
      client.release();
    }
  });

  it('run statements without rows as pg does', async () => {
    const client = await pool.connect();
    try {
      await client.query('create temporary table no_rows (a int)');
      const config = { name: 'described_insert', text: 'insert into no_rows values ($1)', values: [1] };
      for (let i = 0; i < 3; i++) expect((await executeDescribedOnce(client, config)).rowCount).toBe(1);
      expect((await client.query('select count(*)::int as n from no_rows')).rows).toEqual([{ n: 3 }]);
    } finally {
      client.release();
    }
  });
});
