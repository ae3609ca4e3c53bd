import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../support/server';
import { startWorld, type World } from '../support/world';

const ALLOWED = 'https://a.example';
const ALSO_ALLOWED = 'https://b.example';
const STRANGER = 'https://evil.example';
const BUILDS = '/v2/organizations/acme/pipelines/web/builds';

const EXPOSED = [
  'Link',
  'RateLimit-Remaining',
  'RateLimit-Limit',
  'RateLimit-Reset',
  'RateLimit-User-Remaining',
  'RateLimit-User-Limit',
  'RateLimit-User-Reset',
  'Retry-After',
  'X-OAuth-Scopes',
  'X-Accepted-OAuth-Scopes',
  'X-Request-Id',
];

const corsHeadersOf = (headers: Headers) =>
  Object.fromEntries([...headers].filter(([name]) => name.startsWith('access-control-')));

const preflight = (world: World, path: string, origin: string, requestHeaders = 'authorization') =>
  world.server.fetch(path, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': requestHeaders,
    },
  });

describe('CORS with configured origins', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld({ CORS_ORIGINS: `${ALLOWED}, ${ALSO_ALLOWED}`, RATE_LIMIT_ENABLED: 'true' });
  });
  afterAll(async () => {
    await world?.close();
  });

  it.each([
    BUILDS,
    '/v2/builds',
    '/v2/packages/organizations/acme/registries/anything',
    '/v2/no/such/route',
    '/trpc/builds.create',
    '/graphql',
  ])('answers a preflight on %s with 204 and what the browser may send', async (path) => {
    const response = await preflight(
      world,
      path,
      ALSO_ALLOWED,
      'authorization, content-type, x-client-version',
    );
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(corsHeadersOf(response.headers)).toEqual({
      'access-control-allow-origin': ALSO_ALLOWED,
      'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      // The headers the browser says it will send (@fastify/cors reflects them).
      'access-control-allow-headers': 'authorization, content-type, x-client-version',
      'access-control-max-age': '7200',
    });
    expect(response.headers.get('vary')).toBe('Origin, Access-Control-Request-Headers');
  });

  it('gives a preflight from another origin no allow headers: it is routed as any OPTIONS', async () => {
    const response = await preflight(world, BUILDS, STRANGER);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: `No route matches OPTIONS ${BUILDS}` });
    expect(corsHeadersOf(response.headers)).toEqual({});
    expect(response.headers.get('vary')).toContain('Origin');
  });

  it('routes an OPTIONS that is no preflight, from an allowed origin, as any request', async () => {
    const response = await world.server.fetch(BUILDS, { method: 'OPTIONS', headers: { Origin: ALLOWED } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: `No route matches OPTIONS ${BUILDS}` });
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('lets an allowed origin read a success with its Link and rate-limit headers', async () => {
    await world.createBuild('web');
    await world.createBuild('web');
    const response = await world.call('GET', `${BUILDS}?per_page=1`, { headers: { Origin: ALLOWED } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('vary')).toContain('Origin');
    expect(response.headers.get('access-control-expose-headers')?.split(', ')).toEqual(EXPOSED);
    // Every header the list names is really there to read.
    for (const name of [
      'Link',
      'RateLimit-Remaining',
      'RateLimit-User-Remaining',
      'X-OAuth-Scopes',
      'X-Request-Id',
    ]) {
      expect(response.headers.get(name), name).not.toBeNull();
    }
  });

  it.each<[string, string, Record<string, unknown>]>([
    ['401', '/v2/builds', { token: null }],
    ['404', '/v2/organizations/acme/pipelines/nope/builds', {}],
    ['404 of an unknown route', '/v2/no/such/route', {}],
    ['400', `${BUILDS}?page=x`, {}],
    ['400 of a path that does not decode', '/v2/organizations/%FF/pipelines', {}],
  ])('lets an allowed origin read a %s too', async (_, path, options) => {
    const response = await world.call('GET', path, { ...options, headers: { Origin: ALLOWED } });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(response.headers.get('access-control-expose-headers')).toBe(EXPOSED.join(', '));
  });

  it('serves tRPC to an allowed origin', async () => {
    const input = encodeURIComponent(JSON.stringify({ organization: 'acme' }));
    const response = await world.call('GET', `/trpc/registries.list?input=${input}`, {
      headers: { Origin: ALSO_ALLOWED },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(ALSO_ALLOWED);
  });

  it('gives another origin, and a request without one, no CORS headers', async () => {
    for (const headers of [{ Origin: STRANGER }, {}] as Array<Record<string, string>>) {
      const response = await world.call('GET', BUILDS, { headers });
      expect(response.status).toBe(200);
      expect(corsHeadersOf(response.headers)).toEqual({});
      expect(response.headers.get('vary')).toContain('Origin');
    }
  });

  it('leaves the paths outside the API alone', async () => {
    const health = await world.server.fetch('/healthz', { headers: { Origin: ALLOWED } });
    expect(health.status).toBe(200);
    expect(corsHeadersOf(health.headers)).toEqual({});
    const options = await world.server.fetch('/healthz', {
      method: 'OPTIONS',
      headers: { Origin: ALLOWED, 'Access-Control-Request-Method': 'GET' },
    });
    expect(options.status).toBe(404);
  });
});

describe('CORS with `*`', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld({ CORS_ORIGINS: '*' });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('allows any origin, answering it by name', async () => {
    const response = await world.call('GET', BUILDS, { headers: { Origin: STRANGER } });
    expect(response.headers.get('access-control-allow-origin')).toBe(STRANGER);
    const pre = await preflight(world, BUILDS, STRANGER);
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(STRANGER);
  });
});

describe('without CORS origins (the default)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends no CORS header and has no preflight answer', async () => {
    const response = await server.fetch('/v2/builds', { headers: { Origin: ALLOWED } });
    expect(response.status).toBe(401);
    expect(corsHeadersOf(response.headers)).toEqual({});
    expect(response.headers.get('vary')).toBeNull();
    const pre = await server.fetch(BUILDS, {
      method: 'OPTIONS',
      headers: { Origin: ALLOWED, 'Access-Control-Request-Method': 'POST' },
    });
    expect(pre.status).toBe(404);
    expect(await pre.json()).toEqual({ message: `No route matches OPTIONS ${BUILDS}` });
    expect(corsHeadersOf(pre.headers)).toEqual({});
  });
});
