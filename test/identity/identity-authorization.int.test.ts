import { SCOPES, type Scope } from '@ci/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectMessage, expectScopeHeaders } from '../support/answers';
import { type IdentityWorld, startIdentityWorld } from '../support/identity-world';
import { itRefusesWhomItMust } from '../support/scope-matrix';

/**
 * Who may call the identity endpoints: every operation against every kind of caller and every single
 * scope, each answer checked for its status, its exact body and the OAuth scope headers; and bad input,
 * which answers 4xx `{message}`, never 500.
 */

interface Operation {
  name: string;
  method: 'GET' | 'DELETE';
  /** the scope the operation needs; null: any valid token */
  scope: Scope | null;
  path: (organization: string) => string;
  success: 200 | 204;
  /** whether the path names an organization, which the token must be allowed to use */
  organization: boolean;
}

const OPERATIONS: Operation[] = [
  {
    name: 'GET /access-token',
    method: 'GET',
    scope: null,
    path: () => '/v2/access-token',
    success: 200,
    organization: false,
  },
  {
    name: 'DELETE /access-token',
    method: 'DELETE',
    scope: null,
    path: () => '/v2/access-token',
    success: 204,
    organization: false,
  },
  {
    name: 'GET /user',
    method: 'GET',
    scope: 'read_user',
    path: () => '/v2/user',
    success: 200,
    organization: false,
  },
  {
    name: 'GET /organizations',
    method: 'GET',
    scope: 'read_organizations',
    path: () => '/v2/organizations',
    success: 200,
    organization: false,
  },
  {
    name: 'GET /organizations/{org}',
    method: 'GET',
    scope: 'read_organizations',
    path: (organization) => `/v2/organizations/${organization}`,
    success: 200,
    organization: true,
  },
  {
    name: 'GET /organizations/{org}/members',
    method: 'GET',
    scope: 'read_organizations',
    path: (organization) => `/v2/organizations/${organization}/members`,
    success: 200,
    organization: true,
  },
];

let world: IdentityWorld;
beforeAll(async () => {
  world = await startIdentityWorld();
});
afterAll(() => world?.close());

/** A refused request must leave the token that made it working: nothing was revoked. */
async function expectStillValid(secret: string) {
  expect((await world.call('GET', '/v2/access-token', { token: secret })).status).toBe(200);
}

describe.each(OPERATIONS)('$name', (operation) => {
  const send = (token: string | null, organization = 'acme') =>
    world.call(operation.method, operation.path(organization), { token });

  itRefusesWhomItMust({
    world: () => world,
    scope: operation.scope,
    organization: operation.organization,
    send,
    organizationCases: [
      ['a member of acme asking for beta', async () => world.tokens.member, 'beta'],
      [
        'a token limited to organizations the user is not in',
        () => world.token('member', { organizations: ['beta'] }),
        'acme',
      ],
    ],
  });

  it.each<['admin' | 'member' | 'bystander']>([['admin'], ['member'], ['bystander']])(
    `succeeds for %s with only ${operation.scope ?? 'no scope at all'}`,
    async (user) => {
      const scopes = operation.scope ? [operation.scope] : [];
      const token = await world.token(user, { scopes });
      const response = await send(token);
      expect(response.status, response.text).toBe(operation.success);
      expectScopeHeaders(response, operation.scope, scopes);
    },
  );

  it('answers each single-scope token as its scope decides (the scope matrix)', async () => {
    const outcomes: Record<string, number> = {};
    for (const scope of SCOPES)
      outcomes[scope] = (await send(await world.token('member', { scopes: [scope] }))).status;
    const expected = Object.fromEntries(
      SCOPES.map((scope) => [scope, !operation.scope || scope === operation.scope ? operation.success : 403]),
    );
    expect(outcomes).toEqual(expected);
  });

  if (operation.method === 'GET') {
    it('never revokes the token it is called with, even when it refuses', async () => {
      const { secret } = await world.issueToken('member', { scopes: [] });
      await send(secret);
      await send(secret, 'nope');
      await expectStillValid(secret);
    });
  }
});

describe('bad input never answers 500', () => {
  const LISTS = ['/v2/organizations', '/v2/organizations/acme/members'];

  it.each([
    ['page=abc', 'page'],
    ['per_page=-1', 'per_page'],
    ['page=1.5', 'page'],
    ['per_page=1e3', 'per_page'],
    ['page=%00', 'page'],
    ['page=1%00', 'page'],
    ['page=9999999999', 'page'],
    ['page[]=x', 'page'],
    ['per_page=%F0%9F%9A%80', 'per_page'],
  ])('answers 400 naming the parameter for %s', async (query, name) => {
    for (const list of LISTS) {
      const response = await world.call('GET', `${list}?${query}`);
      expect(response.status, `${list}?${query}`).toBe(400);
      expect(Object.keys(response.body)).toEqual(['message']);
      expect(response.body.message).toMatch(new RegExp(`^${name} must be a positive integer$`));
    }
  });

  it.each(['page=0', 'page=', 'per_page=', 'per_page=0', 'per_page=100000000', 'page=1&page=zzz'])(
    'reads %s as the defaults or the clamp, as decisions.md says',
    async (query) => {
      for (const list of LISTS) {
        const response = await world.call('GET', `${list}?${query}`);
        expect(response.status, `${list}?${query}`).toBe(200);
        expect(response.body.length).toBeGreaterThan(0);
      }
    },
  );

  it('ignores paging parameters where nothing is paged, and unknown parameters everywhere', async () => {
    for (const path of [
      '/v2/organizations/acme?page=abc',
      '/v2/user?per_page=-1&x[]=1',
      '/v2/access-token?page=%00',
    ]) {
      expect((await world.call('GET', path)).status, path).toBe(200);
    }
  });

  it.each([
    ['SQL metacharacters', encodeURIComponent("'; drop table organizations; --")],
    ['an emoji', encodeURIComponent('🚀')],
    ['a NUL character', '%00'],
    ['an encoded slash', 'acme%2Fmembers'],
    ['a percent sign', '%25'],
    ['another case', 'ACME'],
    ['a trailing space', 'acme%20'],
    ['a LIKE wildcard', 'ac%25'],
    ['a segment of 2000 characters', 'a'.repeat(2000)],
  ])('answers 404 "No organization found" to a slug with %s', async (_case, slug) => {
    for (const path of [`/v2/organizations/${slug}`, `/v2/organizations/${slug}/members`]) {
      const response = await world.call('GET', path);
      expectMessage(response, 404, 'No organization found');
    }
  });

  it('answers malformed percent-encoding in the slug with a 400 message', async () => {
    for (const path of ['/v2/organizations/%zz', '/v2/organizations/ac%ffme/members']) {
      const response = await world.call('GET', path);
      expect(response.status, path).toBe(400);
      expect(Object.keys(response.body)).toEqual(['message']);
    }
  });

  it('answers a method or path no procedure has with the 404 route message', async () => {
    for (const [method, path] of [
      ['POST', '/v2/access-token'],
      ['PUT', '/v2/user'],
      ['DELETE', '/v2/organizations/acme'],
      ['GET', '/v2/organizations/acme/members/extra'],
    ] as const) {
      expectMessage(await world.call(method, path), 404, `No route matches ${method} ${path}`);
    }
  });
});
