import { connect, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from './support/server';
import { waitFor } from './support/wait-for';
import { startWorld, type World } from './support/world';

/**
 * No request can hold the server: clients that pipeline and vanish, or send half a body and wait, leave
 * every other request served (issue 25's reproductions); requests that never finish arriving are cut by
 * Node's timeouts, and an overloaded server sheds API requests with a 503 a client can act on.
 */

const BUILDS = '/v2/organizations/acme/pipelines/web/builds';

let world: World;
beforeAll(async () => {
  world = await startWorld();
  await world.createBuild('web');
});
afterAll(async () => {
  await world?.close();
});

const portOf = (baseUrl: string) => Number(new URL(baseUrl).port);

/** A raw TCP connection to a server, for what `fetch` cannot send. */
function connection(baseUrl: string): Socket {
  return connect(portOf(baseUrl), '127.0.0.1').on('error', () => {});
}

/** A create whose headers promise 1,000 bytes of body, of which only `{"commit":` is sent. */
const halfBody = (baseUrl: string, token: string) =>
  [
    `POST ${BUILDS} HTTP/1.1`,
    `host: 127.0.0.1:${portOf(baseUrl)}`,
    `authorization: Bearer ${token}`,
    'content-type: application/json',
    'content-length: 1000',
    '',
    '{"commit":',
  ].join('\r\n');

/** Waits until `on`'s server (by default the first world's) has read the headers of `count` more requests. */
function requestsArrive(count: number, on: World = world): Promise<void> {
  const server = on.server.app.server;
  return new Promise((resolve) => {
    let seen = 0;
    const onRequest = () => {
      seen += 1;
      if (seen < count) return;
      server.off('request', onRequest);
      resolve();
    };
    server.on('request', onRequest);
  });
}

/** An ordinary authenticated list, given up after a second: a server that holds it fails the test. */
async function listWithinASecond(on: World = world): Promise<number> {
  const response = await on.server.fetch(BUILDS, {
    headers: { authorization: `Bearer ${on.tokens.admin}` },
    signal: AbortSignal.timeout(1000),
  });
  await response.arrayBuffer();
  return response.status;
}

/** The statuses of 30 concurrent calls, REST, tRPC and GraphQL in turn, as `on`'s admin. */
async function concurrentCalls(on: World): Promise<number[]> {
  const calls = Array.from({ length: 30 }, (_, i) =>
    i % 3 === 0
      ? on.call('GET', BUILDS)
      : i % 3 === 1
        ? on.call(
            'GET',
            `/trpc/builds.listForPipeline?input=${encodeURIComponent('{"organization":"acme","pipeline":"web"}')}`,
          )
        : on.call('POST', '/graphql', { body: { query: '{ viewer { user { name } } }' } }),
  );
  return (await Promise.all(calls)).map((response) => response.status);
}

describe('a server under abuse', () => {
  it('answers the next request after a connection pipelines 8 requests and is destroyed', async () => {
    const socket = connection(world.server.baseUrl);
    const request = [
      'GET /v2/organizations/acme/pipelines/x/builds HTTP/1.1',
      `host: 127.0.0.1:${portOf(world.server.baseUrl)}`,
      'authorization: Bearer bkua_madeup',
      '',
      '',
    ].join('\r\n');
    const arrived = requestsArrive(8);
    socket.write(request.repeat(8));
    // Destroyed while the 401s are still being worked out, so that some wait in the pipeline.
    await arrived;
    socket.destroy();

    expect(await listWithinASecond()).toBe(200);
  });

  it('answers the next request while four connections hold half a body each', async () => {
    const arrived = requestsArrive(4);
    const sockets = Array.from({ length: 4 }, () => {
      const socket = connection(world.server.baseUrl);
      socket.write(halfBody(world.server.baseUrl, world.tokens.admin));
      return socket;
    });
    await arrived;
    try {
      expect(await listWithinASecond()).toBe(200);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  it('answers every one of many concurrent requests, REST, tRPC and GraphQL', async () => {
    expect(await concurrentCalls(world)).toEqual(Array(30).fill(200));
  });
});

describe('a server that works on one API call at a time (REQUEST_CONCURRENCY=1)', () => {
  let one: World;
  beforeAll(async () => {
    one = await startWorld({ REQUEST_CONCURRENCY: '1' });
    await one.createBuild('web');
  });
  afterAll(async () => {
    await one?.close();
  });

  it('gives its place back after refusals, errors and failed GraphQL', async () => {
    const [refused, missing, graphql, invalid] = await Promise.all([
      one.call('GET', BUILDS, { token: 'bkua_madeup' }),
      one.call('GET', '/v2/organizations/acme/pipelines/missing/builds'),
      one.call('POST', '/graphql', { body: { query: '{ nothing' } }),
      one.call('POST', BUILDS, { body: { commit: 'HEAD' } }),
    ]);
    expect([refused.status, missing.status, invalid.status]).toEqual([401, 404, 422]);
    expect(graphql.body.errors?.[0]?.message).toMatch(/Syntax Error/);
    expect(await listWithinASecond(one)).toBe(200);
  });

  it('gives its place back when the client goes away before the answer', async () => {
    const arrived = requestsArrive(7, one);
    const gone = Array.from({ length: 6 }, () => {
      const socket = connect(portOf(one.server.baseUrl), '127.0.0.1').on('error', () => {});
      socket.write(
        [`GET ${BUILDS} HTTP/1.1`, 'host: x', `authorization: Bearer ${one.tokens.admin}`, '', ''].join(
          '\r\n',
        ),
      );
      return socket;
    });
    const aborted = new AbortController();
    const request = one.server.fetch('/graphql', {
      method: 'POST',
      headers: { authorization: `Bearer ${one.tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ viewer { user { name } } }' }),
      signal: aborted.signal,
    });
    await arrived;
    for (const socket of gone) socket.destroy();
    aborted.abort();
    await request.catch(() => {});
    expect(await listWithinASecond(one)).toBe(200);
  });

  it('answers every one of many concurrent requests in turn, REST, tRPC and GraphQL', async () => {
    expect(await concurrentCalls(one)).toEqual(Array(30).fill(200));
  });
});

describe('a server whose one place is taken and whose queue is full (REQUEST_QUEUE_LIMIT=0)', () => {
  it('answers API requests 503 {message} with Retry-After until the place is free again', async () => {
    const busy = await startWorld({
      REQUEST_CONCURRENCY: '1',
      REQUEST_QUEUE_LIMIT: '0',
      PRESSURE_RETRY_AFTER_SECONDS: '3',
    });
    // A create waits on the pipeline's row, locked here, and so holds the one place.
    const lock = new pg.Client({ connectionString: busy.server.url });
    try {
      await lock.connect();
      await lock.query('begin');
      await lock.query("select 1 from pipelines where slug = 'web' for update");
      const created = busy.call('POST', BUILDS, { body: { commit: 'HEAD', branch: 'main' } });
      await waitFor('the create to wait on the lock', async () => {
        const { rows } = await lock.query(
          "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
        );
        return rows[0].n > 0;
      });
      const shed = await busy.call('GET', BUILDS);
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).toBe('3');
      expect(shed.body).toEqual({ message: expect.stringMatching(/overloaded/) });
      expect((await busy.server.fetch('/healthz')).status).toBe(200);
      await lock.query('commit');
      expect((await created).status).toBe(201);
      expect(await listWithinASecond(busy)).toBe(200);
    } finally {
      await lock.end();
      await busy.close();
    }
  });
});

describe('a server under pressure', () => {
  const ORIGIN = 'https://app.example.com';
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    // Every process holds more than 1 MB: from its first sample (a second after start) on, this one is
    // under pressure for good.
    server = await startTestServer({
      PRESSURE_MAX_RSS_MB: '1',
      PRESSURE_RETRY_AFTER_SECONDS: '7',
      CORS_ORIGINS: ORIGIN,
    });
    await waitFor('the server to shed a request', async () => {
      const response = await server.fetch('/v2/user');
      await response.arrayBuffer();
      return response.status === 503;
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers REST, tRPC and GraphQL 503 {message} with Retry-After and the CORS headers', async () => {
    for (const [method, path] of [
      ['GET', '/v2/organizations/acme/pipelines/web/builds'],
      ['GET', '/trpc/builds.listForPipeline'],
      ['POST', '/graphql'],
    ] as const) {
      const response = await server.fetch(path, {
        method,
        headers: { origin: ORIGIN, authorization: 'Bearer bkua_madeup' },
      });
      expect(response.status, path).toBe(503);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({
        message: 'Service Unavailable: the server is overloaded, try again shortly',
      });
      expect(response.headers.get('retry-after')).toBe('7');
      expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(response.headers.get('x-request-id')).toBeTruthy();
    }
  });

  it('still answers health checks, CORS preflights and the root', async () => {
    expect((await server.fetch('/healthz')).status).toBe(200);
    expect((await server.fetch('/')).status).toBe(200);
    const preflight = await server.fetch('/v2/user', {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ORIGIN);
  });
});

describe('a server with a one-second request timeout', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer({ REQUEST_TIMEOUT_SECONDS: '1' });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** What the server sends on a connection, once it has closed it. */
  function answerAndClose(socket: Socket): Promise<string> {
    return new Promise((resolve) => {
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
    });
  }

  it.each([
    ['its body never ends', (baseUrl: string) => halfBody(baseUrl, 'bkua_madeup')],
    ['its headers never end', () => `GET ${BUILDS} HTTP/1.1\r\nhost: 127.0.0.1\r\n`],
  ])('answers 408 and closes the connection of a request when %s', async (_case, request) => {
    const socket = connection(server.baseUrl);
    const answer = answerAndClose(socket);
    socket.write(request(server.baseUrl));
    // Node times the request out; Fastify's client-error handler writes the answer and closes.
    const [head = '', body = ''] = (await answer).split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(JSON.parse(body)).toMatchObject({ message: expect.any(String) });
  });
});

describe('answers that end a connection', () => {
  it("answers oversized headers 431 {message} with Connection: close, and a keep-alive client's next requests succeed", async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const refused = await world.server.fetch(`/v2/user?padding=${'x'.repeat(64 * 1024)}`);
      expect(refused.status).toBe(431);
      expect(refused.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(refused.headers.get('connection')).toBe('close');
      expect(await refused.json()).toEqual({
        message: 'Request Header Fields Too Large: send a shorter URL or fewer, shorter headers',
      });
      // The same client (fetch keeps connections alive) goes on without a failed request.
      expect(await listWithinASecond()).toBe(200);
    }
  });

  it('answers malformed HTTP 400 {message} and closes', async () => {
    const socket = connection(world.server.baseUrl);
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
    });
    socket.write('GET / HTTP/1.1\r\nhost: x\r\nbad header line\r\n\r\n');
    const [head = '', body = ''] = (await answer).split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(head).toContain('Connection: close');
    expect(head).toContain('Content-Type: application/json; charset=utf-8');
    expect(JSON.parse(body)).toEqual({ message: 'Bad Request: the request is not well-formed HTTP' });
  });

  it('answers a request that arrives while the server shuts down 503 {message} with Connection: close', async () => {
    const server = await startTestServer();
    try {
      const socket = connection(server.baseUrl);
      const answer = new Promise<string>((resolve) => {
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
          text += chunk;
        });
        socket.on('close', () => resolve(text));
      });
      // A request whose body is still coming keeps its connection busy while the server starts closing;
      // the request pipelined after it arrives once the server is closing.
      const first = ['POST /v2/nothing HTTP/1.1', 'host: x', 'content-length: 2', '', '{'].join('\r\n');
      const arrived = new Promise((resolve) => server.app.server.once('request', resolve));
      socket.write(first);
      await arrived;
      const closed = server.app.close();
      socket.write(`}GET /v2/user HTTP/1.1\r\nhost: x\r\n\r\n`);
      const text = await answer;
      await closed;
      const answers = text.split(/(?=HTTP\/1\.1 )/);
      expect(answers[0]).toMatch(/^HTTP\/1\.1 404 /);
      const [head = '', body = ''] = (answers[1] ?? '').split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
      expect(head.toLowerCase()).toContain('connection: close');
      expect(head.toLowerCase()).toContain('content-type: application/json; charset=utf-8');
      expect(head.toLowerCase()).toContain('retry-after: 1');
      expect(JSON.parse(body)).toEqual({
        message: 'Service Unavailable: the server is shutting down, try again shortly',
      });
    } finally {
      await server.database.close();
    }
  });
});
