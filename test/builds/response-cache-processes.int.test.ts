import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acmeWithAdmin, freshDatabase } from '../support/database';
import { type ServerProcess, startServerProcesses } from '../support/server-process';

/**
 * Two server processes on one database, each with its response cache (ADR 0016): a change made through one
 * shows in the very next answer of the other, REST and GraphQL, as the revisions live in the database.
 */

let servers: ServerProcess[] = [];
let secret: string;
/** Another token of the same user. */
let token: () => Promise<string>;
let closeDatabase: () => Promise<void>;

beforeAll(async () => {
  const db = await freshDatabase();
  closeDatabase = db.close;
  ({ token } = await acmeWithAdmin(db.useCases));
  secret = await token();
  await db.useCases.admin.createPipeline({
    organization: 'acme',
    name: 'web',
    repository: 'git@example.com:acme/web.git',
    steps: 'steps:\n  - label: test\n    command: make test\n',
  });
  servers = await startServerProcesses(2, { DATABASE_URL: db.url, PUBLIC_API_URL: 'https://api.ci.test' });
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await closeDatabase?.();
});

const BUILDS = '/v2/organizations/acme/pipelines/web/builds';
const QUERY = '{ pipeline(slug: "acme/web") { builds(first: 5) { edges { node { number state } } } } }';

async function call(server: ServerProcess, method: string, path: string, body?: unknown, bearer = secret) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${bearer}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

describe('cached answers across server processes', () => {
  it('show a build created and then canceled through the other process at once', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    const states = async () => {
      const rest = await call(first, 'GET', BUILDS);
      const graphql = await call(first, 'POST', '/graphql', { query: QUERY });
      expect(rest.status, first.output()).toBe(200);
      return {
        rest: rest.body.map((build: { number: number; state: string }) => [build.number, build.state]),
        graphql: graphql.body.data.pipeline.builds.edges.map(
          ({ node }: { node: { number: number; state: string } }) => [node.number, node.state.toLowerCase()],
        ),
      };
    };
    // Read twice: the second REST answer is the cached one.
    expect(await states()).toEqual({ rest: [], graphql: [] });
    expect(await states()).toEqual({ rest: [], graphql: [] });

    const created = await call(second, 'POST', BUILDS, { commit: 'a'.repeat(40), branch: 'main' });
    expect(created.status, second.output()).toBe(201);
    const number = created.body.number as number;
    expect(await states()).toEqual({ rest: [[number, 'scheduled']], graphql: [[number, 'scheduled']] });

    const canceled = await call(second, 'PUT', `${BUILDS}/${number}/cancel`);
    expect(canceled.status).toBe(200);
    expect(await states()).toEqual({ rest: [[number, 'canceled']], graphql: [[number, 'canceled']] });
  });

  it('refuse a token revoked through the other process at once, where the first cached its answer', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    const revoked = await token();
    for (let i = 0; i < 2; i++) {
      expect((await call(first, 'GET', BUILDS, undefined, revoked)).status).toBe(200);
      expect((await call(first, 'POST', '/graphql', { query: QUERY }, revoked)).status).toBe(200);
    }
    expect((await call(second, 'DELETE', '/v2/access-token', undefined, revoked)).status).toBe(204);
    expect((await call(first, 'GET', BUILDS, undefined, revoked)).status).toBe(401);
    expect((await call(first, 'POST', '/graphql', { query: QUERY }, revoked)).status).toBe(401);
    expect((await call(first, 'GET', BUILDS)).status).toBe(200);
  });
});
