import type { Scope } from '@ci/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHENTICATION_REQUIRED, JSON_TYPE, UNKNOWN_TOKEN } from '../support/answers';
import { startWorld, type World } from '../support/world';

/**
 * Who may do what with builds on /v2: every builds operation against every kind of caller, each answer
 * checked for its status, its exact body and the OAuth scope headers (decisions.md, "Errors" and
 * "Authorization model").
 */

const BUILD_SCOPES: Scope[] = ['read_builds', 'write_builds'];

type BuildScope = 'read_builds' | 'write_builds';

interface Operation {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  scope: BuildScope;
  /** how far the path reaches: all organizations, one organization, or one pipeline */
  reach: 'all' | 'organization' | 'pipeline';
  path: (pipeline: string, number: number) => string;
  body?: Record<string, unknown>;
  success: 200 | 201;
  /** a list answers an array, everything else one build */
  list: boolean;
}

const pipelinePath = (pipeline: string) => `/v2/organizations/acme/pipelines/${pipeline}/builds`;

const OPERATIONS: Operation[] = [
  {
    name: 'GET /v2/builds',
    method: 'GET',
    scope: 'read_builds',
    reach: 'all',
    path: () => '/v2/builds',
    success: 200,
    list: true,
  },
  {
    name: 'GET /v2/organizations/acme/builds',
    method: 'GET',
    scope: 'read_builds',
    reach: 'organization',
    path: () => '/v2/organizations/acme/builds',
    success: 200,
    list: true,
  },
  {
    name: 'GET …/pipelines/{p}/builds',
    method: 'GET',
    scope: 'read_builds',
    reach: 'pipeline',
    path: (pipeline) => pipelinePath(pipeline),
    success: 200,
    list: true,
  },
  {
    name: 'GET …/builds/{n}',
    method: 'GET',
    scope: 'read_builds',
    reach: 'pipeline',
    path: (pipeline, number) => `${pipelinePath(pipeline)}/${number}`,
    success: 200,
    list: false,
  },
  {
    name: 'POST …/builds',
    method: 'POST',
    scope: 'write_builds',
    reach: 'pipeline',
    path: (pipeline) => pipelinePath(pipeline),
    body: { commit: 'c'.repeat(40), branch: 'main', message: 'from the authorization matrix' },
    success: 201,
    list: false,
  },
  {
    name: 'PUT …/builds/{n}/cancel',
    method: 'PUT',
    scope: 'write_builds',
    reach: 'pipeline',
    path: (pipeline, number) => `${pipelinePath(pipeline)}/${number}/cancel`,
    success: 200,
    list: false,
  },
  {
    name: 'PUT …/builds/{n}/rebuild',
    method: 'PUT',
    scope: 'write_builds',
    reach: 'pipeline',
    path: (pipeline, number) => `${pipelinePath(pipeline)}/${number}/rebuild`,
    success: 200,
    list: false,
  },
];

type Outcome = { status: 'success' } | { status: 401 | 403 | 404; message: string };

const SUCCESS: Outcome = { status: 'success' };
const UNAUTHENTICATED: Outcome = { status: 401, message: AUTHENTICATION_REQUIRED };

interface Caller {
  name: string;
  /** the whole Authorization header, or null for none */
  authorization: (operation: Operation) => string | null;
  pipeline: string;
  /** the X-OAuth-Scopes this caller's answers carry */
  oauthScopes: (operation: Operation) => string;
  outcome: (operation: Operation) => Outcome;
}

let world: World;
/** the number of one build made in beforeAll, by pipeline */
const numbers: Record<string, number> = {};
/** secrets by the name of the caller they belong to */
const secrets: Record<string, string> = {};

const bearer = (name: string) => () => `Bearer ${secrets[name]}`;
const noScopes = () => '';
const buildScopes = () => BUILD_SCOPES.join(', ');
const otherScope = (operation: Operation): BuildScope =>
  operation.scope === 'read_builds' ? 'write_builds' : 'read_builds';

