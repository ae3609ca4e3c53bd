import { Writable } from 'node:stream';
import type { UseCases } from '@ci/application';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { documented, documentedList } from './documented';
import { type ResponseCheck, responseValidator } from './response-validation';
import { registerRestApi } from './rest-api';
import { authed, router, type TrpcContext } from './trpc';

const Thing = z.object({ id: z.string(), count: z.int() }).meta({ id: 'Thing' });

/** Procedures whose results match their response schema, or do not. */
const things = router({
  good: authed
    .meta({ openapi: { method: 'GET', path: '/good' } })
    .input(z.void())
    .output(documented(Thing))
    .query(() => ({ id: 'a', count: 1 })),
  bad: authed
    .meta({ openapi: { method: 'GET', path: '/bad' } })
    .input(z.void())
    .output(documented(Thing))
    .query(() => ({ id: 'a', count: 'one' }) as unknown as z.output<typeof Thing>),
  badItem: authed
    .meta({ openapi: { method: 'GET', path: '/bad-list' } })
    .input(z.void())
    .output(documentedList(Thing))
    .query(() => [{ id: 'a', count: 1 }, { id: 7 }] as unknown as Array<z.output<typeof Thing>>),
  nothing: authed
    .meta({ openapi: { method: 'DELETE', path: '/good' }, successStatus: 204 })
    .input(z.void())
    .output(z.void())
    .mutation(() => undefined),
});

const useCases = {
  authenticateRequest: async () => ({
    actor: { tokenId: 't', user: {}, scopes: [], organizationIds: null },
  }),
} as unknown as UseCases;

async function serve(validateResponse: ResponseCheck | undefined) {
  const logged: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logged.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const app = Fastify({ logger: { level: 'error', stream } });
  registerRestApi(app, {
    prefix: '/v2',
    router: things,
    createContext: (): TrpcContext => ({
      useCases,
      urls: { api: 'https://api.ci.test', web: 'https://ci.test' },
      authorization: undefined,
      rest: { target: '/', body: undefined },
      response: { headers: {} },
      rateLimits: null,
      validateResponse,
    }),
  });
  return { app, logged };
}

const validating = await serve(responseValidator(things));
const trusting = await serve(undefined);
afterAll(async () => {
  await validating.app.close();
  await trusting.app.close();
});

describe('response validation', () => {
  it('sends a result that matches its response schema as it is', async () => {
    const response = await validating.app.inject({ method: 'GET', url: '/v2/good' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 'a', count: 1 });
    expect((await validating.app.inject({ method: 'DELETE', url: '/v2/good' })).statusCode).toBe(204);
  });

  it.each([
    ['/v2/bad', 'count'],
    ['/v2/bad-list', '[1].id'],
  ])('answers %s with a bare 500 and logs the issues, naming the procedure', async (url, path) => {
    validating.logged.length = 0;
    const response = await validating.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: 'Internal Server Error' });
    const [entry] = validating.logged;
    const message = String((entry?.err as { message?: unknown } | undefined)?.message);
    expect(message).toMatch(/^The response of (bad|badItem) does not match its schema/);
    expect(message).toContain(`→ at ${path}`);
  });

  it('sends a result unchecked when validation is off', async () => {
    const response = await trusting.app.inject({ method: 'GET', url: '/v2/bad' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 'a', count: 'one' });
  });

  it('checks a tRPC call the same way', async () => {
    const caller = things.createCaller({
      useCases,
      urls: { api: 'https://api.ci.test', web: 'https://ci.test' },
      authorization: undefined,
      rest: null,
      response: { headers: {} },
      rateLimits: null,
      validateResponse: responseValidator(things),
    });
    await expect(caller.good()).resolves.toEqual({ id: 'a', count: 1 });
    await expect(caller.bad()).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR' });
  });
});
