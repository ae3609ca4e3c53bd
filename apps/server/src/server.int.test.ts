import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../test/support/server';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('the HTTP server', () => {
  it('answers GET / with a message and a unix timestamp', async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await server.fetch('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await response.json()) as { message: unknown; timestamp: number };
    expect(typeof body.message).toBe('string');
    expect(body.timestamp).toBeGreaterThanOrEqual(before);
    expect(body.timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('reports a healthy database on GET /healthz', async () => {
    const response = await server.fetch('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('answers unknown routes with a JSON 404 naming the method and path', async () => {
    const response = await server.fetch('/v9/nothing?x=1', { method: 'DELETE' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'No route matches DELETE /v9/nothing' });
  });

  it('puts a request id on every response, keeping a well-formed one the client sent', async () => {
    const generated = await server.fetch('/');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await server.fetch('/', { headers: { 'X-Request-Id': 'client-abc.123' } });
    expect(echoed.headers.get('x-request-id')).toBe('client-abc.123');
    const refused = await server.fetch('/', { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(refused.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });
});