const CALLERS: Caller[] = [
  {
    name: 'no token',
    authorization: () => null,
    pipeline: 'web',
    oauthScopes: noScopes,
    outcome: () => UNAUTHENTICATED,
  },
  {
    name: 'a valid secret under another scheme',
    authorization: () => `Token ${secrets.admin}`,
    pipeline: 'web',
    oauthScopes: noScopes,
    outcome: () => UNAUTHENTICATED,
  },
  {
    name: 'an unknown token',
    authorization: () => `Bearer ${UNKNOWN_TOKEN}`,
    pipeline: 'web',
    oauthScopes: noScopes,
    outcome: () => UNAUTHENTICATED,
  },
  {
    name: 'a revoked token',
    authorization: bearer('revoked'),
    pipeline: 'web',
    oauthScopes: noScopes,
    outcome: () => UNAUTHENTICATED,
  },
  {
    name: 'an expired token',
    authorization: bearer('expired'),
    pipeline: 'web',
    oauthScopes: noScopes,
    outcome: () => UNAUTHENTICATED,
  },
  {
    name: "a token without the operation's scope",
    authorization: (operation) => `Bearer ${secrets[`without ${operation.scope}`]}`,
    pipeline: 'web',
    oauthScopes: (operation) => `${otherScope(operation)}, read_pipelines`,
    outcome: (operation) => ({
      status: 403,
      message: `Your access token doesn't have the ${operation.scope} scope`,
    }),
  },
  {
    name: 'an admin token limited to another organization',
    authorization: bearer('admin limited to other'),
    pipeline: 'web',
    oauthScopes: buildScopes,
    // GET /v2/builds covers the allowed organizations only; which builds it holds is checked below.
    outcome: (operation) =>
      operation.reach === 'all' ? SUCCESS : { status: 404, message: 'No organization found' },
  },
  {
    name: 'a member without team access to the pipeline',
    authorization: bearer('bystander'),
    pipeline: 'secret',
    oauthScopes: buildScopes,
    outcome: (operation) =>
      operation.reach === 'pipeline' ? { status: 404, message: 'No pipeline found' } : SUCCESS,
  },
  {
    name: 'a member whose team only reads the pipeline',
    authorization: bearer('member'),
    pipeline: 'docs',
    oauthScopes: buildScopes,
    outcome: (operation) =>
      operation.scope === 'write_builds' ? { status: 403, message: 'Forbidden' } : SUCCESS,
  },
  {
    name: 'a member whose team builds the pipeline',
    authorization: bearer('member'),
    pipeline: 'api',
    oauthScopes: buildScopes,
    outcome: () => SUCCESS,
  },
  {
    name: 'a member on a pipeline that belongs to no team',
    authorization: bearer('bystander'),
    pipeline: 'public',
    oauthScopes: buildScopes,
    outcome: () => SUCCESS,
  },
  {
    name: 'an organization admin',
    authorization: bearer('admin'),
    pipeline: 'web',
    oauthScopes: buildScopes,
    outcome: () => SUCCESS,
  },
];

/** One request with exactly the Authorization header given (none for null). */
async function send(operation: Operation, caller: Caller) {
  const authorization = caller.authorization(operation);
  const number = numbers[caller.pipeline];
  if (number === undefined) throw new Error(`no build was made on ${caller.pipeline}`);
  return world.call(operation.method, operation.path(caller.pipeline, number), {
    token: null,
    headers: authorization === null ? {} : { Authorization: authorization },
    ...(operation.body ? { body: operation.body } : {}),
  });
}

beforeAll(async () => {
  world = await startWorld();
  const admin = world.server.useCases.admin;
  // `admin` also joins `other` as a member, so that a token limited to one organization has another to leave out.
  await admin.addMember({ organization: 'other', email: world.users.admin.email, role: 'member' });

  secrets.admin = await world.token('admin', { scopes: BUILD_SCOPES });
  secrets.member = await world.token('member', { scopes: BUILD_SCOPES });
  secrets.bystander = await world.token('bystander', { scopes: BUILD_SCOPES });
  secrets['admin limited to other'] = await world.token('admin', {
    scopes: BUILD_SCOPES,
    organizations: ['other'],
  });
  secrets['admin limited to acme'] = await world.token('admin', {
    scopes: BUILD_SCOPES,
    organizations: ['acme'],
  });
  secrets['without read_builds'] = await world.token('admin', { scopes: ['write_builds', 'read_pipelines'] });
  secrets['without write_builds'] = await world.token('admin', { scopes: ['read_builds', 'read_pipelines'] });
  secrets.expired = await world.token('admin', {
    scopes: BUILD_SCOPES,
    expiresAt: new Date(Date.now() - 60_000),
  });
  const revoked = await admin.createAccessToken({ email: world.users.admin.email, scopes: BUILD_SCOPES });
  await admin.revokeAccessToken(revoked.token.id);
  secrets.revoked = revoked.secret;

  for (const pipeline of ['web', 'api', 'docs', 'secret', 'public']) {
    numbers[pipeline] = (await world.createBuild(pipeline)).number;
  }
  numbers.elsewhere = (
    await world.createBuild('elsewhere', {}, { organization: 'other', token: world.tokens.otherAdmin })
  ).number;
});

