import { expect } from 'vitest';
import { startWorld } from './world';

export { API_URL, WEB_URL } from './world';

/**
 * The shared test world (test/support/world.ts) with a GraphQL caller, and the statements of a page of
 * two sizes, for the tests of /graphql.
 */
export async function startGraphqlWorld() {
  const world = await startWorld();

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

  /** The statements of the same operation (`$first` the page size) over a small and a large page; both must succeed. */
  const pageStatements = async (query: string, small: number, large: number, token?: string) => {
    const run = (first: number) => world.countStatements(() => gql(query, { first }, token ? { token } : {}));
    const few = await run(small);
    const many = await run(large);
    for (const { result } of [few, many]) {
      expect(result.status, result.text).toBe(200);
      expect(result.body.errors, result.text).toBeUndefined();
    }
    return { few, many };
  };

  return { ...world, gql, pageStatements };
}

export type GraphqlWorld = Awaited<ReturnType<typeof startGraphqlWorld>>;

/** The messages of a GraphQL answer's errors (none: empty), once its status is 200 as GraphQL answers them. */
export function errorsOf(response: Awaited<ReturnType<GraphqlWorld['gql']>>): string[] {
  expect(response.status, response.text).toBe(200);
  return (response.body.errors ?? []).map((error: { message: string }) => error.message);
}
