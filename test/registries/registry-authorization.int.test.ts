import type { Scope } from '@ci/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectScopeHeaders } from '../support/answers';
import { type RegistriesWorld, startRegistriesWorld } from '../support/registries-world';
import { itRefusesWhomItMust } from '../support/scope-matrix';

/**
 * Who may do what with registries on /v2: every operation against every kind of caller, each answer
 * checked for its status, its exact body, the OAuth scope headers, and that a refused request changed
 * nothing (decisions.md, "Errors" and "Authorization model"; docs/compatibility.md for members).
 */

type RegistryScope = 'read_registries' | 'create_registries' | 'write_registries' | 'delete_registries';

interface Operation {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  scope: RegistryScope;
  /** the path against a registry slug (ignored by the organization-wide operations) */
  path: (organization: string, slug: string) => string;
  /** the body of a request meant to succeed; `n` keeps names unique across requests */
  body?: (n: number) => Record<string, unknown>;
  /** what a success answers */
  answers: 'list' | 'registry' | 'empty';
  /** whether the operation needs a registry of its own, which it may change or delete */
  target: boolean;
}

const registries = (organization: string) => `/v2/packages/organizations/${organization}/registries`;
const registry = (organization: string, slug: string) => `${registries(organization)}/${slug}`;

const OPERATIONS: Operation[] = [
  { name: 'list', method: 'GET', scope: 'read_registries', path: registries, answers: 'list', target: false },
  {
    name: 'create',
    method: 'POST',
    scope: 'create_registries',
    path: registries,
    body: (n) => ({ name: `created ${n}`, ecosystem: 'ruby' }),
    answers: 'registry',
    target: false,
  },
  { name: 'get', method: 'GET', scope: 'read_registries', path: registry, answers: 'registry', target: true },
  ...(['POST', 'PATCH', 'PUT'] as const).map(
    (method): Operation => ({
      name: `update (${method})`,
      method,
      scope: 'write_registries',
      path: registry,
      body: (n) => ({ description: `changed ${n}` }),
      answers: 'registry',
      target: true,
    }),
  ),
  {
    name: 'delete',
    method: 'DELETE',
    scope: 'delete_registries',
    path: registry,
    answers: 'empty',
    target: true,
  },
];

let world: RegistriesWorld;
let n = 0;
/** A registry of `acme` made for one request, so requests meant to succeed never share one. */
const target = async () =>
  (await world.createRegistry({ name: `target ${++n}`, description: 'as made' })).slug;

beforeAll(async () => {
  world = await startRegistriesWorld();
  // A registry no request should ever change: the witness that refusals write nothing.
  await world.createRegistry({ name: 'witness', description: 'untouched' });
});
afterAll(() => world?.close());

/** Sends a request that must be refused, and checks that it changed no registry at all. */
async function refused(operation: Operation, token: string | null, organization = 'acme') {
  const slug = operation.target ? 'witness' : '';
  const before = await world.registryRows();
  const response = await world.call(operation.method, operation.path(organization, slug), {
    token,
    ...(operation.body ? { body: operation.body(++n) } : {}),
  });
  expect(await world.registryRows()).toEqual(before);
  return response;
}

describe.each(OPERATIONS)('$name', (operation) => {
  itRefusesWhomItMust({
    world: () => world,
    scope: operation.scope,
    organization: true,
    send: (token, organization) => refused(operation, token, organization),
  });

  it.each<[string, 'admin' | 'member']>([
    ['an admin', 'admin'],
    ['a member', 'member'],
  ])(`succeeds for %s with only ${operation.scope}`, async (_case, user) => {
    const slug = operation.target ? await target() : '';
    const token = await world.token(user, { scopes: [operation.scope] });
    const response = await world.call(operation.method, operation.path('acme', slug), {
      token,
      ...(operation.body ? { body: operation.body(++n) } : {}),
    });
    expect(response.status, response.text).toBe(200);
    expectScopeHeaders(response, operation.scope, [operation.scope]);
    if (operation.answers === 'list') expect(Array.isArray(response.body)).toBe(true);
    if (operation.answers === 'registry')
      expect(response.body).toMatchObject({ public: false, team_ids: [] });
    if (operation.answers === 'empty') expect(response.text).toBe('');
  });
});

describe('refusals leave everything as it was', () => {
  it('keeps the witness registry as it was made', async () => {
    const response = await world.call('GET', registry('acme', 'witness'));
    expect(response.body).toMatchObject({ name: 'witness', description: 'untouched', ecosystem: 'ruby' });
  });

  it('has exactly the registries the successful requests made', async () => {
    const rows = await world.registryRows();
    const made = rows.filter((row) => String(row.name).startsWith('created '));
    // one create per caller kind (admin, member) that was meant to succeed
    expect(made).toHaveLength(2);
    // targets: get and the three updates keep theirs (2 each); delete removes its 2
    const targets = rows.filter((row) => String(row.name).startsWith('target '));
    expect(targets).toHaveLength(4 * 2);
  });
});

describe('scope headers', () => {
  it('names the scope of every operation, also on a 404 of a registry', async () => {
    for (const operation of OPERATIONS.filter((op) => op.target)) {
      const response = await world.call(operation.method, registry('acme', 'no-such-registry'), {
        ...(operation.body ? { body: operation.body(++n) } : {}),
      });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'No registry found' });
      expect(response.headers.get('x-accepted-oauth-scopes')).toBe(operation.scope);
    }
  });

  it('lists the scopes of the token in X-OAuth-Scopes', async () => {
    const scopes: Scope[] = ['read_registries', 'write_registries'];
    const response = await world.call('GET', registries('acme'), {
      token: await world.token('member', { scopes }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-oauth-scopes')).toBe('read_registries, write_registries');
  });
});
