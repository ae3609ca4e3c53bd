import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_TYPE } from './support/answers';
import { startTestServer } from './support/server';

const PUBLIC_API_URL = 'https://ci.example.test';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer({ PUBLIC_API_URL });
});
afterAll(async () => {
  await server?.close();
});

describe('GET /v2/openapi.json', () => {
  it('answers the OpenAPI document as JSON without a token', async () => {
    const response = await server.fetch('/v2/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toContain(
      '/organizations/{organization}/pipelines/{pipeline}/builds',
    );
  });

  it('names the configured public URL as its server', async () => {
    const response = await server.fetch('/v2/openapi.json');
    const document = (await response.json()) as { servers: Array<{ url: string }> };
    expect(document.servers[0]?.url).toBe(`${PUBLIC_API_URL}/v2`);
  });

  it('is not mistaken for a REST operation that needs authentication', async () => {
    const response = await server.fetch('/v2/openapi.json', {
      headers: { Authorization: 'Bearer nonsense' },
    });
    expect(response.status).toBe(200);
  });
});
