import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from './support/database';
import { type ServerProcess, startServerProcess } from './support/server-process';

/** What the server writes to its log about requests: never a token, wherever the client put it. */

const SECRET = `bkua_${'5'.repeat(40)}`;
let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess({ DATABASE_URL: await freshDatabaseUrl(), LOG_LEVEL: 'info' });
});
afterAll(async () => {
  await server?.stop();
});

describe('the request log', () => {
  it('writes a token sent in the query string as [redacted], and one sent in a header not at all', async () => {
    const inQuery = await fetch(`${server.baseUrl}/v2/user?access_token=${SECRET}&page=1`);
    expect(inQuery.status).toBe(401);
    const inHeader = await fetch(`${server.baseUrl}/v2/user?page=2`, {
      headers: { authorization: `Bearer ${SECRET}` },
    });
    expect(inHeader.status).toBe(401);
    await expect.poll(() => server.output()).toContain('/v2/user?page=2');
    expect(server.output()).toContain('"url":"/v2/user?access_token=[redacted]&page=1"');
    expect(server.output()).not.toContain(SECRET);
  });
});
