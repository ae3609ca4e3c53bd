import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './support/wait-for';
import { startWorld, type World } from './support/world';

/**
 * With one request slot (REQUEST_CONCURRENCY=1), API requests wait their turn: every one is answered,
 * and a client that gives up while its request waits or runs does not keep the slot (a kept slot would
 * leave every later request waiting for ever).
 */

let world: World;
beforeAll(async () => {
  world = await startWorld({ REQUEST_CONCURRENCY: '1', REQUEST_QUEUE_LIMIT: '60' });
  await world.createBuild('web');
});
afterAll(async () => {
  await world?.close();
});

const BUILDS = '/v2/organizations/acme/pipelines/web/builds';

/** Waits until the server counts `active` requests at work and `waiting` ones waiting for a slot. */
const slotsAre = (active: number, waiting: number) =>
  waitFor(`${active} requests at work and ${waiting} waiting`, async () => {
    const slots = world.server.slots();
    return slots.active === active && slots.waiting === waiting;
  });

/**
 * Takes the only slot and keeps it: a create whose body never finishes arriving (the slot is taken as
 * the request arrives, before its body is read). Destroying the socket gives the slot back.
 */
async function holdTheSlot(): Promise<Socket> {
  const { port } = new URL(world.server.baseUrl);
  const socket = connect(Number(port), '127.0.0.1').on('error', () => {});
  socket.write(
    [
      `POST ${BUILDS} HTTP/1.1`,
      `host: 127.0.0.1:${port}`,
      `authorization: Bearer ${world.tokens.admin}`,
      'content-type: application/json',
      'content-length: 100',
      '',
      '{"commit":',
    ].join('\r\n'),
  );
  await slotsAre(1, 0);
  return socket;
}

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
    // One request at work (it holds the slot), and raw connections whose requests wait for it; then
    // every client gives up.
    const atWork = await holdTheSlot();
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
    await slotsAre(1, 60);
    atWork.destroy();
    for (const socket of sockets) socket.destroy();
    await slotsAre(0, 0);
    const after = await Promise.all(Array.from({ length: 5 }, () => world.call('GET', BUILDS)));
    expect(after.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it('turn a request away with 503 once as many wait as REQUEST_QUEUE_LIMIT allows, and answer the others', async () => {
    const atWork = await holdTheSlot();
    const waiting = Array.from({ length: 60 }, () => world.call('GET', BUILDS));
    await slotsAre(1, 60);
    const refused = await world.call('GET', BUILDS);
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      message: 'Service Unavailable: too many requests are waiting, try again shortly',
    });
    expect(refused.headers.get('retry-after')).toBe('1');
    // Health checks still pass; the refused request took no slot and no place.
    expect((await world.server.fetch('/healthz')).status).toBe(200);
    await slotsAre(1, 60);
    atWork.destroy();
    expect((await Promise.all(waiting)).map((response) => response.status)).toEqual(Array(60).fill(200));
    await slotsAre(0, 0);
  });

  it('never hold back health checks', async () => {
    const holder = await holdTheSlot();
    try {
      const response = await world.server.fetch('/healthz');
      expect(response.status).toBe(200);
    } finally {
      holder.destroy();
    }
    await slotsAre(0, 0);
  });
});
