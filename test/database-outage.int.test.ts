import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningDatabase, startEmbeddedPostgres } from '@ci/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/free-port';
import { type ServerProcess, startServerProcess } from './support/server-process';
import { waitFor } from './support/wait-for';

/**
 * A server whose PostgreSQL stops under it (issue 31): every transport answers 503 `{message}` with
 * `Retry-After` instead of a 500, the outage is logged once, not per request, `/readyz` says so, and
 * the server serves again once the database is back. The database is an embedded PostgreSQL of this
 * file's own, not the one the other files share.
 */

const MESSAGE = 'Service Unavailable: the database cannot be reached, try again shortly';
const dataDir = mkdtempSync(join(tmpdir(), 'ci-outage-'));
let pgPort: number;
let postgres: RunningDatabase;
let server: ServerProcess;
let token: string;

beforeAll(async () => {
  pgPort = await freePort();
  postgres = await startEmbeddedPostgres({ dataDir, port: pgPort, database: 'outage' });
  server = await startServerProcess(
    { DATABASE_URL: postgres.url, SEED_DEMO: 'true', LOG_LEVEL: 'info' },
    { readyTimeoutMs: 60_000 },
  );
  // The demo's admin token, printed once the server listens.
  await waitFor('the demo token', async () => / {2}bkua_\w+/.test(server.output()));
  token = server.output().match(/ {2}(bkua_\w+)/)?.[1] ?? '';
});
afterAll(async () => {
  await server?.stop();
  await postgres?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = (path: string, init: RequestInit = {}) =>
  fetch(`${server.baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });

const PIPELINES = '/v2/organizations/acme/pipelines';
const TRPC_PIPELINES = `/trpc/pipelines.list?input=${encodeURIComponent('{"organization":"acme"}')}`;
const GRAPHQL = {
  method: 'POST',
  body: JSON.stringify({ query: '{ organization(slug: "acme") { name } }' }),
};

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('a database outage', () => {
  it('is answered 503 {message} with Retry-After on REST, tRPC and GraphQL, logged once, and ends when the database is back', async () => {
    expect((await call(PIPELINES)).status).toBe(200);
    expect((await call(TRPC_PIPELINES)).status).toBe(200);
    expect((await call('/graphql', GRAPHQL)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);

    await postgres.stop();
    for (let round = 0; round < 3; round++) {
      const rest = await call(PIPELINES);
      expect(rest.status).toBe(503);
      expect(rest.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(rest.headers.get('retry-after')).toBe('5');
      expect(await rest.json()).toEqual({ message: MESSAGE });

      const trpc = await call(TRPC_PIPELINES);
      expect(trpc.status).toBe(503);
      expect(trpc.headers.get('retry-after')).toBe('5');
      expect(((await trpc.json()) as { error: { message: string } }).error.message).toBe(MESSAGE);

      const graphql = await call('/graphql', GRAPHQL);
      expect(graphql.status).toBe(503);
      expect(graphql.headers.get('retry-after')).toBe('5');
      expect(((await graphql.json()) as { errors: Array<{ message: string }> }).errors[0]?.message).toBe(
        MESSAGE,
      );

      const ready = await fetch(`${server.baseUrl}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBe('5');
      expect(await ready.json()).toMatchObject({ message: MESSAGE });
    }
    expect(occurrences(server.output(), 'database unreachable')).toBe(1);
    expect(server.output()).not.toContain('request failed');

    postgres = await startEmbeddedPostgres({ dataDir, port: pgPort, database: 'outage' });
    await expect
      .poll(async () => (await fetch(`${server.baseUrl}/readyz`)).status, { timeout: 20_000 })
      .toBe(200);
    await expect.poll(async () => (await call(PIPELINES)).status, { timeout: 20_000 }).toBe(200);
    expect((await call(TRPC_PIPELINES)).status).toBe(200);
    expect((await call('/graphql', GRAPHQL)).status).toBe(200);
    await expect.poll(() => occurrences(server.output(), 'database reachable again')).toBe(1);
  });
});
