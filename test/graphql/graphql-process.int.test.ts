import { afterAll, beforeAll, expect, it } from 'vitest';
import { acmeWithAdmin, freshDatabase } from '../support/database';
import { type ServerProcess, startServerProcess } from '../support/server-process';

/**
 * /graphql in the real server process (the bundle `pnpm start` runs), as it runs in production:
 * the schema and the GraphQL libraries must share one copy of `graphql` there too.
 */

let server: ServerProcess;
let token: string;

beforeAll(async () => {
  const db = await freshDatabase();
  try {
    const acme = await acmeWithAdmin(db.useCases);
    await db.useCases.admin.createPipeline({
      organization: 'acme',
      name: 'web',
      repository: 'git@example.com:acme/web.git',
      steps: 'steps:\n  - label: build\n    command: make build\n',
    });
    token = await acme.token();
    server = await startServerProcess({ DATABASE_URL: db.url, PUBLIC_WEB_URL: 'https://ci.test' });
  } finally {
    await db.close();
  }
});
afterAll(async () => server?.stop());

it('creates and reads a build through GraphQL', async () => {
  const post = async (query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${server.baseUrl}/graphql`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as {
      data?: { buildCreate?: { build: { id: string } } };
      errors?: unknown;
    };
  };
  const rest = await fetch(`${server.baseUrl}/v2/organizations/acme/pipelines/web/builds`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ commit: 'HEAD', branch: 'main' }),
  });
  const { pipeline } = (await rest.json()) as { pipeline: { graphql_id: string } };
  const created = await post(
    'mutation($id: ID!) { buildCreate(input: { pipelineID: $id, commit: "HEAD", branch: "main" }) { build { id number } } }',
    { id: pipeline.graphql_id },
  );
  expect(created).toEqual({ data: { buildCreate: { build: { id: expect.any(String), number: 2 } } } });
  const read = await post('query($id: ID!) { node(id: $id) { ... on Build { number url } } }', {
    id: created.data?.buildCreate?.build.id,
  });
  expect(read).toEqual({ data: { node: { number: 2, url: 'https://ci.test/acme/web/builds/2' } } });
  const page = await fetch(`${server.baseUrl}/graphql`, { headers: { Accept: 'text/html' } });
  expect(page.status).toBe(200);
});
