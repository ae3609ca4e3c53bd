import type { Scope } from '@ci/domain';
import { TeamPipelineWire } from '@ci/trpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTHENTICATION_REQUIRED,
  exampleKeys,
  expectMessage,
  expectNoContent,
  ISO_MS_Z,
  JSON_TYPE,
  link,
  type Reply,
  UNKNOWN_TOKEN,
  UNKNOWN_UUID,
  walkPages,
} from '../support/answers';
import { expectSafeRefusal } from '../support/refusal';
import { trpcFailure as failure } from '../support/trpc';
import { startWorld, teamIds, type World } from '../support/world';

/**
 * Team pipelines on /v2 through the real HTTP server on PostgreSQL: every operation and status, the
 * key sets of the public API's examples, the 422 and 404 answers, who may read and change associations,
 * what an association changes on the builds endpoints at once, pagination, bad input and races.
 */

const KEYS = {
  get: exampleKeys('team-pipelines-get.json'),
  list: exampleKeys('team-pipelines-list.json'),
  create: exampleKeys('team-pipelines-create.json'),
  update: exampleKeys('team-pipelines-update.json'),
  error422: exampleKeys('error-422-team-pipeline.json'),
};

const LAST_TEAM = 'The pipeline must belong to at least one team';

type CallOptions = NonNullable<Parameters<World['call']>[2]>;

/** `/v2/organizations/{org}/teams/{team}/pipelines{rest}` */
const teamPipelines = (team: string, rest = '', organization = 'acme') =>
  `/v2/organizations/${organization}/teams/${team}/pipelines${rest}`;

function expect422(response: Reply, message: string) {
  expectMessage(response, 422, message);
  expect(Object.keys(response.body)).toEqual(KEYS.error422);
}

/** A team pipeline body: the example's keys in their order, valid against the wire schema. */
function expectTeamPipeline(body: unknown, keys: string[] = KEYS.get) {
  expect(Object.keys(body as object)).toEqual(keys);
  const wire = TeamPipelineWire.parse(body);
  expect(wire.created_at).toMatch(ISO_MS_Z);
  return wire;
}

/** Every association, as rows: what a refused request must leave as it was. */
async function associations(world: World) {
  return world.server.database.sql.query<{ team: string; pipeline: string; access_level: string }>(
    `select t.slug as team, p.slug as pipeline, tp.access_level, tp.created_at
     from team_pipelines tp join teams t on t.id = tp.team_id join pipelines p on p.id = tp.pipeline_id
     order by t.slug, p.slug`,
  );
}

