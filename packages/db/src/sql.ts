import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Parameterised SQL over MikroORM's pg pool (database.ts); `$1`-style placeholders, rows as plain objects. */
export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /**
   * The same as a named prepared statement (pg's `name`): parsed once per connection, and planned once
   * when PostgreSQL finds a generic plan as good as the custom ones. For the hot statements of fixed shape,
   * not for those whose best plan depends on the values.
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

type RowClass = new (values: unknown[]) => Record<string, unknown>;

/** Where a row keeps its values: a symbol, so that no column's name can hide it. */
const VALUES = Symbol('values');

/** The row class of each named statement: its columns are fixed, so it is made once. */
const rowClasses = new Map<string, RowClass>();

/**
 * A class whose instances read a row fetched as an array (pg's `rowMode: 'array'`) by column name.
 * pg's object rows of more than a dozen columns are dictionary-mode objects, cloned slowly per row and
 * read slowly by the mappers; these share one shape. Like pg's object rows, a repeated name is its last column.
 */
function rowClass(name: string, fields: readonly { name: string }[]): RowClass {
  let made = rowClasses.get(name);
  if (made) return made;
  made = class {
    [VALUES]: unknown[];
    constructor(values: unknown[]) {
      this[VALUES] = values;
    }
  } as unknown as RowClass;
  for (const [index, field] of fields.entries()) {
    Object.defineProperty(made.prototype, field.name, {
      get(this: { [VALUES]: unknown[] }) {
        return this[VALUES][index];
      },
      enumerable: true,
      configurable: true,
    });
  }
  rowClasses.set(name, made);
  return made;
}

export function createSql(pool: pg.Pool, onQuery?: (text: string) => void): Sql {
  const over = (client: Queryable, inTransaction: boolean): Sql => ({
    async query<Row>(text: string, params: readonly unknown[] = []) {
      onQuery?.(text);
      const result = await client.query(text, params as unknown[]);
      return result.rows as Row[];
    },
    async prepared<Row>(text: string, params: readonly unknown[] = []) {
      onQuery?.(text);
      const name = statementName(text);
      const result = await client.query<unknown[]>({
        name,
        text,
        values: params as unknown[],
        rowMode: 'array',
      });
      const RowOf = rowClass(name, result.fields);
      return result.rows.map((values) => new RowOf(values)) as Row[];
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
