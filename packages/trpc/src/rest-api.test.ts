import type { UseCases } from '@ci/application';
import { initTRPC } from '@trpc/server';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerRestApi } from './rest-api';
import type { Meta, TrpcContext } from './trpc';

const t = initTRPC.context<TrpcContext>().meta<Meta>().create();

/** Two procedures on one path, the first hidden from the OpenAPI document (`enabled: false`). */
const router = t.router({
  hidden: t.procedure
    .meta({ openapi: { method: 'GET', path: '/things', enabled: false } })
    .input(z.void())
    .output(z.string())
    .query(() => 'hidden'),
  shown: t.procedure
    .meta({ openapi: { method: 'GET', path: '/things' } })
    .input(z.void())
    .output(z.string())
    .query(() => 'shown'),
  onlyHidden: t.procedure
    .meta({ openapi: { method: 'GET', path: '/secret', enabled: false } })
    .input(z.void())
    .output(z.string())
    .query(() => 'secret'),
});

const app = Fastify();
registerRestApi(app, {
  prefix: '/v2',
  router,
  createContext: () => ({
    useCases: {} as UseCases,
    urls: { api: 'https://api.ci.test', web: 'https://ci.test' },
    authorization: undefined,
    rest: null,
    response: { headers: {} },
    rateLimits: null,
  }),
});
afterAll(() => app.close());

describe('registerRestApi', () => {
  it('serves only the procedures the OpenAPI document shows: not one with `openapi.enabled` false', async () => {
    const things = await app.inject({ method: 'GET', url: '/v2/things' });
    expect(things.statusCode).toBe(200);
    expect(things.json()).toBe('shown');
    expect((await app.inject({ method: 'GET', url: '/v2/secret' })).statusCode).toBe(404);
  });
});
