import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, type World } from './support/world';

/**
 * With one request slot (REQUEST_CONCURRENCY=1), API requests wait their turn: every one is answered,
 * and a client that gives up while its request waits or runs does not keep the slot (a kept slot would
 * leave every later request waiting for ever).
 */

let world: World;
beforeAll(async () => {
  world = await startWorld({ REQUEST_CONCURRENCY: '1' });
  await world.createBuild('web');
});
afterAll(async () => {
  await world?.close();
});

const BUILDS = '/v2/organizations/acme/pipelines/web/builds';

describe('request slots', () => {
  it('answer every one of many concurrent requests, REST, tRPC and GraphQL', async () => {
    const calls = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0
        ? world.call('GET', BUILDS)
        : i % 3 === 1
          ? world.call(
              'GET',
              `/trpc/builds.listForPipeline?input=${encodeURIComponent('{"organization":"acme","pipeline":"web"}')}`,
            )
          : world.call('POST', '/graphql', { body: { query: '{ viewer { user { name } } }' } }),
    );
    const statuses = (await Promise.all(calls)).map((response) => response.status);
    expect(statuses).toEqual(Array(30).fill(200));
  });

  it('are given back when clients give up, waiting or at work', async () => {
    const { port } = new URL(world.server.baseUrl);
    // Raw connections, each closed by the client once its request has reached the server: one request
    // at work, the others waiting for the slot.
    const sockets = Array.from({ length: 60 }, () =>
      request({
        host: '127.0.0.1',
        port,
        path: BUILDS,
        agent: false,
        headers: { authorization: `Bearer ${world.tokens.admin}` },
      }).on('error', () => {}),
    );
    for (const socket of sockets) socket.end();
    await new Promise((resolve) => setTimeout(resolve, 10));
    for (const socket of sockets) socket.destroy();
    const after = await Promise.all(Array.from({ length: 5 }, () => world.call('GET', BUILDS)));
    expect(after.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it('never hold back health checks', async () => {
    const response = await world.server.fetch('/healthz');
    expect(response.status).toBe(200);
  });
});
