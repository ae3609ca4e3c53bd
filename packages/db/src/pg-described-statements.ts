import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';

/**
 * A prepared statement's execution that asks PostgreSQL to describe its rows only once per connection.
 *
 * pg executes a named statement with Bind, Describe (portal), Execute and Sync, every time: PostgreSQL
 * answers the Describe with the row description (each column's name, table, type, size, modifier, format)
 * and pg parses it again into the same field list. For the ~70 columns of a build's GET statement that was
 * ~6% of PostgreSQL's work for the statement and ~10% of pg's (measured on one connection, 1,500
 * executions × 8 rounds). A statement's columns cannot change while it stays prepared on a connection
 * (PostgreSQL refuses to run it with `cached plan must not change result type` when a change in the schema
 * would change them), so the description pg read the first time is kept per connection and statement, and
 * later executions send Bind, Execute and Sync only.
 *
 * The first execution on a connection, a statement pg has not seen parsed there (a new connection, or after
 * an error that made pg forget it), and one that has returned no description (no rows to describe) go
 * through pg's own path, unchanged.
 */
export class DescribedOnceQuery extends pg.Query {
  /** The connection this execution was sent on: the description is kept with it. */
  private sentOn: PgConnection | undefined;

  override prepare(connection: PgConnection): void {
    this.sentOn = connection;
    const name = this.name;
    const fields =
      name !== undefined && connection.parsedStatements[name] === this.text
        ? described.get(connection)?.get(name)
        : undefined;
    if (name === undefined || !fields) {
      super.prepare(connection);
      return;
    }
    try {
      connection.bind({
        portal: this.portal,
        statement: name,
        values: this.values,
        binary: this.binary,
        valueMapper: pgUtils.prepareValue,
      });
    } catch (error) {
      // As pg does: a value that cannot be sent fails this execution alone.
      connection.sync();
      this.handleError(error as Error, connection);
      return;
    }
    // What pg does with the description it would have read: fields and parsers for the rows to come.
    this.handleRowDescription({ fields });
    this._getRows(connection, this.rows);
  }

  override handleRowDescription(message: { fields: PgField[] }): void {
    super.handleRowDescription(message);
    const connection = this.sentOn;
    if (this.name === undefined || !connection) return;
    let byName = described.get(connection);
    if (!byName) {
      byName = new Map();
      described.set(connection, byName);
    }
    byName.set(this.name, message.fields);
  }
}

/** The row descriptions PostgreSQL gave, per connection and prepared statement. */
const described = new WeakMap<PgConnection, Map<string, PgField[]>>();

/**
 * A named statement's result, described once per connection ({@link DescribedOnceQuery}). On a pool, pg
 * attaches its own callback (to release the connection) and answers a promise; on a checked-out client
 * the callback is ours.
 */
export function executeDescribedOnce(
  client: Pick<pg.Pool, 'query'> | pg.PoolClient,
  config: { name: string; text: string; values: unknown[] },
): Promise<pg.QueryArrayResult> {
  // `rowMode` is pg's (pg/lib/query.js), absent from its types' query config.
  const query = new DescribedOnceQuery({ ...config, rowMode: 'array' } as pg.QueryConfig);
  if (isPool(client)) return client.query(query) as unknown as Promise<pg.QueryArrayResult>;
  return new Promise((resolve, reject) => {
    query.callback = (error: Error | null, result: pg.QueryArrayResult) =>
      error ? reject(error) : resolve(result);
    client.query(query);
  });
}

function isPool(client: Pick<pg.Pool, 'query'> | pg.PoolClient): client is pg.Pool {
  return client instanceof pg.Pool;
}

/** What this module reads of pg's internals (pg/lib/query.js, pg/lib/connection.js). */
interface PgField {
  name: string;
  dataTypeID: number;
}
interface PgConnection {
  parsedStatements: Record<string, string>;
  bind(config: {
    portal: string;
    statement: string;
    values: unknown[] | undefined;
    binary: boolean | undefined;
    valueMapper: unknown;
  }): void;
  sync(): void;
}
declare module 'pg' {
  interface Query {
    name: string | undefined;
    text: string;
    values: unknown[] | undefined;
    portal: string;
    binary: boolean | undefined;
    rows: number | undefined;
    callback: ((error: Error | null, result: pg.QueryArrayResult) => void) | undefined;
    prepare(connection: unknown): void;
    handleRowDescription(message: { fields: unknown[] }): void;
    handleError(error: Error, connection: unknown): void;
    _getRows(connection: unknown, rows: number | undefined): void;
  }
}
