import type { UseCases } from '@ci/application';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from './app';
import { readServerConfig } from './config';

/** GraphQL's server fails to load once, then loads. */
const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock('@ci/graphql', () => ({
  createGraphqlServer: () => {
    loads.count += 1;
    if (loads.count === 1) throw new Error('the schema failed to build');
    return {
      handleNode: async () => ({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('{"data":{}}'),
      }),
    };
  },
}));

const app = await buildApp({
  config: { ...readServerConfig({}), logLevel: 'silent' },
  useCases: {} as UseCases,
  pingDatabase: async () => {},
  requestContext: (next) => next(),
});
afterAll(() => app.close());

describe('the /graphql route', () => {
  it('loads GraphQL again after a failed load instead of answering 500 for ever', async () => {
    const query = { method: 'POST', url: '/graphql', payload: '{"query":"{__typename}"}' } as const;
    expect((await app.inject(query)).statusCode).toBe(500);
    const retried = await app.inject(query);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual({ data: {} });
    expect(loads.count).toBe(2);
  });
});
