import { AsyncLocalStorage } from 'node:async_hooks';
import type { UseCases } from '@ci/application';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from './app';
import { readServerConfig } from './config';

/** GraphQL's server fails to load once, then loads. */
const loads = vi.hoisted(() => ({ count: 0, inContext: [] as boolean[] }));
vi.mock('@ci/graphql', () => ({
  createGraphqlServer: () => {
    loads.count += 1;
    if (loads.count === 1) throw new Error('the schema failed to build');
    return {
      handleNode: async () => {
        loads.inContext.push(unitOfWork.getStore() !== undefined);
        return {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: Buffer.from('{"data":{}}'),
        };
      },
    };
  },
}));

/** Stands for the database's request context: each request's own store. */
const unitOfWork = new AsyncLocalStorage<number>();
let requests = 0;
const pinged: Array<number | undefined> = [];

const app = await buildApp({
  config: { ...readServerConfig({}), logLevel: 'silent' },
  useCases: {} as UseCases,
  pingDatabase: async () => {
    pinged.push(unitOfWork.getStore());
  },
  requestContext: (next) => unitOfWork.run(++requests, next),
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

describe('the request context', () => {
  it('holds each request, its handler included, in a unit of work of its own', async () => {
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.inject({ method: 'GET', url: '/healthz' });
    expect(pinged.slice(-2)).toEqual([requests - 1, requests]);
  });

  it('holds a request with a body through its parsing to the handler', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/graphql',
      payload: '{"query":"{__typename}"}',
    });
    expect(response.statusCode).toBe(200);
    expect(loads.inContext.at(-1)).toBe(true);
  });
});
