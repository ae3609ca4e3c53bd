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

export function createSql(pool: pg.Pool, onQuery?: (text: string) => void): Sql {
  const over = (client: Queryable, inTransaction: boolean): Sql => ({
    async query<Row>(text: string, params: readonly unknown[] = []) {
      onQuery?.(text);
      const result = await client.query(text, params as unknown[]);
      return result.rows as Row[];
    },
    async prepared<Row>(text: string, params: readonly unknown[] = []) {
      onQuery?.(text);
      const result = await client.query({ name: statementName(text), text, values: params as unknown[] });
      return result.rows as Row[];
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
