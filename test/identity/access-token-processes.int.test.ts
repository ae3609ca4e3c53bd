import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHENTICATION_REQUIRED } from '../support/answers';
import { acmeWithAdmin, freshDatabase } from '../support/database';
import { type ServerProcess, startServerProcesses } from '../support/server-process';

/**
 * `DELETE /v2/access-token` in one server process revokes the token for every other one: nothing
 * caches a token, each request reads it from the shared database.
 */

let servers: ServerProcess[] = [];
let databaseUrl: string;
let issue: () => Promise<string>;
let closeDatabase: () => Promise<void>;

beforeAll(async () => {
  const db = await freshDatabase();
  databaseUrl = db.url;
  closeDatabase = db.close;
  issue = (await acmeWithAdmin(db.useCases)).token;
  servers = await startServerProcesses(2, {
    DATABASE_URL: databaseUrl,
    PUBLIC_API_URL: 'https://api.ci.test',
  });
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await closeDatabase?.();
});

async function call(server: ServerProcess, method: string, path: string, secret: string) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${secret}` },
  });
  const text = await response.text();
  return { status: response.status, text, body: text ? JSON.parse(text) : null };
}

describe('revoking a token across server processes', () => {
  it('answers 401 on process 2 to the very next request after a DELETE on process 1', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess];
    const secret = await issue();
    const witness = await issue();
    for (const server of [first, second]) {
      expect((await call(server, 'GET', '/v2/user', secret)).status).toBe(200);
    }

    const deleted = await call(first, 'DELETE', '/v2/access-token', secret);
    expect(deleted.status, second.output()).toBe(204);
    expect(deleted.text).toBe('');

    for (const path of ['/v2/user', '/v2/access-token', '/v2/organizations/acme']) {
      const response = await call(second, 'GET', path, secret);
      expect(response.status, path).toBe(401);
      expect(response.body).toEqual({ message: AUTHENTICATION_REQUIRED });
    }
    const again = await call(second, 'DELETE', '/v2/access-token', secret);
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ message: AUTHENTICATION_REQUIRED });
    // The process answers other tokens as before: the 401 is about the revoked token only.
    expect((await call(second, 'GET', '/v2/user', witness)).status).toBe(200);
  });

  it('lets exactly one of concurrent DELETEs of one token on both processes succeed', async () => {
    const secret = await issue();
    const responses = await Promise.all(
      servers.flatMap((server) =>
        Array.from({ length: 6 }, () => call(server, 'DELETE', '/v2/access-token', secret)),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 204)).toHaveLength(1);
    expect(statuses.filter((status) => status === 401)).toHaveLength(11);
    for (const server of servers)
      expect((await call(server, 'GET', '/v2/access-token', secret)).status).toBe(401);
  });
});
