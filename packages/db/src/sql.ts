import type pg from 'pg';

/** Parameterised SQL over the ORM's own pg pool; `$1`-style placeholders, rows as plain objects. */
export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
}

type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

export function createSql(pool: pg.Pool, onQuery?: (text: string) => void): Sql {
  const over = (client: Queryable, inTransaction: boolean): Sql => ({
    async query<Row>(text: string, params: readonly unknown[] = []) {
      onQuery?.(text);
      const result = await client.query(text, params as unknown[]);
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

/** PostgreSQL's unique-violation code, for the races that a check-then-insert cannot close. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23505';
}
