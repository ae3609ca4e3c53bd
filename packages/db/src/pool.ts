import pg from 'pg';

/**
 * The value parsing MikroORM's PostgreSQL driver sets on the pool it opens (@mikro-orm/sql's
 * `createPostgreSqlTypeParsers`, applied per pool by @mikro-orm/postgresql's `PostgreSqlConnection`):
 * date, timestamp, timestamptz and interval stay PostgreSQL's text (rows.ts `toDate` reads it), their
 * arrays are arrays of that text; every other type keeps pg's default parser (int8 and numeric as
 * strings, json/jsonb parsed, int4, bool, uuid, text[] …). Per pool, as there: `pg.types` stays untouched.
 * MikroORM parses the arrays with postgres-array 3, pg's `text[]` parser is postgres-array 2: for arrays
 * of these types (quoted elements, NULL, bounds) both give the same strings; pool.int.test.ts checks it.
 */
function ormTypeParsers(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  const asText = (text: string) => text;
  // text[]'s oid, absent from pg-types' enum (of scalar types only).
  const textArray = pg.types.getTypeParser(1009 as Parameters<typeof pg.types.getTypeParser>[0], 'text');
  for (const oid of [1082, 1114, 1184, 1186]) types.setTypeParser(oid, asText);
  for (const oid of [1182, 1115, 1185, 1187]) types.setTypeParser(oid, textArray);
  return types;
}

interface PoolOptions {
  url: string;
  max?: number;
}

/**
 * The repositories' pool: a plain `pg.Pool` configured as MikroORM configured its own (the one the
 * repositories used before, docs/architecture.md): the connection's parts read from the URL alone as its
 * `getConnectionOptions` does, `min` 0, `max` 10 unless given, and the same value parsing.
 */
export function openPool(options: PoolOptions): pg.Pool {
  const url = new URL(options.url);
  const pool = new pg.Pool({
    host: decodeURIComponent(url.hostname),
    port: +url.port,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname).replace(/^\//, ''),
    min: 0,
    max: options.max ?? 10,
    types: ormTypeParsers(),
  });
  // A connection the server drops is an `error` event, fatal without a listener: on an idle client the
  // pool re-emits it, on a checked-out one the client does (the query in flight still rejects, and the
  // pool discards the client). Listened to, as MikroORM's pool was, and otherwise ignored.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  pool.on('error', () => {});
  return pool;
}
