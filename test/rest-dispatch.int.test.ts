import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoContent, JSON_TYPE } from './support/answers';
import { startWorld, type World } from './support/world';

/**
 * How /v2 finds the procedure of a request (packages/trpc/src/rest-api.ts): the OpenAPI paths, compared
 * as trpc-to-openapi compares them (case-insensitively, with or without a trailing slash, a `{name}` one
 * undecoded segment); anything else is the server's own 404.
 */

let world: World;
let number: number;
beforeAll(async () => {
  world = await startWorld();
  number = (await world.createBuild('web')).number;
});
afterAll(async () => {
  await world?.close();
});

describe('the REST dispatcher', () => {
  it('answers a path with a trailing slash, and in another case, as the path itself', async () => {
    const plain = await world.call('GET', `/v2/organizations/acme/pipelines/web/builds/${number}`);
    expect(plain.status).toBe(200);
    for (const path of [
      `/v2/organizations/acme/pipelines/web/builds/${number}/`,
      `/v2/Organizations/acme/Pipelines/web/BUILDS/${number}`,
    ]) {
      const response = await world.call('GET', path);
      expect(response.status, path).toBe(200);
      expect(response.body).toEqual(plain.body);
    }
  });

  it('gives the path parameters undecoded: an escaped slug names nothing', async () => {
    const response = await world.call('GET', '/v2/organizations/acme/pipelines/w%65b/builds');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No pipeline found' });
  });

  it('answers a path or a method no procedure has with the server 404', async () => {
    for (const [method, path] of [
      ['GET', '/v2/organizations/acme/pipelines/web/bulds'],
      ['PATCH', '/v2/user'],
      ['GET', '/v2/'],
    ] as const) {
      const response = await world.call(method, path);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body).toEqual({ message: `No route matches ${method} ${path}` });
    }
  });

  it('calls a procedure without input with none, whatever the query or the body', async () => {
    const response = await world.call('GET', '/v2/user?x=1');
    expect(response.status).toBe(200);
    expect(response.body.email).toBe(world.users.admin.email);
    const token = await world.token('admin');
    const revoked = await world.call('DELETE', '/v2/access-token', { token, body: { description: 'x' } });
    expectNoContent(revoked);
    expect((await world.call('GET', '/v2/user', { token })).status).toBe(401);
  });

  it('answers the success status of the procedure and its headers', async () => {
    const created = await world.call('POST', '/v2/organizations/acme/pipelines/web/builds', {
      body: { commit: 'HEAD', branch: 'main' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-accepted-oauth-scopes')).toBe('write_builds');
    expect(created.headers.get('content-type')).toBe(JSON_TYPE);
  });
});
