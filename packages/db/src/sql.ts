import { createHash } from 'node:crypto';
import type pg from 'pg';
// Installed with the Sql that asks pg for arrays: array results skip pg's object template (see the module).
import './pg-array-results';
import { executeDescribedOnce } from './pg-described-statements';

/** Parameterised SQL over the pg pool (pool.ts); `$1`-style placeholders, rows as plain objects. */
export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /**
   * The same as a named prepared statement: parsed once per connection, and planned once when PostgreSQL
   * finds a generic plan as good as the custom ones (after five executions). For the hot statements of
   * fixed shape, whose planning costs more than their execution; not for statements whose best plan
   * depends on the values (a generic plan would then be kept for all of them). Its rows are described
   * once per connection (pg-described-statements.ts).
   */
  prepared<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
}

type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

/** A statement's name: the same text always the same name (pg refuses one name for two texts). */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `ci_${createHash('sha1').update(text).digest('base64url')}`;
    statementNames.set(text, name);
  }
  return name;
}

type RowMaker = (values: unknown[]) => Record<string, unknown>;

/**
 * Row makers by their columns' names (joined by NUL), or by a prepared statement's name: the same
 * columns always the same maker.
 */
const rowMakers = new Map<string, RowMaker>();

/**
 * Rows as plain objects, from pg's arrays of (already parsed) values. pg's own object rows are copies of
 * an object holding every column, filled by name: with the ~50 columns of a job or a build, V8 keeps them
 * as dictionaries, slow to fill and to read. A constructor compiled once per column list assigns each
 * column in order, so every row of a statement shares one fast shape. A repeated name keeps its last
 * value, as pg's rows do.
 */
function rowsOf(result: pg.QueryArrayResult, statement?: string): Record<string, unknown>[] {
  const { fields, rows } = result;
  if (rows.length === 0) return [];
  // A prepared statement's columns are the same every time: its name is its columns' key.
  const key = statement !== undefined ? `\0${statement}` : fields.map((field) => field.name).join('\0');
  let make = rowMakers.get(key);
  if (!make) {
    const body = fields.map((field, index) => `this[${JSON.stringify(field.name)}] = values[${index}];`);
    const Row = new Function('values', body.join('\n')) as unknown as new (
      values: unknown[],
    ) => Record<string, unknown>;
    make = (values) => new Row(values);
    rowMakers.set(key, make);
  }
  const out = new Array<Record<string, unknown>>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = make(rows[i]!);
  return out;
}

export function createSql(pool: pg.Pool, onQuery?: (text: string) => void): Sql {
  const over = (client: Queryable, inTransaction: boolean): Sql => ({
    async query<Row>(text: string, params: readonly unknown[] = []) {
      onQuery?.(text);
      const result = await client.query({ text, values: params as unknown[], rowMode: 'array' });
      return rowsOf(result) as Row[];
    },
    async prepared<Row>(text: string, params: readonly unknown[] = []) {
      onQuery?.(text);
      const name = statementName(text);
      const result = await executeDescribedOnce(client, { name, text, values: params as unknown[] });
      return rowsOf(result, name) as Row[];
    },
    async transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
      if (inTransaction) return work(over(client, true));
      const connection = await pool.connect();
      try {
        await connection.query('begin');
        const result = await work(over(connection, true));
        await connection.query('commit');
        return result;
      } catch (error) {
        await connection.query('rollback').catch(() => {});
        throw error;
      } finally {
        connection.release();
      }
    },
  });
  return over(pool, false);
}

/**
 * PostgreSQL's unique violation, for the races that a check-then-insert cannot close; with `constraint`,
 * only a violation of that one (any other is a fault and stays one).
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return violates(error, '23505', constraint);
}

/** PostgreSQL's foreign-key violation of `constraint`: a row's parent was deleted meanwhile. */
export function isForeignKeyViolation(error: unknown, constraint: string): boolean {
  return violates(error, '23503', constraint);
}

function violates(error: unknown, code: string, constraint: string | undefined): boolean {
  const failure = error as { code?: string; constraint?: string } | null;
  return failure?.code === code && (constraint === undefined || failure.constraint === constraint);
}

/** A `like` pattern matching `text` literally: its `%`, `_` and `\\` are not wildcards. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
