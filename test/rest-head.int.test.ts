import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, type World } from './support/world';

/**
 * HEAD on /v2 answers what GET answers there, without the body (Fastify's `exposeHeadRoutes` routes it
 * to the GET route): status, headers and Content-Length. Rate limiting is on, so that its headers count.
 */

let world: World;
let number: number;
beforeAll(async () => {
  world = await startWorld({ RATE_LIMIT_ENABLED: 'true' });
  for (let i = 0; i < 3; i += 1) number = (await world.createBuild('web')).number;
});
afterAll(async () => {
  await world?.close();
});

/**
 * Headers that may differ between two requests: the date, the counters that count them, the window's end,
 * and the connection's (undici closes the connection after a HEAD: it asks `Connection: close`).
 */
const PER_REQUEST = [
  'date',
  'ratelimit-remaining',
  'ratelimit-user-remaining',
  'ratelimit-reset',
  'ratelimit-user-reset',
  'connection',
  'keep-alive',
];

/** A GET, then the same request as HEAD, with the same request id. */
async function getThenHead(
  path: string,
  options: { token?: string | null; headers?: Record<string, string> } = {},
) {
  const headers = { 'X-Request-Id': randomUUID(), ...options.headers };
  const get = await world.call('GET', path, { ...options, headers });
  const head = await world.call('HEAD', path, { ...options, headers });
  return { get, head };
}

type Answer = Awaited<ReturnType<World['call']>>;

/** HEAD's answer is GET's, no body: the same status and headers (the counters one request further). */
function expectHeadAnswersAsGet({ get, head }: { get: Answer; head: Answer }) {
  expect(head.status).toBe(get.status);
  expect(head.text).toBe('');
  const stable = (answer: Answer) =>
    Object.fromEntries([...answer.headers].filter(([name]) => !PER_REQUEST.includes(name)));
  expect(stable(head)).toEqual(stable(get));
  for (const counter of ['ratelimit-remaining', 'ratelimit-user-remaining']) {
    const before = get.headers.get(counter);
    if (before === null) expect(head.headers.has(counter), counter).toBe(false);
    else expect(Number(head.headers.get(counter)), counter).toBe(Number(before) - 1);
  }
  for (const reset of ['ratelimit-reset', 'ratelimit-user-reset']) {
    expect(head.headers.has(reset), reset).toBe(get.headers.has(reset));
  }
}

describe('HEAD on /v2', () => {
  it("answers a build list's status, pages and length without its body", async () => {
    const answers = await getThenHead('/v2/organizations/acme/pipelines/web/builds?per_page=1&page=2');
    expect(answers.get.status).toBe(200);
    expect(answers.get.headers.get('link')).toContain('rel="next"');
    expect(answers.get.headers.get('ratelimit-user-remaining')).not.toBeNull();
    expect(Number(answers.head.headers.get('content-length'))).toBe(Buffer.byteLength(answers.get.text));
    expectHeadAnswersAsGet(answers);
  });

  it("answers a build's status, ETag and length without its body", async () => {
    const answers = await getThenHead(`/v2/organizations/acme/pipelines/web/builds/${number}`);
    expect(answers.get.status).toBe(200);
    expect(answers.get.headers.get('etag')).toBeTruthy();
    expect(answers.get.headers.get('content-length')).toBe(answers.head.headers.get('content-length'));
    expectHeadAnswersAsGet(answers);
  });

  it('answers 304 when If-None-Match names the current ETag, as GET does', async () => {
    const path = `/v2/organizations/acme/pipelines/web/builds/${number}`;
    const etag = (await world.call('GET', path)).headers.get('etag')!;
    const answers = await getThenHead(path, { headers: { 'If-None-Match': etag } });
    expect(answers.get.status).toBe(304);
    expectHeadAnswersAsGet(answers);
  });

  it('answers 401 without a token, as GET does', async () => {
    const answers = await getThenHead('/v2/organizations/acme/pipelines/web/builds', { token: null });
    expect(answers.get.status).toBe(401);
    expectHeadAnswersAsGet(answers);
  });

  it('answers 404 for a missing pipeline, as GET does', async () => {
    const answers = await getThenHead('/v2/organizations/acme/pipelines/nothing/builds');
    expect(answers.get.status).toBe(404);
    expectHeadAnswersAsGet(answers);
  });

  it("answers /v2/user's status and length without its body", async () => {
    const answers = await getThenHead('/v2/user');
    expect(answers.get.status).toBe(200);
    expect(answers.get.body.email).toBe(world.users.admin.email);
    expectHeadAnswersAsGet(answers);
  });

  it('sends the headers alone on the connection, no body after them', async () => {
    const { port } = new URL(world.server.baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    const sent = new Promise<string>((resolve, reject) => {
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    socket.write(
      `HEAD /v2/user HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${world.tokens.admin}\r\n` +
        'Connection: close\r\n\r\n',
    );
    const [head = '', ...rest] = (await sent).split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toMatch(/\r\ncontent-length: [1-9]\d*\r\n/i);
    expect(rest.join('')).toBe('');
  });

  it('answers the server 404 where GET has no procedure, the prefix itself included', async () => {
    for (const path of ['/v2/', `/v2/organizations/acme/pipelines/web/builds/${number}/cancel`]) {
      const answers = await getThenHead(path);
      expect(answers.get.status, path).toBe(404);
      expectHeadAnswersAsGet(answers);
    }
  });
});
