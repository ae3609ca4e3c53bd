import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';

/** A named prepared statement with its values. */
export interface NamedStatement {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * Two prepared statements sent together, before one Sync, and answered in one round trip.
 *
 * PostgreSQL runs the messages before a Sync in one implicit transaction (outside a `begin`): the second
 * statement sees what the first wrote, its triggers' writes included, and an error in either rolls both
 * back and skips the rest. pg sends one statement per Sync; this query sends the first as pg does (Parse
 * once per connection, Bind, Describe, Execute), then the second's Bind, Describe and Execute, then Sync.
 *
 * pg tracks the statements it parsed on a connection by its query's one name. The second statement's
 * parse is tracked here: it counts as parsed only once an exchange that sent it has succeeded. Until
 * then it is sent again, after a Close (not an error when the statement does not exist): an exchange that
 * failed after parsing it leaves it on the connection, and a Parse of a name in use would be refused.
 */
class StatementPairQuery extends pg.Query {
  private readonly second: NamedStatement;
  private sentOn: PairConnection | undefined;

  constructor(first: NamedStatement, second: NamedStatement) {
    super({ ...first, rowMode: 'array' } as pg.QueryConfig);
    this.second = second;
  }

  override prepare(connection: unknown): void {
    this.sentOn = connection as PairConnection;
    super.prepare(connection);
  }

  /** pg's last step for the first statement: its Execute; here the second's messages follow, then Sync. */
  override _getRows(connection: unknown, rows: number | undefined): void {
    const sent = connection as PairConnection;
    sent.execute({ portal: this.portal, rows });
    const { name, text, values } = this.second;
    if (sent.parsedStatements[name] !== text) {
      sent.close({ type: 'S', name });
      sent.parse({ text, name, types: undefined });
    }
    sent.bind({ portal: '', statement: name, values, binary: false, valueMapper: pgUtils.prepareValue });
    sent.describe({ type: 'P', name: '' });
    sent.execute({ portal: '', rows: undefined });
    sent.sync();
  }

  override handleReadyForQuery(connection: unknown): void {
    // Not after an error: pg reports it then, and this is not called for a failed exchange.
    if (this.sentOn && !this._canceledDueToError)
      this.sentOn.parsedStatements[this.second.name] = this.second.text;
    super.handleReadyForQuery(connection);
  }
}

/**
 * The two statements' results, in one round trip ({@link StatementPairQuery}). Values are checked before
 * anything is sent: a value pg cannot send fails the pair, never the second statement alone after the
 * first was sent.
 */
export function executePair(
  client: Pick<pg.Pool, 'query'> | pg.PoolClient,
  first: NamedStatement,
  second: NamedStatement,
): Promise<[pg.QueryArrayResult, pg.QueryArrayResult]> {
  let query: StatementPairQuery;
  try {
    for (const value of [...first.values, ...second.values]) pgUtils.prepareValue(value);
    query = new StatementPairQuery(first, second);
  } catch (error) {
    return Promise.reject(error);
  }
  const results = (answer: unknown) => {
    const both = answer as pg.QueryArrayResult[];
    return [both[0]!, both[1]!] as [pg.QueryArrayResult, pg.QueryArrayResult];
  };
  if (client instanceof pg.Pool) return (client.query(query) as unknown as Promise<unknown>).then(results);
  return new Promise((resolve, reject) => {
    query.callback = (error: Error | null, answer: unknown) =>
      error ? reject(error) : resolve(results(answer));
    client.query(query);
  });
}

/** What this module reads of pg's internals (pg/lib/connection.js, pg/lib/query.js). */
interface PairConnection {
  parsedStatements: Record<string, string>;
  parse(config: { text: string; name: string; types: undefined }): void;
  bind(config: {
    portal: string;
    statement: string;
    values: unknown[];
    binary: boolean;
    valueMapper: unknown;
  }): void;
  describe(config: { type: 'P'; name: string }): void;
  execute(config: { portal: string; rows: number | undefined }): void;
  close(config: { type: 'S'; name: string }): void;
  sync(): void;
}
declare module 'pg' {
  interface Query {
    _canceledDueToError: Error | false;
    handleReadyForQuery(connection: unknown): void;
  }
}
