import { startWorld } from './world';

export { API_URL, WEB_URL } from './world';

/**
 * The shared test world (test/support/world.ts) with a GraphQL caller and a count of the SQL statements
 * the repositories send, for the tests of /graphql.
 */
export async function startGraphqlWorld() {
  let statements = 0;
  const world = await startWorld(
    {},
    {
      onQuery: () => {
        statements += 1;
      },
    },
  );

  /** POSTs an operation to /graphql; `token` undefined: the admin's, null: none. */
  const gql = async (
    query: string,
    variables: Record<string, unknown> = {},
    options: { token?: string | null; operationName?: string } = {},
  ) =>
    world.call('POST', '/graphql', {
      ...(options.token === undefined ? {} : { token: options.token }),
      body: { query, variables, ...(options.operationName ? { operationName: options.operationName } : {}) },
    });

  /** How many SQL statements `work` made the server send. */
  const countStatements = async <T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> => {
    const before = statements;
    const result = await work();
    return { result, statements: statements - before };
  };

  return { ...world, gql, countStatements };
}

export type GraphqlWorld = Awaited<ReturnType<typeof startGraphqlWorld>>;