describe('team pipelines: the operations', () => {
  let world: World;
  let teams: Record<string, string>;
  const call = (method: string, path: string, options?: CallOptions) => world.call(method, path, options);
  const id = (pipeline: string) => world.pipelines[pipeline]!.id;

  beforeAll(async () => {
    world = await startWorld();
    teams = await teamIds(world);
  });
  afterAll(() => world?.close());

  it("lists a team's pipelines, oldest association first, with the list example's keys and no Link", async () => {
    const response = await call('GET', teamPipelines(teams.platform!));
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    expect(response.headers.get('link')).toBeNull();
    const list = response.body as unknown[];
    for (const item of list) expectTeamPipeline(item, KEYS.list);
    expect(list).toEqual(
      [
        ['web', 'manage_build_and_read'],
        ['api', 'build_and_read'],
        ['docs', 'read_only'],
        ['releases', 'build_and_read'],
        ['archived', 'build_and_read'],
      ].map(([pipeline, accessLevel]) => ({
        access_level: accessLevel,
        created_at: expect.stringMatching(ISO_MS_Z),
        pipeline_id: id(pipeline!),
        pipeline_url: `https://api.ci.test/v2/organizations/acme/pipelines/${pipeline}`,
      })),
    );
  });

  it('gets one association, the same as in the list, with the get example keys', async () => {
    const list = (await call('GET', teamPipelines(teams.platform!))).body as unknown[];
    const response = await call('GET', teamPipelines(teams.platform!, `/${id('web')}`));
    expect(response.status, response.text).toBe(200);
    expectTeamPipeline(response.body, KEYS.get);
    expect(response.body).toEqual(list[0]);
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('view_teams');
  });

  it('takes team and pipeline UUIDs in upper case too', async () => {
    const response = await call(
      'GET',
      teamPipelines(teams.platform!.toUpperCase(), `/${id('web').toUpperCase()}`),
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.pipeline_id).toBe(id('web'));
  });

  it('creates an association: 201 with the create example keys, then readable', async () => {
    const before = Date.now();
    const response = await call('POST', teamPipelines(teams.hidden!), {
      body: { pipeline_id: id('public'), access_level: 'read_only' },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('write_teams');
    const wire = expectTeamPipeline(response.body, KEYS.create);
    expect(wire).toEqual({
      access_level: 'read_only',
      created_at: expect.any(String),
      pipeline_id: id('public'),
      pipeline_url: 'https://api.ci.test/v2/organizations/acme/pipelines/public',
    });
    expect(Date.parse(wire.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect((await call('GET', teamPipelines(teams.hidden!, `/${id('public')}`))).body).toEqual(wire);
    expect((await call('GET', teamPipelines(teams.hidden!))).body).toContainEqual(wire);
  });

  it("creates through the spec's path with the trailing slash, and takes an upper-case pipeline_id", async () => {
    const response = await call('POST', teamPipelines(teams.hidden!, '/'), {
      body: { pipeline_id: id('docs').toUpperCase(), access_level: 'build_and_read' },
    });
    expect(response.status, response.text).toBe(201);
    expectTeamPipeline(response.body, KEYS.create);
    expect(response.body).toMatchObject({ pipeline_id: id('docs'), access_level: 'build_and_read' });
  });

  it('ignores unknown body fields and path-like keys in the body', async () => {
    const response = await call('POST', teamPipelines(teams.hidden!), {
      body: {
        pipeline_id: id('api'),
        access_level: 'read_only',
        team: teams.platform,
        organization: 'other',
        x: 1,
      },
    });
    expect(response.status, response.text).toBe(201);
    const rows = await associations(world);
    expect(rows).toContainEqual(expect.objectContaining({ team: 'hidden', pipeline: 'api' }));
  });

  it('updates the access level: 200 with the update example keys, created_at unchanged', async () => {
    const before = (await call('GET', teamPipelines(teams.hidden!, `/${id('public')}`))).body;
    const response = await call('PATCH', teamPipelines(teams.hidden!, `/${id('public')}`), {
      body: { access_level: 'manage_build_and_read' },
    });
    expect(response.status, response.text).toBe(200);
    expectTeamPipeline(response.body, KEYS.update);
    expect(response.body).toEqual({ ...before, access_level: 'manage_build_and_read' });
    expect((await call('GET', teamPipelines(teams.hidden!, `/${id('public')}`))).body).toEqual(response.body);
  });

  it('deletes by the path: 204 with an empty body, then 404', async () => {
    // `docs` keeps its other team (`platform`), so this is not its last association.
    const response = await call('DELETE', teamPipelines(teams.hidden!, `/${id('docs')}`));
    expectNoContent(response);
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('write_teams');
    expectMessage(
      await call('GET', teamPipelines(teams.hidden!, `/${id('docs')}`)),
      404,
      'No pipeline found',
    );
  });

  it("deletes by the spec's literal path with pipeline_id in the JSON body", async () => {
    const response = await call('DELETE', teamPipelines(teams.hidden!, '/'), {
      body: { pipeline_id: id('api') },
    });
    expectNoContent(response);
    expect(await associations(world)).not.toContainEqual(
      expect.objectContaining({ team: 'hidden', pipeline: 'api' }),
    );
  });

  it("deletes by the spec's literal path with pipeline_id in the query", async () => {
    await call('POST', teamPipelines(teams.hidden!), {
      body: { pipeline_id: id('api'), access_level: 'read_only' },
    });
    const response = await call('DELETE', teamPipelines(teams.hidden!, `/?pipeline_id=${id('api')}`));
    expectNoContent(response);
    expect(await associations(world)).not.toContainEqual(
      expect.objectContaining({ team: 'hidden', pipeline: 'api' }),
    );
  });

  it("keeps the pipeline's only association: `public` has no team but `hidden` now", async () => {
    const response = await call('DELETE', teamPipelines(teams.hidden!, `/${id('public')}`));
    expect422(response, LAST_TEAM);
    expect((await call('GET', teamPipelines(teams.hidden!, `/${id('public')}`))).status).toBe(200);
  });

  it('deletes by the literal path without the trailing slash too', async () => {
    await call('POST', teamPipelines(teams.hidden!), {
      body: { pipeline_id: id('api'), access_level: 'read_only' },
    });
    expectNoContent(await call('DELETE', teamPipelines(teams.hidden!), { body: { pipeline_id: id('api') } }));
  });

  it('lets the path win over a pipeline_id in the body on the path form', async () => {
    await call('POST', teamPipelines(teams.hidden!), {
      body: { pipeline_id: id('api'), access_level: 'read_only' },
    });
    const response = await call('DELETE', teamPipelines(teams.hidden!, `/${id('api')}`), {
      body: { pipeline_id: id('secret') },
    });
    expectNoContent(response);
    const rows = await associations(world);
    expect(rows).toContainEqual(expect.objectContaining({ team: 'hidden', pipeline: 'secret' }));
    expect(rows).not.toContainEqual(expect.objectContaining({ team: 'hidden', pipeline: 'api' }));
  });
});

describe('team pipelines: 422 and 404', () => {
  let world: World;
  let teams: Record<string, string>;
  let rowsBefore: unknown[];
  const call = (method: string, path: string, options?: CallOptions) => world.call(method, path, options);
  const id = (pipeline: string) => world.pipelines[pipeline]!.id;

  beforeAll(async () => {
    world = await startWorld();
    await world.server.useCases.admin.createTeam({ organization: 'other', name: 'Others' });
    teams = await teamIds(world);
    rowsBefore = await associations(world);
  });
  afterAll(() => world?.close());

  it.each<[string, () => Record<string, unknown>, string]>([
    ['no pipeline_id', () => ({ access_level: 'read_only' }), "Pipeline can't be blank"],
    [
      'an empty pipeline_id',
      () => ({ pipeline_id: '', access_level: 'read_only' }),
      "Pipeline can't be blank",
    ],
    [
      'a slug as pipeline_id',
      () => ({ pipeline_id: 'public', access_level: 'read_only' }),
      'Pipeline is invalid',
    ],
    ['a numeric pipeline_id', () => ({ pipeline_id: 7, access_level: 'read_only' }), 'Pipeline is invalid'],
    [
      'an unknown pipeline',
      () => ({ pipeline_id: UNKNOWN_UUID, access_level: 'read_only' }),
      'Pipeline must exist',
    ],
    [
      "another organization's pipeline",
      () => ({ pipeline_id: id('elsewhere'), access_level: 'read_only' }),
      'Pipeline must exist',
    ],
    ['no access_level', () => ({ pipeline_id: id('public') }), "Access level can't be blank"],
    [
      'an unknown access_level',
      () => ({ pipeline_id: id('public'), access_level: 'admin' }),
      'Access level is not included in the list',
    ],
    [
      'the create example\'s "read"',
      () => ({ pipeline_id: id('public'), access_level: 'read' }),
      'Access level is not included in the list',
    ],
    [
      'an association that already exists',
      () => ({ pipeline_id: id('web'), access_level: 'read_only' }),
      'Pipeline has already been taken',
    ],
    ['an empty body', () => ({}), "Pipeline can't be blank, Access level can't be blank"],
  ])('refuses to create with %s: 422 Validation failed', async (_name, body, reason) => {
    expect422(
      await call('POST', teamPipelines(teams.platform!), { body: body() }),
      `Validation failed: ${reason}`,
    );
  });

  it('refuses to create with no body at all', async () => {
    expect422(
      await call('POST', teamPipelines(teams.platform!)),
      "Validation failed: Pipeline can't be blank, Access level can't be blank",
    );
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no access_level', {}, "Access level can't be blank"],
    ['a null access_level', { access_level: null }, "Access level can't be blank"],
    ['an unknown access_level', { access_level: 'write' }, 'Access level is not included in the list'],
  ])('refuses to update with %s: 422 Validation failed', async (_name, body, reason) => {
    expect422(
      await call('PATCH', teamPipelines(teams.platform!, `/${id('web')}`), { body }),
      `Validation failed: ${reason}`,
    );
  });

  it("refuses to remove a pipeline's last team: 422 with the reason", async () => {
    expect422(await call('DELETE', teamPipelines(teams.platform!, `/${id('docs')}`)), LAST_TEAM);
    expect422(
      await call('DELETE', teamPipelines(teams.platform!, '/'), { body: { pipeline_id: id('docs') } }),
      LAST_TEAM,
    );
  });

  it('refuses the literal delete that names no pipeline', async () => {
    const reason = "Validation failed: Pipeline can't be blank";
    expect422(await call('DELETE', teamPipelines(teams.platform!, '/')), reason);
    expect422(await call('DELETE', teamPipelines(teams.platform!, '/'), { body: {} }), reason);
    expect422(await call('DELETE', teamPipelines(teams.platform!, '/?pipeline_id=')), reason);
    expect422(
      await call('DELETE', teamPipelines(teams.platform!, '/'), { body: { pipeline_id: '  ' } }),
      reason,
    );
  });

  /** method, name, path for a team, and the request's options (read when the test runs, after the world starts) */
  const TEAM_OPERATIONS: Array<[string, string, (team: string) => string, () => CallOptions]> = [
    ['GET', 'list', (team) => teamPipelines(team), () => ({})],
    ['GET', 'get', (team) => teamPipelines(team, `/${id('web')}`), () => ({})],
    [
      'POST',
      'create',
      (team) => teamPipelines(team),
      () => ({ body: { pipeline_id: id('public'), access_level: 'read_only' } }),
    ],
    [
      'PATCH',
      'update',
      (team) => teamPipelines(team, `/${id('web')}`),
      () => ({ body: { access_level: 'read_only' } }),
    ],
    ['DELETE', 'delete', (team) => teamPipelines(team, `/${id('web')}`), () => ({})],
    [
      'DELETE',
      'literal delete',
      (team) => teamPipelines(team, '/'),
      () => ({ body: { pipeline_id: id('web') } }),
    ],
  ];

  describe.each<[string, () => string]>([
    ['an unknown team UUID', () => UNKNOWN_UUID],
    ['a team slug instead of its UUID', () => 'platform'],
    ['a malformed team UUID', () => `${teams.platform!.slice(0, -1)}x`],
    ["another organization's team", () => teams['other/others']!],
  ])('on %s', (_name, team) => {
    it.each(TEAM_OPERATIONS)(
      '%s (%s) answers 404 No team found',
      async (method, _operation, path, options) => {
        expectMessage(await call(method, path(team()), options()), 404, 'No team found');
      },
    );
  });

  it.each(TEAM_OPERATIONS)(
    '%s (%s) in an unknown organization answers 404 No organization found',
    async (method, _operation, path, options) => {
      const response = await call(method, path(teams.platform!).replace('/acme/', '/nope/'), options());
      expectMessage(response, 404, 'No organization found');
    },
  );

  describe.each<[string, () => string]>([
    ['an unknown pipeline UUID', () => UNKNOWN_UUID],
    ["a pipeline of the organization the team doesn't have", () => id('secret')],
    ["another organization's pipeline", () => id('elsewhere')],
    ['a pipeline slug', () => 'web'],
    ['a malformed UUID', () => `${id('web').slice(0, -1)}g`],
  ])('on %s', (_name, pipeline) => {
    it.each<[string, () => string, CallOptions]>([
      ['GET', () => teamPipelines(teams.platform!, `/${pipeline()}`), {}],
      [
        'PATCH',
        () => teamPipelines(teams.platform!, `/${pipeline()}`),
        { body: { access_level: 'read_only' } },
      ],
      ['PATCH', () => teamPipelines(teams.platform!, `/${pipeline()}`), { body: { access_level: 'bogus' } }],
      ['DELETE', () => teamPipelines(teams.platform!, `/${pipeline()}`), {}],
      ['DELETE', () => teamPipelines(teams.platform!, '/'), { body: { pipeline_id: '<pipeline>' } }],
      ['DELETE', () => teamPipelines(teams.platform!, `/?pipeline_id=${encodeURIComponent(pipeline())}`), {}],
    ])('%s answers 404 No pipeline found', async (method, path, options) => {
      // The body's pipeline is named when the test runs, after the world has started.
      const body =
        (options.body as Record<string, unknown> | undefined)?.pipeline_id === '<pipeline>'
          ? { pipeline_id: pipeline() }
          : options.body;
      expectMessage(
        await call(method, path(), { ...options, ...(body ? { body } : {}) }),
        404,
        'No pipeline found',
      );
    });
  });

  it('changed nothing', async () => {
    expect(await associations(world)).toEqual(rowsBefore);
  });
});

describe('team pipelines: who may read and change them', () => {
  let world: World;
  let teams: Record<string, string>;
  let rowsBefore: unknown[];
  const id = (pipeline: string) => world.pipelines[pipeline]!.id;

  beforeAll(async () => {
    world = await startWorld();
    teams = await teamIds(world);
    rowsBefore = await associations(world);
  });
  afterAll(() => world?.close());

  it('lets a member read the associations of their team', async () => {
    const list = await world.call('GET', teamPipelines(teams.platform!), { token: world.tokens.member });
    expect(list.status, list.text).toBe(200);
    expect(list.body).toHaveLength(5);
    const one = await world.call('GET', teamPipelines(teams.platform!, `/${id('docs')}`), {
      token: world.tokens.member,
    });
    expect(one.status, one.text).toBe(200);
    expect(one.body.access_level).toBe('read_only');
  });

  it("shows a member only the pipelines they may see, even on another team's list", async () => {
    const hidden = await world.call('GET', teamPipelines(teams.hidden!), { token: world.tokens.member });
    expect(hidden.status, hidden.text).toBe(200);
    expect(hidden.body).toEqual([]);
    const secret = await world.call('GET', teamPipelines(teams.hidden!, `/${id('secret')}`), {
      token: world.tokens.member,
    });
    expectMessage(secret, 404, 'No pipeline found');
    const bystander = await world.call('GET', teamPipelines(teams.platform!), {
      token: world.tokens.bystander,
    });
    expect(bystander.status, bystander.text).toBe(200);
    expect(bystander.body).toEqual([]);
    expect((await world.call('GET', teamPipelines(teams.hidden!))).body).toHaveLength(1);
  });

  it.each<[string, (team: string) => string, CallOptions]>([
    [
      'POST',
      (team) => teamPipelines(team),
      { body: { pipeline_id: UNKNOWN_UUID, access_level: 'read_only' } },
    ],
    ['POST', (team) => teamPipelines(team, '/'), { body: { pipeline_id: 'x' } }],
    ['PATCH', (team) => teamPipelines(team, `/${UNKNOWN_UUID}`), { body: { access_level: 'read_only' } }],
    ['DELETE', (team) => teamPipelines(team, `/${UNKNOWN_UUID}`), {}],
    ['DELETE', (team) => teamPipelines(team, '/'), {}],
  ])(
    'answers a member who is no maintainer 403 Forbidden on %s %#, before looking at the body; an unknown team 404',
    async (method, path, options) => {
      for (const token of [world.tokens.member, world.tokens.bystander]) {
        for (const team of [teams.platform!, teams.hidden!]) {
          expectMessage(await world.call(method, path(team), { ...options, token }), 403, 'Forbidden');
        }
        // Whether the caller maintains the team decides, so the team is looked up first.
        expectMessage(
          await world.call(method, path(UNKNOWN_UUID), { ...options, token }),
          404,
          'No team found',
        );
      }
    },
  );

  it('answers a member 403 Forbidden on valid changes to their own team, and changes nothing', async () => {
    const token = world.tokens.member;
    const forbidden = [
      await world.call('POST', teamPipelines(teams.platform!), {
        token,
        body: { pipeline_id: id('public'), access_level: 'manage_build_and_read' },
      }),
      await world.call('PATCH', teamPipelines(teams.platform!, `/${id('docs')}`), {
        token,
        body: { access_level: 'manage_build_and_read' },
      }),
      await world.call('DELETE', teamPipelines(teams.hidden!, `/${id('secret')}`), { token }),
      await world.call('DELETE', teamPipelines(teams.platform!, '/'), {
        token,
        body: { pipeline_id: id('web') },
      }),
    ];
    for (const response of forbidden) expectMessage(response, 403, 'Forbidden');
    expect(await associations(world)).toEqual(rowsBefore);
  });
});

describe('team pipelines: the scope matrix', () => {
  let world: World;
  let teams: Record<string, string>;
  const secrets: Record<string, string> = {};
  const id = (pipeline: string) => world.pipelines[pipeline]!.id;

  type TeamScope = 'view_teams' | 'write_teams';
  interface Operation {
    name: string;
    method: string;
    scope: TeamScope;
    path: () => string;
    body?: () => Record<string, unknown>;
    success: 200 | 201 | 204;
  }
  /** Each operation succeeds once for the admin: create adds `web` to `hidden`, delete removes it again (`web` keeps `platform`). */
  const OPERATIONS: Operation[] = [
    {
      name: 'list',
      method: 'GET',
      scope: 'view_teams',
      path: () => teamPipelines(teams.platform!),
      success: 200,
    },
    {
      name: 'get',
      method: 'GET',
      scope: 'view_teams',
      path: () => teamPipelines(teams.platform!, `/${id('web')}`),
      success: 200,
    },
    {
      name: 'create',
      method: 'POST',
      scope: 'write_teams',
      path: () => teamPipelines(teams.hidden!, '/'),
      body: () => ({ pipeline_id: id('web'), access_level: 'read_only' }),
      success: 201,
    },
    {
      name: 'update',
      method: 'PATCH',
      scope: 'write_teams',
      path: () => teamPipelines(teams.hidden!, `/${id('web')}`),
      body: () => ({ access_level: 'build_and_read' }),
      success: 200,
    },
    {
      name: 'literal delete',
      method: 'DELETE',
      scope: 'write_teams',
      path: () => teamPipelines(teams.hidden!, '/'),
      body: () => ({ pipeline_id: id('web') }),
      success: 204,
    },
  ];
  const CALLERS: Array<{
    name: string;
    authorization: (operation: Operation) => string | null;
    outcome: (operation: Operation) => { status: number; message?: string };
  }> = [
    {
      name: 'no token',
      authorization: () => null,
      outcome: () => ({ status: 401, message: AUTHENTICATION_REQUIRED }),
    },
    {
      name: 'an unknown token',
      authorization: () => `Bearer ${UNKNOWN_TOKEN}`,
      outcome: () => ({ status: 401, message: AUTHENTICATION_REQUIRED }),
    },
    {
      name: "a token without the operation's scope",
      authorization: (operation) => `Bearer ${secrets[`without ${operation.scope}`]}`,
      outcome: (operation) => ({
        status: 403,
        message: `Your access token doesn't have the ${operation.scope} scope`,
      }),
    },
    {
      name: "another organization's admin",
      authorization: () => `Bearer ${secrets.otherAdmin}`,
      outcome: () => ({ status: 404, message: 'No organization found' }),
    },
    {
      name: 'an admin token limited to another organization',
      authorization: () => `Bearer ${secrets['admin limited to other']}`,
      outcome: () => ({ status: 404, message: 'No organization found' }),
    },
    {
      name: 'a member',
      authorization: () => `Bearer ${secrets.member}`,
      outcome: (operation) =>
        operation.scope === 'write_teams'
          ? { status: 403, message: 'Forbidden' }
          : { status: operation.success },
    },
    {
      name: "an admin with only the operation's scope",
      authorization: (operation) => `Bearer ${secrets[`only ${operation.scope}`]}`,
      outcome: (operation) => ({ status: operation.success }),
    },
  ];

  beforeAll(async () => {
    world = await startWorld();
    teams = await teamIds(world);
    await world.server.useCases.admin.addMember({
      organization: 'other',
      email: world.users.admin.email,
      role: 'member',
    });
    const teamScopes: Scope[] = ['view_teams', 'write_teams'];
    secrets.member = await world.token('member', { scopes: teamScopes });
    secrets.otherAdmin = await world.token('otherAdmin', { scopes: teamScopes });
    secrets['admin limited to other'] = await world.token('admin', {
      scopes: teamScopes,
      organizations: ['other'],
    });
    secrets['without view_teams'] = await world.token('admin', { scopes: ['write_teams', 'read_teams'] });
    secrets['without write_teams'] = await world.token('admin', { scopes: ['view_teams', 'read_teams'] });
    secrets['only view_teams'] = await world.token('admin', { scopes: ['view_teams'] });
    secrets['only write_teams'] = await world.token('admin', { scopes: ['write_teams'] });
  });
  afterAll(() => world?.close());

  // Operation by operation, so that the admin's create comes before its update and delete.
  const MATRIX = OPERATIONS.flatMap((operation) => CALLERS.map((caller) => ({ caller, operation })));
  it.each(MATRIX.map(({ caller, operation }) => [operation.name, caller.name, caller, operation] as const))(
    'answers %s for %s as documented',
    async (_operation, _caller, caller, operation) => {
      const authorization = caller.authorization(operation);
      const response = await world.call(operation.method, operation.path(), {
        token: null,
        headers: authorization === null ? {} : { Authorization: authorization },
        ...(operation.body ? { body: operation.body() } : {}),
      });
      const outcome = caller.outcome(operation);
      expect(response.status, response.text).toBe(outcome.status);
      if (outcome.message) expect(response.body).toEqual({ message: outcome.message });
      else if (outcome.status === 204) expect(response.text).toBe('');
      else TeamPipelineWire.array().or(TeamPipelineWire).parse(response.body);
      expect(response.headers.get('x-accepted-oauth-scopes')).toBe(operation.scope);
      expect(response.headers.get('x-request-id')).toBeTruthy();
    },
  );

  it('ends with the associations it started with', async () => {
    const rows = await associations(world);
    expect(rows.filter((row) => row.team === 'hidden').map((row) => row.pipeline)).toEqual(['secret']);
  });
});

describe('team pipelines: what an association changes on the builds endpoints, at once', () => {
  let world: World;
  let teams: Record<string, string>;
  const id = (pipeline: string) => world.pipelines[pipeline]!.id;
  const builds = (pipeline: string, rest = '') =>
    `/v2/organizations/acme/pipelines/${pipeline}/builds${rest}`;
  const asMember = (method: string, path: string, body?: unknown) =>
    world.call(method, path, { token: world.tokens.member, ...(body ? { body } : {}) });
  const buildBody = { commit: 'b'.repeat(40), branch: 'main', message: 'as a member' };

  beforeAll(async () => {
    world = await startWorld();
    teams = await teamIds(world);
    for (const pipeline of ['secret', 'docs', 'api']) await world.createBuild(pipeline);
  });
  afterAll(() => world?.close());

  it('gives a member the builds of a pipeline when their team is added, and takes them away when it is removed', async () => {
    expectMessage(await asMember('GET', builds('secret')), 404, 'No pipeline found');
    expectMessage(await asMember('GET', builds('secret', '/1')), 404, 'No pipeline found');

    const added = await world.call('POST', teamPipelines(teams.platform!), {
      body: { pipeline_id: id('secret'), access_level: 'read_only' },
    });
    expect(added.status, added.text).toBe(201);
    const list = await asMember('GET', builds('secret'));
    expect(list.status, list.text).toBe(200);
    expect(list.body).toHaveLength(1);
    expect((await asMember('GET', builds('secret', '/1'))).status).toBe(200);
    expect(
      (await asMember('GET', '/v2/organizations/acme/builds')).body.map(
        (build: { pipeline: { slug: string } }) => build.pipeline.slug,
      ),
    ).toContain('secret');

    // `hidden` keeps the pipeline, so the removal is not its last team.
    expectNoContent(await world.call('DELETE', teamPipelines(teams.platform!, `/${id('secret')}`)));
    expectMessage(await asMember('GET', builds('secret')), 404, 'No pipeline found');
    expectMessage(await asMember('GET', builds('secret', '/1')), 404, 'No pipeline found');
    expectMessage(await asMember('POST', builds('secret'), buildBody), 404, 'No pipeline found');
    expect(
      (await asMember('GET', '/v2/organizations/acme/builds')).body.map(
        (build: { pipeline: { slug: string } }) => build.pipeline.slug,
      ),
    ).not.toContain('secret');
  });

  it('lets read_only read but not build, and build_and_read build, as soon as the level changes', async () => {
    expect((await asMember('GET', builds('docs', '/1'))).status).toBe(200);
    expectMessage(await asMember('POST', builds('docs'), buildBody), 403, 'Forbidden');
    expectMessage(await asMember('PUT', builds('docs', '/1/rebuild')), 403, 'Forbidden');

    const upgraded = await world.call('PATCH', teamPipelines(teams.platform!, `/${id('docs')}`), {
      body: { access_level: 'build_and_read' },
    });
    expect(upgraded.status, upgraded.text).toBe(200);
    const created = await asMember('POST', builds('docs'), buildBody);
    expect(created.status, created.text).toBe(201);

    const downgraded = await world.call('PATCH', teamPipelines(teams.platform!, `/${id('docs')}`), {
      body: { access_level: 'read_only' },
    });
    expect(downgraded.status, downgraded.text).toBe(200);
    expectMessage(await asMember('POST', builds('docs'), buildBody), 403, 'Forbidden');
  });

  it('shows the webhook URL (rule B2) only while the team may manage the pipeline', async () => {
    const webhookUrl = async () => {
      const response = await asMember('GET', builds('api', '/1'));
      expect(response.status, response.text).toBe(200);
      return response.body.pipeline.provider.webhook_url as string;
    };
    expect(await webhookUrl()).toBe('');
    const managed = await world.call('PATCH', teamPipelines(teams.platform!, `/${id('api')}`), {
      body: { access_level: 'manage_build_and_read' },
    });
    expect(managed.status, managed.text).toBe(200);
    expect(await webhookUrl()).toMatch(/^https?:\/\/\S+$/);
    await world.call('PATCH', teamPipelines(teams.platform!, `/${id('api')}`), {
      body: { access_level: 'build_and_read' },
    });
    expect(await webhookUrl()).toBe('');
  });

  it('gives a member the highest level of their teams on a pipeline', async () => {
    const secondTeam = await world.server.useCases.admin.createTeam({
      organization: 'acme',
      name: 'Writers',
      members: [world.users.member.email],
    });
    expectMessage(await asMember('POST', builds('docs'), buildBody), 403, 'Forbidden');
    const added = await world.call('POST', teamPipelines(secondTeam.id), {
      body: { pipeline_id: id('docs'), access_level: 'build_and_read' },
    });
    expect(added.status, added.text).toBe(201);
    expect((await asMember('POST', builds('docs'), buildBody)).status).toBe(201);
    expectNoContent(await world.call('DELETE', teamPipelines(secondTeam.id, `/${id('docs')}`)));
    expectMessage(await asMember('POST', builds('docs'), buildBody), 403, 'Forbidden');
  });
});

describe('team pipelines: pagination', () => {
  let world: World;
  let teams: Record<string, string>;

  beforeAll(async () => {
    world = await startWorld();
    teams = await teamIds(world);
  });
  afterAll(() => world?.close());

  it('walks every page through Link, each association once, in the order of the whole list', async () => {
    const whole = (await world.call('GET', teamPipelines(teams.platform!))).body as Array<{
      pipeline_id: string;
    }>;
    expect(whole).toHaveLength(5);
    const { items, rels } = await walkPages(
      (path) => world.call('GET', path),
      `${teamPipelines(teams.platform!)}?per_page=2`,
    );
    expect(items).toEqual(whole);
    expect(rels).toEqual([
      ['next', 'last'],
      ['first', 'prev', 'next', 'last'],
      ['first', 'prev'],
    ]);
  });

  it('writes absolute links on the public URL, page before per_page, keeping other parameters', async () => {
    const response = await world.call('GET', `${teamPipelines(teams.platform!)}?x=1&per_page=2&page=2`);
    const base = `https://api.ci.test${teamPipelines(teams.platform!)}`;
    expect(link(response, 'first')).toBe(`${base}?x=1&page=1&per_page=2`);
    expect(link(response, 'next')).toBe(`${base}?x=1&page=3&per_page=2`);
    expect(link(response, 'last')).toBe(`${base}?x=1&page=3&per_page=2`);
  });

  it('answers a page past the end with [] and a bad page number with 400', async () => {
    const past = await world.call('GET', `${teamPipelines(teams.platform!)}?page=9`);
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
    const bad = await world.call('GET', `${teamPipelines(teams.platform!)}?per_page=abc`);
    expectMessage(bad, 400, 'per_page must be a positive integer');
  });
});

describe('team pipelines: bad input is answered, never a 500, and changes nothing', () => {
  let world: World;
  let teams: Record<string, string>;
  let rowsBefore: unknown[];
  const id = (pipeline: string) => world.pipelines[pipeline]!.id;

  const expectSafe = (response: Reply) => expectSafeRefusal(response, [/team_pipelines/]);
  const raw = (method: string, path: string, body: string, contentType?: string) =>
    world.call(method, path, { rawBody: body, headers: contentType ? { 'Content-Type': contentType } : {} });

  beforeAll(async () => {
    world = await startWorld();
    teams = await teamIds(world);
    rowsBefore = await associations(world);
  });
  afterAll(() => world?.close());

  it.each([
    ['POST', () => teamPipelines(teams.hidden!)],
    ['POST', () => teamPipelines(teams.hidden!, '/')],
    ['PATCH', () => teamPipelines(teams.hidden!, `/${id('secret')}`)],
    ['DELETE', () => teamPipelines(teams.hidden!, '/')],
  ])('answers malformed JSON on %s %# with 400 Problems parsing JSON', async (method, path) => {
    // The last one is refused by the JSON parser's prototype-poisoning check.
    for (const body of [
      '{',
      '{"pipeline_id": ',
      'nul',
      '{"a":1}}',
      '{"__proto__": {"access_level": "read_only"}}',
    ]) {
      const response = await raw(method, path(), body, 'application/json');
      expectSafe(response);
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/^Problems parsing JSON/);
    }
  });

  it.each([
    ['an array', '[1]'],
    ['a string', '"pipeline"'],
    ['a number', '42'],
  ])('answers a JSON body that is %s with 400', async (_name, body) => {
    const response = await raw('POST', teamPipelines(teams.hidden!), body, 'application/json');
    expectSafe(response);
    expect(response.status).toBe(400);
  });

  it('reads a JSON body sent without a Content-Type', async () => {
    const response = await raw('POST', teamPipelines(teams.hidden!), JSON.stringify({ pipeline_id: 'x' }));
    expectSafe(response);
    expect(response.body.message).toBe("Validation failed: Pipeline is invalid, Access level can't be blank");
  });

  it.each<[string, () => Record<string, unknown>, string]>([
    [
      'a NUL byte in pipeline_id',
      () => ({ pipeline_id: `${id('public')}\u0000`, access_level: 'read_only' }),
      'Pipeline is invalid',
    ],
    [
      'a NUL byte as pipeline_id',
      () => ({ pipeline_id: '\u0000', access_level: 'read_only' }),
      'Pipeline is invalid',
    ],
    [
      'a NUL byte in access_level',
      () => ({ pipeline_id: id('public'), access_level: 'read_only\u0000' }),
      'Access level is not included in the list',
    ],
    [
      'an unpaired surrogate',
      () => ({ pipeline_id: '\ud800', access_level: '\udfff' }),
      'Pipeline is invalid, Access level is not included in the list',
    ],
    [
      'a huge pipeline_id',
      () => ({ pipeline_id: 'f'.repeat(500_000), access_level: 'read_only' }),
      'Pipeline is invalid',
    ],
    [
      'a huge access_level',
      () => ({ pipeline_id: id('public'), access_level: 'r'.repeat(500_000) }),
      'Access level is not included in the list',
    ],
    [
      'objects as values',
      () => ({ pipeline_id: { $ne: null }, access_level: { read_only: true } }),
      'Pipeline is invalid, Access level is not included in the list',
    ],
  ])('answers %s on create with 422', async (_name, body, reason) => {
    const response = await world.call('POST', teamPipelines(teams.hidden!), { body: body() });
    expectSafe(response);
    expect(response.body).toEqual({ message: `Validation failed: ${reason}` });
  });

  it.each<[string, number, () => string]>([
    ['a NUL byte', 404, () => '%00'],
    ['an encoded NUL in a UUID', 404, () => `${UNKNOWN_UUID.slice(0, -1)}%00`],
    ['a huge segment', 404, () => 'a'.repeat(5_000)],
    ['SQL', 404, () => encodeURIComponent("' or 1=1 --")],
    ['percent-encoded slashes', 404, () => '..%2F..%2Fbuilds'],
    // The router cannot decode it: refused before any route, as a malformed request.
    ['an unpaired surrogate', 400, () => '%ED%A0%80'],
  ])('answers %s as the team or the pipeline with %i, on every operation', async (_name, status, segment) => {
    const paths: Array<[string, string, CallOptions]> = [
      ['GET', teamPipelines(segment()), {}],
      ['POST', teamPipelines(segment()), { body: { pipeline_id: id('public'), access_level: 'read_only' } }],
      ['GET', teamPipelines(teams.hidden!, `/${segment()}`), {}],
      ['PATCH', teamPipelines(teams.hidden!, `/${segment()}`), { body: { access_level: 'read_only' } }],
      ['DELETE', teamPipelines(teams.hidden!, `/${segment()}`), {}],
    ];
    for (const [method, path, options] of paths) {
      const response = await world.call(method, path, options);
      expectSafe(response);
      expect(response.status, `${method} ${path}`).toBe(status);
      expect(Object.keys(response.body)).toEqual(['message']);
    }
    const query = await world.call('DELETE', teamPipelines(teams.hidden!, `/?pipeline_id=${segment()}`));
    expectSafe(query);
    expect(query.body).toEqual({ message: 'No pipeline found' });
  });

  it('answers a NUL byte or a huge value as the pipeline_id of the literal delete with 404', async () => {
    for (const pipelineId of [
      '\u0000',
      `${id('secret')}\u0000`,
      'f'.repeat(500_000),
      12,
      true,
      { id: id('secret') },
    ]) {
      const response = await world.call('DELETE', teamPipelines(teams.hidden!, '/'), {
        body: { pipeline_id: pipelineId },
      });
      expectSafe(response);
      expect(response.body).toEqual({ message: 'No pipeline found' });
    }
  });

  it('answers a body over the limit with 413', async () => {
    const response = await world.call('POST', teamPipelines(teams.hidden!), {
      body: { pipeline_id: id('public'), access_level: 'read_only', padding: 'x'.repeat(2 * 1024 * 1024) },
    });
    expectSafe(response);
    expect(response.status).toBe(413);
  });

  it('changed nothing', async () => {
    expect(await associations(world)).toEqual(rowsBefore);
  });
});

describe('team pipelines: races', () => {
  let world: World;
  let teams: Record<string, string>;
  const id = (pipeline: string) => world.pipelines[pipeline]!.id;

  beforeAll(async () => {
    world = await startWorld();
    teams = await teamIds(world);
  });
  afterAll(() => world?.close());

  it('answers 8 concurrent adds of the same association with exactly one 201, the others 422', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        world.call('POST', teamPipelines(teams.hidden!, i % 2 ? '/' : ''), {
          body: { pipeline_id: id('public'), access_level: 'read_only' },
        }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses, responses.map((response) => response.text).join('\n')).toEqual([
      201,
      ...Array(7).fill(422),
    ]);
    for (const response of responses.filter((r) => r.status === 422)) {
      expect(response.body).toEqual({ message: 'Validation failed: Pipeline has already been taken' });
    }
    const rows = await associations(world);
    expect(rows.filter((row) => row.team === 'hidden' && row.pipeline === 'public')).toHaveLength(1);
  });

  it('never leaves a pipeline without a team when its last two associations are removed at once', async () => {
    for (let round = 0; round < 5; round++) {
      // `public` is in `hidden` (the test above); give it `platform` too, then remove both at once.
      const added = await world.call('POST', teamPipelines(teams.platform!), {
        body: { pipeline_id: id('public'), access_level: 'read_only' },
      });
      expect(added.status, added.text).toBe(201);
      const [a, b] = await Promise.all([
        world.call('DELETE', teamPipelines(teams.hidden!, `/${id('public')}`)),
        world.call('DELETE', teamPipelines(teams.platform!, '/'), { body: { pipeline_id: id('public') } }),
      ]);
      expect([a!.status, b!.status].sort(), `${a!.text} ${b!.text}`).toEqual([204, 422]);
      expect([a, b].find((response) => response!.status === 422)!.body).toEqual({ message: LAST_TEAM });
      const left = (await associations(world)).filter((row) => row.pipeline === 'public');
      expect(left).toHaveLength(1);
      // Put `public` back into `hidden` for the next round.
      if (left[0]!.team !== 'hidden') {
        await world.call('POST', teamPipelines(teams.hidden!), {
          body: { pipeline_id: id('public'), access_level: 'read_only' },
        });
        expectNoContent(await world.call('DELETE', teamPipelines(teams.platform!, `/${id('public')}`)));
      }
    }
  });
});

describe('team pipelines over tRPC: the same procedures, bodies and refusals', () => {
  let world: World;
  let teams: Record<string, string>;
  const id = (pipeline: string) => world.pipelines[pipeline]!.id;

  beforeAll(async () => {
    world = await startWorld();
    teams = await teamIds(world);
  });
  afterAll(() => world?.close());

  it('lists, creates, gets, updates and deletes with the REST bodies', async () => {
    const admin = world.trpc(world.tokens.admin);
    const key = { organization: 'acme', team: teams.hidden! };
    const rest = (await world.call('GET', teamPipelines(teams.platform!))).body;
    expect(await admin.teamPipelines.list.query({ organization: 'acme', team: teams.platform! })).toEqual(
      rest,
    );

    const created = await admin.teamPipelines.create.mutate({
      ...key,
      pipeline_id: id('web'),
      access_level: 'read_only',
    });
    expect(Object.keys(created)).toEqual(KEYS.create);
    expect(await admin.teamPipelines.get.query({ ...key, pipeline: id('web') })).toEqual(created);
    const updated = await admin.teamPipelines.update.mutate({
      ...key,
      pipeline: id('web'),
      access_level: 'build_and_read',
    });
    expect(updated).toEqual({ ...created, access_level: 'build_and_read' });
    expect(await admin.teamPipelines.delete.mutate({ ...key, pipeline: id('web') })).toBeUndefined();

    await admin.teamPipelines.create.mutate({ ...key, pipeline_id: id('api'), access_level: 'read_only' });
    await admin.teamPipelines.deleteByPipelineId.mutate({ ...key, pipeline_id: id('api') });
    expect(
      (await associations(world)).filter((row) => row.team === 'hidden').map((row) => row.pipeline),
    ).toEqual(['secret']);
  });

  it('refuses with the REST messages and statuses', async () => {
    const key = { organization: 'acme', team: teams.platform! };
    const taken = await failure(
      world.trpc(world.tokens.admin).teamPipelines.create.mutate({
        ...key,
        pipeline_id: id('web'),
        access_level: 'read_only',
      }),
    );
    expect(taken.message).toBe('Validation failed: Pipeline has already been taken');
    expect(taken.data?.httpStatus).toBe(422);
    const last = await failure(
      world.trpc(world.tokens.admin).teamPipelines.delete.mutate({ ...key, pipeline: id('docs') }),
    );
    expect(last.message).toBe(LAST_TEAM);
    const missing = await failure(
      world.trpc(world.tokens.admin).teamPipelines.deleteByPipelineId.mutate(key),
    );
    expect(missing.message).toBe("Validation failed: Pipeline can't be blank");
    const forbidden = await failure(
      world.trpc(world.tokens.member).teamPipelines.update.mutate({
        ...key,
        pipeline: id('web'),
        access_level: 'read_only',
      }),
    );
    expect(forbidden.message).toBe('Forbidden');
    expect(forbidden.data?.httpStatus).toBe(403);
    const noTeam = await failure(
      world.trpc(world.tokens.admin).teamPipelines.list.query({ ...key, team: UNKNOWN_UUID }),
    );
    expect(noTeam.message).toBe('No team found');
    expect(noTeam.data?.httpStatus).toBe(404);
  });
});