afterAll(async () => {
  await world?.close();
});

const MATRIX = CALLERS.flatMap((caller) => OPERATIONS.map((operation) => ({ caller, operation })));

describe('the builds scope matrix', () => {
  it.each(MATRIX.map(({ caller, operation }) => [caller.name, operation.name, caller, operation] as const))(
    'answers %s on %s as documented',
    async (_caller, _operation, caller, operation) => {
      const response = await send(operation, caller);
      const outcome = caller.outcome(operation);

      if (outcome.status === 'success') {
        expect(response.status, response.text).toBe(operation.success);
        if (operation.list) {
          expect(Array.isArray(response.body)).toBe(true);
        } else {
          expect(response.body).toMatchObject({ number: expect.any(Number), state: expect.any(String) });
          expect(response.body.pipeline.slug).toBe(caller.pipeline);
        }
      } else {
        expect(response.status, response.text).toBe(outcome.status);
        expect(response.body).toEqual({ message: outcome.message });
      }
      expect(response.headers.get('content-type')).toBe(JSON_TYPE);
      expect(response.headers.get('x-accepted-oauth-scopes')).toBe(operation.scope);
      expect(response.headers.get('x-oauth-scopes')).toBe(caller.oauthScopes(operation));
      expect(response.headers.get('x-request-id')).toBeTruthy();
    },
  );

  it('cancels, rebuilds and creates only where a caller was allowed to', async () => {
    const [row] = await world.server.database.sql.query<{ canceled: string[]; rebuilt: string[] }>(
      `select
         coalesce(array_agg(distinct p.slug) filter (where b.state = 'canceled'), '{}') as canceled,
         coalesce(array_agg(distinct p.slug) filter (where b.rebuilt_from_id is not null), '{}') as rebuilt
       from builds b join pipelines p on p.id = b.pipeline_id`,
    );
    const cancel = OPERATIONS.find((operation) => operation.name.endsWith('/cancel'));
    if (!cancel) throw new Error('the matrix has no cancel operation');
    const allowed = CALLERS.filter((caller) => caller.outcome(cancel).status === 'success')
      .map((caller) => caller.pipeline)
      .sort();
    expect(allowed).toEqual(['api', 'public', 'web']);
    expect(row?.canceled.sort()).toEqual(allowed);
    expect(row?.rebuilt.sort()).toEqual(allowed);
    const [created] = await world.server.database.sql.query<{ slugs: string[] }>(
      `select array_agg(distinct p.slug) as slugs from builds b join pipelines p on p.id = b.pipeline_id
       where b.message = 'from the authorization matrix'`,
    );
    expect(created?.slugs.sort()).toEqual(allowed);
  });
});

