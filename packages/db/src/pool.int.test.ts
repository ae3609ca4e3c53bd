import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../../test/support/database';
import { type Orm, openOrm } from './orm';
import { openPool } from './pool';
import { createSql } from './sql';

// The repositories read through a plain pg pool since they stopped borrowing MikroORM's: every value must
// come back exactly as MikroORM's pool gave it (the same rows, read both ways).
let db: TestDatabase;
let orm: Orm;
let ormPool: pg.Pool;
let pool: pg.Pool;
beforeAll(async () => {
  db = await freshDatabase();
  await db.useCases.admin.seedDemo();
  orm = await openOrm({ url: db.url });
  ormPool = (await orm.em.getConnection().getNativeClient()) as pg.Pool;
  pool = openPool({ url: db.url });
});
afterAll(async () => {
  await pool?.end();
  await orm?.close(true);
  await db?.close();
});

/** Every type our tables store, and those next to them, with their edge values and nulls. */
const EVERY_TYPE = `select
  '2026-01-02 03:04:05.678+00'::timestamptz(3) as timestamptz3,
  '2026-01-02 03:04:05.678901+05:30'::timestamptz as timestamptz6,
  '2026-01-02 03:04:05+00'::timestamptz as timestamptz_whole,
  'infinity'::timestamptz as timestamptz_infinity,
  '0999-12-31 23:59:59+00 BC'::timestamptz as timestamptz_bc,
  null::timestamptz as timestamptz_null,
  '2026-01-02 03:04:05.5'::timestamp as timestamp,
  '2026-01-02'::date as date,
  '1 day 02:03:04.5'::interval as interval,
  array['2026-01-02 03:04:05.1+00'::timestamptz, null] as timestamptz_array,
  array['2026-01-02 03:04:05'::timestamp] as timestamp_array,
  '[2:3]={2026-01-02,2026-01-03}'::date[] as date_array_bounds,
  array['1 day'::interval, '-2 hours'] as interval_array,
  '{}'::timestamptz[] as timestamptz_array_empty,
  42::int as int4, 7::smallint as int2, 9007199254740993::bigint as int8, (-1)::bigint as int8_negative,
  12.50::numeric as numeric, 1.5::float8 as float8, 1.25::real as float4,
  true as bool_true, false as bool_false, null::boolean as bool_null,
  'text ''quoted'' "double"'::text as text, 'name'::varchar(255) as varchar,
  '5f0c2a1e-8f0d-4c1b-9d5e-0a1b2c3d4e5f'::uuid as uuid,
  array['a', null, 'b"c', 'NULL', '', 'd,e', 'f\\g']::text[] as text_array, '{}'::text[] as text_array_empty,
  array['5f0c2a1e-8f0d-4c1b-9d5e-0a1b2c3d4e5f'::uuid] as uuid_array,
  array[1, 2, null]::int[] as int4_array, array[9007199254740993]::bigint[] as int8_array,
  array[true, false]::boolean[] as bool_array,
  '{"a": [1, "2", null, 1.5e300], "b": {"c": true}}'::jsonb as jsonb, '"scalar"'::jsonb as jsonb_scalar,
  'null'::jsonb as jsonb_null, '{"a": 1}'::json as json, array['{"a": 1}'::jsonb] as jsonb_array,
  '\\x00ff'::bytea as bytea`;

async function readBoth(text: string) {
  const read = async (from: pg.Pool) => ({
    objects: (await from.query(text)).rows,
    arrays: (await from.query({ text, rowMode: 'array' })).rows,
    sql: await createSql(from).query(text),
  });
  return { orm: await read(ormPool), plain: await read(pool) };
}

describe('the repositories’ plain pool', () => {
  it('connects as MikroORM’s pool did: the same connection, min 0, max 10 unless given', () => {
    const { types: _ormTypes, ...ormOptions } = ormPool.options as pg.PoolConfig & Record<string, unknown>;
    const { types: _types, ...options } = pool.options as pg.PoolConfig & Record<string, unknown>;
    expect(options).toStrictEqual(ormOptions);
    expect(options).toMatchObject({ min: 0, max: 10, database: new URL(db.url).pathname.slice(1) });
    expect(openPool({ url: db.url, max: 3 }).options.max).toBe(3);
  });

  it('reads every type as MikroORM’s pool does (timestamps as PostgreSQL’s text)', async () => {
    const { orm: viaOrm, plain } = await readBoth(EVERY_TYPE);
    expect(plain).toStrictEqual(viaOrm);
    const row = plain.objects[0] as Record<string, unknown>;
    expect(row.timestamptz3).toBe('2026-01-02 03:04:05.678+00');
    expect(row.timestamptz_array).toStrictEqual(['2026-01-02 03:04:05.1+00', null]);
    expect(row.int8).toBe('9007199254740993');
    expect(row.jsonb).toStrictEqual({ a: [1, '2', null, 1.5e300], b: { c: true } });
  });

  it('reads the same rows through a named prepared statement as through a plain one', async () => {
    const objects = await pool.query(EVERY_TYPE);
    const prepared = await createSql(pool).prepared(EVERY_TYPE);
    expect(prepared).toStrictEqual(objects.rows);
  });

  it('covers every column type of our tables', async () => {
    const { rows: stored } = await pool.query<{ type: number }>(
      `select distinct a.atttypid::int as type from pg_attribute a join pg_class c on c.oid = a.attrelid
       where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`,
    );
    const { fields } = await pool.query(EVERY_TYPE);
    const covered = new Set(fields.map((field) => field.dataTypeID));
    expect(stored.length).toBeGreaterThan(5);
    for (const { type } of stored) expect(covered, `column type oid ${type}`).toContain(type);
  });

  it('reads every table’s rows as MikroORM’s pool does', async () => {
    const { rows: tables } = await pool.query<{ name: string }>(
      "select tablename as name from pg_tables where schemaname = 'public' order by 1",
    );
    let read = 0;
    for (const { name } of tables) {
      const { orm: viaOrm, plain } = await readBoth(`select * from "${name}" order by 1`);
      expect(plain, name).toStrictEqual(viaOrm);
      read += plain.objects.length;
    }
    expect(read).toBeGreaterThan(20);
  });
});
