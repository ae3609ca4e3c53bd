import pg from 'pg';
import pgUtils from 'pg/lib/utils.js';

/** pg's mapping of a value to what it sends: text, bytes or null (which it maps again to themselves). */
const prepareValue = (value: unknown): unknown => pgUtils.prepareValue(value);

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
 * pg tracks the statements it parsed on a connection (`parsedStatements`) by its query's one name. The
 * second statement's Parse, when sent, is tracked here the same way: it counts as parsed from its
 * ParseComplete on, whatever happens after (a failed execution does not undo a Parse), so that pg's own
 * path and later pairs neither parse it again (PostgreSQL would refuse the name in use) nor use it unparsed.
 */
class StatementPairQuery extends pg.Query {
  private readonly second: NamedStatement;
  /** While the second statement's Parse is answered: the connection, and the ParseCompletes before its. */
  private parsing: { connection: PairConnection; before: number } | undefined;
  /** Whether pg sends the first statement's Parse (its ParseComplete then comes before the second's). */
  private firstParseSent = false;

  constructor(first: NamedStatement, second: NamedStatement) {
    super({ ...first, rowMode: 'array' } as pg.QueryConfig);
    this.second = second;
  }

  override prepare(connection: unknown): void {
    this.firstParseSent = !this.hasBeenParsed(connection);
    super.prepare(connection);
  }

  /** pg's last step for the first statement: its Execute; here the second's messages follow, then Sync. */
  override _getRows(connection: unknown, rows: number | undefined): void {
    const sent = connection as PairConnection;
    sent.execute({ portal: this.portal, rows });
    const { name, text, values } = this.second;
    if (sent.parsedStatements[name] !== text) {
      sent.parse({ text, name, types: undefined });
      this.parsing = { connection: sent, before: this.firstParseSent ? 1 : 0 };
      sent.on('parseComplete', this.parsed);
    }
    // Its values are what pg sends already (`executePair`): bound as they are.
    sent.bind({ portal: '', statement: name, values, binary: false });
    sent.describe({ type: 'P', name: '' });
    sent.execute({ portal: '', rows: undefined });
    sent.sync();
  }

  /** A ParseComplete on the connection: the first statement's, or the second's (then it is parsed). */
  private readonly parsed = (): void => {
    const parsing = this.parsing;
    if (!parsing) return;
    if (parsing.before > 0) {
      parsing.before -= 1;
      return;
    }
    parsing.connection.parsedStatements[this.second.name] = this.second.text;
    this.stopParsing();
  };

  private stopParsing(): void {
    this.parsing?.connection.off('parseComplete', this.parsed);
    this.parsing = undefined;
  }

  override handleReadyForQuery(connection: unknown): void {
    this.stopParsing();
    super.handleReadyForQuery(connection);
  }

  override handleError(error: Error, connection: unknown): void {
    this.stopParsing();
    super.handleError(error, connection);
  }
}

/**
 * The two statements' results, in one round trip ({@link StatementPairQuery}). Values are made into what
 * pg sends (text, bytes or null) before anything is sent: a value pg cannot send fails the pair, never the
 * second statement alone after the first was sent, and pg's own mapping then finds them ready.
 */
export function executePair(
  client: Pick<pg.Pool, 'query'> | pg.PoolClient,
  first: NamedStatement,
  second: NamedStatement,
): Promise<[pg.QueryArrayResult, pg.QueryArrayResult]> {
  let query: StatementPairQuery;
  try {
    const ready = (statement: NamedStatement) => ({
      ...statement,
      values: statement.values.map(prepareValue),
    });
    query = new StatementPairQuery(ready(first), ready(second));
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
    valueMapper?: unknown;
  }): void;
  describe(config: { type: 'P'; name: string }): void;
  execute(config: { portal: string; rows: number | undefined }): void;
  sync(): void;
  on(event: 'parseComplete', listener: () => void): void;
  off(event: 'parseComplete', listener: () => void): void;
}
declare module 'pg' {
  interface Query {
    hasBeenParsed(connection: unknown): unknown;
    handleReadyForQuery(connection: unknown): void;
  }
}