describe('the Authorization header', () => {
  it.each([
    ['the scheme alone', 'Bearer'],
    ['an empty header', ''],
    ['Basic credentials', `Basic ${Buffer.from('admin@acme.test:secret').toString('base64')}`],
    ['a token in upper case', () => `Bearer ${secrets.admin?.toUpperCase()}`],
    ['a token one character short', () => `Bearer ${secrets.admin?.slice(0, -1)}`],
    ['a token one character long', () => `Bearer ${secrets.admin}0`],
    ['a token followed by another word', () => `Bearer ${secrets.admin} ${secrets.admin}`],
    ['a token without its prefix', () => `Bearer ${secrets.admin?.slice('bkua_'.length)}`],
    ['a well-formed token that is not hex', `Bearer bkua_${'g'.repeat(40)}`],
    ['SQL in place of a token', "Bearer '; delete from access_tokens; --"],
  ])('refuses %s with the documented 401', async (_case, header) => {
    const authorization = typeof header === 'function' ? header() : header;
    const response = await world.call('GET', '/v2/builds', {
      token: null,
      headers: { Authorization: authorization },
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ message: AUTHENTICATION_REQUIRED });
    expect(response.headers.get('x-oauth-scopes')).toBe('');
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('read_builds');
  });

  it('accepts the scheme in any letter case', async () => {
    const response = await world.call('GET', '/v2/builds', {
      token: null,
      headers: { Authorization: `bearer ${secrets.admin}` },
    });
    expect(response.status).toBe(200);
  });

  it('accepts a token that expires later', async () => {
    const secret = await world.token('admin', {
      scopes: ['read_builds'],
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const response = await world.call('GET', '/v2/builds', { token: secret });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-oauth-scopes')).toBe('read_builds');
  });

  it('lists every scope of a token in X-OAuth-Scopes, comma-space separated', async () => {
    const response = await world.call('GET', '/v2/builds', { token: world.tokens.member });
    expect(response.status).toBe(200);
    const scopes = response.headers.get('x-oauth-scopes')?.split(', ');
    expect(scopes).toContain('read_builds');
    expect(scopes).toContain('write_builds');
    expect(scopes).toContain('graphql');
  });
});

describe('what a list shows', () => {
  const ACME = ['api', 'docs', 'public', 'secret', 'web'];
  it.each([
    ['an admin of acme who is a member of other', 'admin', '/v2/builds', [...ACME, 'elsewhere']],
    ['a token limited to other', 'admin limited to other', '/v2/builds', ['elsewhere']],
    ['a token limited to acme', 'admin limited to acme', '/v2/builds', ACME],
    [
      'a token limited to other, on that organization',
      'admin limited to other',
      '/v2/organizations/other/builds',
      ['elsewhere'],
    ],
    ['a member of a team', 'member', '/v2/builds', ['api', 'docs', 'public', 'web']],
    [
      'a member of a team, on the organization',
      'member',
      '/v2/organizations/acme/builds',
      ['api', 'docs', 'public', 'web'],
    ],
    ['a member of no team', 'bystander', '/v2/builds', ['public']],
    ['a member of no team, on the organization', 'bystander', '/v2/organizations/acme/builds', ['public']],
  ])('shows %s only the builds of the pipelines it may see', async (_case, caller, path, pipelines) => {
    const response = await world.call('GET', `${path}?per_page=100`, { token: secrets[caller] ?? null });
    expect(response.status).toBe(200);
    const builds = response.body as Array<{ pipeline: { slug: string } }>;
    expect(builds.length).toBeGreaterThanOrEqual(pipelines.length);
    expect([...new Set(builds.map((build) => build.pipeline.slug))].sort()).toEqual([...pipelines].sort());
  });
});

describe('what a refusal reveals', () => {
  it.each([
    [
      'a pipeline the member cannot see',
      'bystander',
      'GET',
      `${pipelinePath('secret')}/1`,
      `${pipelinePath('nope')}/1`,
    ],
    [
      'a pipeline the member cannot see, on create',
      'bystander',
      'POST',
      pipelinePath('secret'),
      pipelinePath('nope'),
    ],
    [
      'an organization outside the token',
      'admin limited to other',
      'GET',
      `${pipelinePath('web')}/1`,
      '/v2/organizations/nope/pipelines/web/builds/1',
    ],
    [
      'an organization outside the token, on its list',
      'admin limited to other',
      'GET',
      '/v2/organizations/acme/builds',
      '/v2/organizations/nope/builds',
    ],
  ])('answers %s exactly as one that does not exist', async (_case, caller, method, hidden, missing) => {
    const options = {
      token: secrets[caller] ?? null,
      ...(method === 'POST' ? { body: { commit: 'HEAD', branch: 'main' } } : {}),
    };
    const [refused, absent] = await Promise.all([
      world.call(method, hidden, options),
      world.call(method, missing, options),
    ]);
    expect(refused.status).toBe(404);
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: absent.status,
      body: absent.body,
    });
  });

  it('names the missing scope before looking the organization up', async () => {
    const response = await world.call('GET', '/v2/organizations/nope/builds', {
      token: secrets['without read_builds'] ?? null,
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: "Your access token doesn't have the read_builds scope" });
  });
});
