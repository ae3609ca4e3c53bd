import type { TeamWire } from '@ci/trpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectMessage,
  expectNoContent,
  JSON_TYPE,
  link,
  type Reply,
  UNKNOWN_UUID,
  walkPages,
} from '../support/answers';
import { expectSafeRefusal } from '../support/refusal';
import { API_URL, expectTeam, startTeamsWorld, type TeamsWorld } from '../support/teams-world';
import { trpcFailure as failure } from '../support/trpc';

/**
 * Teams on /v2 through the real HTTP server on PostgreSQL: every operation and status, the key set of
 * the public API's example, names and slugs, deleting a team with pipelines, the 404s, pagination and
 * the `user_id` filter, bad input (never a 500) and races. Who may do what: team-authorization.int.test.ts.
 */

type CallOptions = NonNullable<Parameters<TeamsWorld['call']>[2]>;

describe('teams: the operations', () => {
  let world: TeamsWorld;
  const call = (method: string, path: string, options?: CallOptions) => world.call(method, path, options);

  beforeAll(async () => {
    world = await startTeamsWorld();
  });
  afterAll(() => world?.close());

  it("lists the organization's teams, oldest first, with the example's keys and no Link", async () => {
    const response = await call('GET', world.teamsPath());
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    expect(response.headers.get('link')).toBeNull();
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('view_teams');
    const list = response.body as unknown[];
    for (const team of list) expectTeam(team);
    expect(list.map((team) => (team as TeamWire).slug)).toEqual(['platform', 'hidden', 'covert']);
  });

  it('shows a team made by the CLI with an empty description and no creator', async () => {
    const response = await call('GET', world.teamPath(world.teams.platform));
    expect(response.status, response.text).toBe(200);
    expect(expectTeam(response.body)).toEqual({
      id: world.teams.platform,
      graphql_id: Buffer.from(`Team---${world.teams.platform}`).toString('base64'),
      name: 'Platform',
      slug: 'platform',
      description: '',
      created_at: expect.any(String),
      privacy: 'visible',
      default: false,
      created_by: null,
    });
  });

  it('creates a team: 201 with the example keys, its creator as created_by, then readable and listed', async () => {
    const before = Date.now();
    const response = await call('POST', world.teamsPath(), {
      body: {
        name: 'Barefoot Backenders',
        description: 'Backend engineers at Acme Inc',
        privacy: 'secret',
        is_default_team: true,
        default_member_role: 'maintainer',
        members_can_create_pipelines: false,
      },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('write_teams');
    const team = expectTeam(response.body);
    expect(team).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      graphql_id: Buffer.from(`Team---${team.id}`).toString('base64'),
      name: 'Barefoot Backenders',
      slug: 'barefoot-backenders',
      description: 'Backend engineers at Acme Inc',
      created_at: expect.any(String),
      privacy: 'secret',
      default: true,
      created_by: {
        id: world.users.admin.id,
        graphql_id: Buffer.from(`User---${world.users.admin.id}`).toString('base64'),
        name: 'Ada Admin',
        email: 'admin@acme.test',
        avatar_url: expect.stringMatching(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{32}$/),
        created_at: expect.any(String),
      },
    });
    expect(Date.parse(team.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect((await call('GET', world.teamPath(team.id))).body).toEqual(team);
    expect((await call('GET', world.teamsPath())).body).toContainEqual(team);
    // The creator is recorded, not made a member.
    expect((await call('GET', world.membersPath(team.id))).body).toEqual([]);
  });

  it('creates with only a name, taking the defaults, and ignores unknown and read-only fields', async () => {
    const response = await call('POST', world.teamsPath(), {
      body: { name: '  Fearless   Frontenders! ', slug: 'mine', id: UNKNOWN_UUID, created_by: null, x: 1 },
    });
    expect(response.status, response.text).toBe(201);
    expect(expectTeam(response.body)).toMatchObject({
      name: 'Fearless   Frontenders!',
      slug: 'fearless-frontenders',
      description: '',
      privacy: 'visible',
      default: false,
    });
    expect(response.body.id).not.toBe(UNKNOWN_UUID);
    const [row] = await world.server.database.sql.query(
      'select default_member_role, members_can_create_pipelines from teams where id = $1',
      [response.body.id],
    );
    expect(row).toEqual({ default_member_role: 'member', members_can_create_pipelines: true });
  });

  it('takes the team UUID in upper case too', async () => {
    const response = await call('GET', world.teamPath(world.teams.hidden.toUpperCase()));
    expect(response.status, response.text).toBe(200);
    expect(response.body.id).toBe(world.teams.hidden);
  });

  it('updates only what the body names; a new name brings a new slug; created_by and created_at stay', async () => {
    const created = await world.createTeam({ name: 'Renamed Soon', description: 'first' });
    const response = await call('PATCH', world.teamPath(created.id), {
      body: { name: 'New and Improved Backenders V2!', privacy: 'secret', is_default_team: true },
    });
    expect(response.status, response.text).toBe(200);
    expect(expectTeam(response.body)).toEqual({
      ...created,
      name: 'New and Improved Backenders V2!',
      slug: 'new-and-improved-backenders-v2',
      privacy: 'secret',
      default: true,
    });
    expect((await call('GET', world.teamPath(created.id))).body).toEqual(response.body);
    const cleared = await call('PATCH', world.teamPath(created.id), { body: { description: null } });
    expect(cleared.body.description).toBe('');
    const [row] = await world.server.database.sql.query(
      'select default_member_role, members_can_create_pipelines from teams where id = $1',
      [created.id],
    );
    expect(row).toEqual({ default_member_role: 'member', members_can_create_pipelines: true });
    const settings = await call('PATCH', world.teamPath(created.id), {
      body: { default_member_role: 'maintainer', members_can_create_pipelines: false },
    });
    expect(settings.status, settings.text).toBe(200);
    const [changed] = await world.server.database.sql.query(
      'select default_member_role, members_can_create_pipelines from teams where id = $1',
      [created.id],
    );
    expect(changed).toEqual({ default_member_role: 'maintainer', members_can_create_pipelines: false });
  });

  it('answers an empty update with the team as it is', async () => {
    const before = (await call('GET', world.teamPath(world.teams.hidden))).body;
    const response = await call('PATCH', world.teamPath(world.teams.hidden), { body: {} });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual(before);
    const noBody = await call('PATCH', world.teamPath(world.teams.hidden));
    expect(noBody.body).toEqual(before);
  });

  it('keeps a team renamed to another spelling of its own slug, and frees the old slug on rename', async () => {
    const team = await world.createTeam({ name: 'my team' });
    const respelled = await call('PATCH', world.teamPath(team.id), { body: { name: 'My Team' } });
    expect(respelled.status, respelled.text).toBe(200);
    expect(respelled.body).toMatchObject({ name: 'My Team', slug: 'my-team' });
    expect((await call('PATCH', world.teamPath(team.id), { body: { name: 'Your Team' } })).status).toBe(200);
    expect((await world.createTeam({ name: 'My Team' })).slug).toBe('my-team');
  });

  it('deletes a team without pipelines: 204, then 404, its memberships gone with it', async () => {
    const team = await world.createTeam({ name: 'Short Lived' });
    await world.addMember(team.id, { user_id: world.users.member.id });
    const response = await call('DELETE', world.teamPath(team.id));
    expectNoContent(response);
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('write_teams');
    expectMessage(await call('GET', world.teamPath(team.id)), 404, 'No team found');
    expectMessage(await call('DELETE', world.teamPath(team.id)), 404, 'No team found');
    const members = await world.server.database.sql.query('select 1 from team_members where team_id = $1', [
      team.id,
    ]);
    expect(members).toEqual([]);
  });

  it('deletes a team whose pipelines all have another team, with its associations', async () => {
    const team = await world.createTeam({ name: 'Sharing' });
    const added = await call('POST', `${world.teamPath(team.id)}/pipelines`, {
      body: { pipeline_id: world.pipelines.web!.id, access_level: 'read_only' },
    });
    expect(added.status, added.text).toBe(201);
    expectNoContent(await call('DELETE', world.teamPath(team.id)));
    const left = await world.server.database.sql.query('select 1 from team_pipelines where team_id = $1', [
      team.id,
    ]);
    expect(left).toEqual([]);
  });

  it('refuses to delete the only team of pipelines with 422, and changes nothing', async () => {
    const rows = await world.rows();
    const response = await call('DELETE', world.teamPath(world.teams.platform));
    // `platform` alone has web, api, docs, releases and archived; `hidden` alone has secret.
    expectMessage(
      response,
      422,
      "The team can't be deleted: it is the only team of 5 pipelines, and a pipeline must belong to at least one team",
    );
    const hidden = await call('DELETE', world.teamPath(world.teams.hidden));
    expectMessage(
      hidden,
      422,
      "The team can't be deleted: it is the only team of 1 pipeline, and a pipeline must belong to at least one team",
    );
    expect(await world.rows()).toEqual(rows);
  });
});

describe('teams: names, 404s and other organizations', () => {
  let world: TeamsWorld;
  let otherTeam: string;
  let rowsBefore: Awaited<ReturnType<TeamsWorld['rows']>>;
  const call = (method: string, path: string, options?: CallOptions) => world.call(method, path, options);

  beforeAll(async () => {
    world = await startTeamsWorld();
    otherTeam = (
      await world.createTeam({ name: 'Others' }, { organization: 'other', token: world.tokens.outsider })
    ).id;
    rowsBefore = await world.rows();
  });
  afterAll(() => world?.close());

  it.each<[string, unknown, string]>([
    ['an empty body', {}, "Name can't be blank"],
    ['a blank name', { name: '  ' }, "Name can't be blank"],
    ['a numeric name', { name: 42 }, 'Name is invalid'],
    ['a name without letters or digits', { name: '!!!' }, 'Name must contain at least one letter or digit'],
    ['a name that is too long', { name: 'n'.repeat(256) }, 'Name is too long (maximum is 255 characters)'],
    ['a taken name', { name: 'Platform' }, 'Name has already been taken'],
    ['another spelling of a taken slug', { name: 'PLATFORM!!' }, 'Name has already been taken'],
    ['an unknown privacy', { name: 'x', privacy: 'private' }, 'Privacy is not included in the list'],
    [
      'a string boolean',
      { name: 'x', is_default_team: 'false' },
      'Is default team is not included in the list',
    ],
    [
      'an unknown role',
      { name: 'x', default_member_role: 'owner' },
      'Default member role is not included in the list',
    ],
    [
      'several mistakes',
      { name: '', privacy: 'SECRET', members_can_create_pipelines: 'no' },
      "Name can't be blank, Privacy is not included in the list, Members can create pipelines is not included in the list",
    ],
  ])('refuses to create with %s: 422 Validation failed', async (_name, body, reasons) => {
    expectMessage(await call('POST', world.teamsPath(), { body }), 422, `Validation failed: ${reasons}`);
  });

  it('refuses a create without any body, and a rename to a taken name', async () => {
    expectMessage(await call('POST', world.teamsPath()), 422, "Validation failed: Name can't be blank");
    expectMessage(
      await call('PATCH', world.teamPath(world.teams.hidden), { body: { name: 'platform' } }),
      422,
      'Validation failed: Name has already been taken',
    );
    expectMessage(
      await call('PATCH', world.teamPath(world.teams.hidden), { body: { name: '' } }),
      422,
      "Validation failed: Name can't be blank",
    );
  });

  it("lets another organization have a team of the same name, and keeps each organization's list apart", async () => {
    const response = await call('POST', world.teamsPath('other'), {
      token: world.tokens.outsider,
      body: { name: 'Platform' },
    });
    expect(response.status, response.text).toBe(201);
    const names = (await call('GET', world.teamsPath('other'), { token: world.tokens.outsider })).body.map(
      (team: TeamWire) => team.slug,
    );
    expect(names).toEqual(['others', 'platform']);
    await call('DELETE', world.teamPath(response.body.id, '', 'other'), { token: world.tokens.outsider });
  });

  const OPERATIONS: Array<[string, (team: string) => string, CallOptions]> = [
    ['GET', (team) => `/v2/organizations/acme/teams/${team}`, {}],
    ['PATCH', (team) => `/v2/organizations/acme/teams/${team}`, { body: { name: 'Renamed' } }],
    ['PATCH', (team) => `/v2/organizations/acme/teams/${team}`, { body: { name: '' } }],
    ['DELETE', (team) => `/v2/organizations/acme/teams/${team}`, {}],
  ];

  describe.each<[string, () => string]>([
    ['an unknown team UUID', () => UNKNOWN_UUID],
    ['a team slug instead of its UUID', () => 'platform'],
    ['a malformed UUID', () => `${world.teams.platform.slice(0, -1)}x`],
    ["another organization's team", () => otherTeam],
  ])('on %s', (_name, team) => {
    it.each(OPERATIONS)('%s answers 404 No team found', async (method, path, options) => {
      expectMessage(await call(method, path(team()), options), 404, 'No team found');
    });
  });

  it.each([
    ['GET', () => world.teamsPath('nope'), {}],
    ['POST', () => world.teamsPath('nope'), { body: { name: 'x' } }],
    ['GET', () => world.teamPath(world.teams.platform, '', 'nope'), {}],
    ['PATCH', () => world.teamPath(world.teams.platform, '', 'nope'), { body: { name: 'x' } }],
    ['DELETE', () => world.teamPath(world.teams.platform, '', 'nope'), {}],
  ] as const)(
    '%s in an unknown organization answers 404 No organization found',
    async (method, path, options) => {
      expectMessage(await call(method, path(), options as CallOptions), 404, 'No organization found');
    },
  );

  it("answers the team's own organization path only: a team reached through another organization is 404", async () => {
    expectMessage(
      await call('GET', world.teamPath(world.teams.platform, '', 'other'), { token: world.tokens.outsider }),
      404,
      'No team found',
    );
  });

  it('changed nothing', async () => {
    expect(await world.rows()).toEqual(rowsBefore);
  });
});

describe('teams: pagination and the user_id filter', () => {
  let world: TeamsWorld;

  beforeAll(async () => {
    world = await startTeamsWorld();
    for (const name of ['Team A', 'Team B', 'Team C', 'Team D']) await world.createTeam({ name });
    // `Team B`, after platform, hidden, covert and Team A.
    await world.addMember((await world.call('GET', world.teamsPath())).body[4].id, {
      user_id: world.users.member.id,
    });
  });
  afterAll(() => world?.close());

  it('walks every page through Link, each team once, in the order of the whole list', async () => {
    const whole = (await world.call('GET', world.teamsPath())).body as TeamWire[];
    expect(whole).toHaveLength(7);
    const { items, rels } = await walkPages(
      (path) => world.call('GET', path),
      `${world.teamsPath()}?per_page=3`,
    );
    expect(items).toEqual(whole);
    expect(rels).toEqual([
      ['next', 'last'],
      ['first', 'prev', 'next', 'last'],
      ['first', 'prev'],
    ]);
  });

  it('writes absolute links on the public URL, page before per_page, keeping other parameters', async () => {
    const response = await world.call('GET', `${world.teamsPath()}?x=1&per_page=2&page=2`);
    const base = `${API_URL}${world.teamsPath()}`;
    expect(link(response, 'first')).toBe(`${base}?x=1&page=1&per_page=2`);
    expect(link(response, 'prev')).toBe(`${base}?x=1&page=1&per_page=2`);
    expect(link(response, 'next')).toBe(`${base}?x=1&page=3&per_page=2`);
    expect(link(response, 'last')).toBe(`${base}?x=1&page=4&per_page=2`);
  });

  it('answers a page past the end with [] and bad page numbers with 400', async () => {
    const past = await world.call('GET', `${world.teamsPath()}?page=9`);
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
    expectMessage(
      await world.call('GET', `${world.teamsPath()}?page=x`),
      400,
      'page must be a positive integer',
    );
    expectMessage(
      await world.call('GET', `${world.teamsPath()}?per_page=-1`),
      400,
      'per_page must be a positive integer',
    );
  });

  it("filters by user_id: the teams that user is in, in any case, paged and linked on the filter's count", async () => {
    const member = world.users.member.id;
    const response = await world.call('GET', `${world.teamsPath()}?user_id=${member.toUpperCase()}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body.map((team: TeamWire) => team.slug)).toEqual(['platform', 'team-b']);
    const paged = await world.call('GET', `${world.teamsPath()}?user_id=${member}&per_page=1`);
    expect(paged.body.map((team: TeamWire) => team.slug)).toEqual(['platform']);
    expect(link(paged, 'last')).toBe(`${API_URL}${world.teamsPath()}?user_id=${member}&page=2&per_page=1`);
    for (const user of [UNKNOWN_UUID, world.users.outsider.id]) {
      const none = await world.call('GET', `${world.teamsPath()}?user_id=${user}`);
      expect(none.body).toEqual([]);
      expect(none.headers.get('link')).toBeNull();
    }
    expect((await world.call('GET', `${world.teamsPath()}?user_id=`)).body).toHaveLength(7);
  });

  it.each(['nope', '12', `${UNKNOWN_UUID}x`, '%00'])('answers user_id=%s with 400', async (userId) => {
    expectMessage(
      await world.call('GET', `${world.teamsPath()}?user_id=${userId}`),
      400,
      'user_id must be a user UUID',
    );
  });
});

describe('teams: bad input is answered, never a 500, and changes nothing', () => {
  let world: TeamsWorld;
  let rowsBefore: Awaited<ReturnType<TeamsWorld['rows']>>;

  const expectSafe = (response: Reply) => expectSafeRefusal(response, [/\bteams_/]);
  const raw = (method: string, path: string, body: string, contentType?: string) =>
    world.call(method, path, { rawBody: body, headers: contentType ? { 'Content-Type': contentType } : {} });

  beforeAll(async () => {
    world = await startTeamsWorld();
    rowsBefore = await world.rows();
  });
  afterAll(() => world?.close());

  it.each([
    ['POST', () => world.teamsPath()],
    ['PATCH', () => world.teamPath(world.teams.hidden)],
  ])('answers malformed JSON on %s %# with 400 Problems parsing JSON', async (method, path) => {
    for (const body of ['{', '{"name": ', 'nul', '{"a":1}}', '{"__proto__": {"name": "x"}}']) {
      const response = await raw(method, path(), body, 'application/json');
      expectSafe(response);
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/^Problems parsing JSON/);
    }
  });

  it.each([
    ['an array', '[1]'],
    ['a string', '"team"'],
    ['a number', '42'],
  ])('answers a JSON body that is %s with 400', async (_name, body) => {
    for (const [method, path] of [
      ['POST', world.teamsPath()],
      ['PATCH', world.teamPath(world.teams.hidden)],
    ] as const) {
      const response = await raw(method, path, body, 'application/json');
      expectSafe(response);
      expect(response.status).toBe(400);
    }
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'a NUL byte in the name',
      { name: 'a\u0000b' },
      "Name can't contain NUL characters or unpaired surrogates",
    ],
    [
      'an unpaired surrogate',
      { name: '\ud800x' },
      "Name can't contain NUL characters or unpaired surrogates",
    ],
    [
      'a NUL byte in the description',
      { name: 'ok', description: '\u0000' },
      "Description can't contain NUL characters or unpaired surrogates",
    ],
    ['a huge name', { name: 'n'.repeat(500_000) }, 'Name is too long (maximum is 255 characters)'],
    [
      'a huge description',
      { name: 'ok', description: 'd'.repeat(500_000) },
      'Description is too long (maximum is 1000 characters)',
    ],
    [
      'objects as values',
      { name: { $ne: null }, privacy: { visible: true }, is_default_team: {} },
      'Name is invalid, Privacy is not included in the list, Is default team is not included in the list',
    ],
  ])('answers %s on create and update with 422', async (_name, body, reasons) => {
    for (const [method, path] of [
      ['POST', world.teamsPath()],
      ['PATCH', world.teamPath(world.teams.hidden)],
    ] as const) {
      const response = await world.call(method, path, { body });
      expectSafe(response);
      expect(response.body).toEqual({ message: `Validation failed: ${reasons}` });
    }
  });

  it('keeps SQL in a name as text', async () => {
    const name = "x'); drop table teams; --";
    const created = await world.call('POST', world.teamsPath(), { body: { name } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name, slug: 'x-drop-table-teams' });
    expectNoContent(await world.call('DELETE', world.teamPath(created.body.id)));
  });

  it.each<[string, number, string]>([
    ['a NUL byte', 404, '%00'],
    ['an encoded NUL in a UUID', 404, `${UNKNOWN_UUID.slice(0, -1)}%00`],
    ['a huge segment', 404, 'a'.repeat(5_000)],
    ['SQL', 404, encodeURIComponent("' or 1=1 --")],
    ['percent-encoded slashes', 404, '..%2F..%2Fbuilds'],
    ['an unpaired surrogate', 400, '%ED%A0%80'],
  ])('answers %s as the team with %i on every operation', async (_name, status, segment) => {
    for (const [method, options] of [
      ['GET', {}],
      ['PATCH', { body: { name: 'x' } }],
      ['DELETE', {}],
    ] as const) {
      const response = await world.call(method, world.teamPath(segment), options as CallOptions);
      expectSafe(response);
      expect(response.status, `${method} ${segment}`).toBe(status);
      expect(Object.keys(response.body)).toEqual(['message']);
    }
  });

  it('answers a body over the limit with 413', async () => {
    const response = await world.call('POST', world.teamsPath(), {
      body: { name: 'big', padding: 'x'.repeat(2 * 1024 * 1024) },
    });
    expectSafe(response);
    expect(response.status).toBe(413);
  });

  it('changed nothing', async () => {
    expect(await world.rows()).toEqual(rowsBefore);
  });
});

describe('teams: races', () => {
  let world: TeamsWorld;

  beforeAll(async () => {
    world = await startTeamsWorld();
  });
  afterAll(() => world?.close());

  it('answers 8 concurrent creates of one name (in several spellings) with exactly one 201, the others 422', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        world.call('POST', world.teamsPath(), { body: { name: i % 2 ? 'Night Shift' : 'night  shift!' } }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses, responses.map((response) => response.text).join('\n')).toEqual([
      201,
      ...Array(7).fill(422),
    ]);
    for (const response of responses.filter((r) => r.status === 422)) {
      expect(response.body).toEqual({ message: 'Validation failed: Name has already been taken' });
    }
    const rows = await world.server.database.sql.query("select id from teams where slug = 'night-shift'");
    expect(rows).toHaveLength(1);
  });

  it('answers 8 concurrent renames to one name with exactly one 200', async () => {
    const teams = await Promise.all(
      Array.from({ length: 8 }, (_, i) => world.createTeam({ name: `Rename ${i}` })),
    );
    const responses = await Promise.all(
      teams.map((team) => world.call('PATCH', world.teamPath(team.id), { body: { name: 'Day Shift' } })),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, ...Array(7).fill(422)]);
  });

  it('never leaves a pipeline without a team when its last two teams are deleted at once', async () => {
    for (let round = 0; round < 4; round++) {
      const [a, b] = [
        await world.createTeam({ name: `A ${round}` }),
        await world.createTeam({ name: `B ${round}` }),
      ];
      // `public` belongs to no team: give it exactly these two.
      for (const team of [a, b]) {
        const added = await world.call('POST', `${world.teamPath(team.id)}/pipelines`, {
          body: { pipeline_id: world.pipelines.public!.id, access_level: 'read_only' },
        });
        expect(added.status, added.text).toBe(201);
      }
      const responses = await Promise.all(
        [a, b].map((team) => world.call('DELETE', world.teamPath(team.id))),
      );
      expect(
        responses.map((response) => response.status).sort(),
        responses.map((r) => r.text).join(' '),
      ).toEqual([204, 422]);
      const left = await world.server.database.sql.query(
        'select team_id from team_pipelines where pipeline_id = $1',
        [world.pipelines.public!.id],
      );
      expect(left).toHaveLength(1);
      // Move `public` back to no team for the next round (admins may, through the repository only).
      await world.server.database.sql.query('delete from team_pipelines where pipeline_id = $1', [
        world.pipelines.public!.id,
      ]);
    }
  });

  it('never leaves a pipeline without a team when a team is deleted while its partner association is removed', async () => {
    for (let round = 0; round < 4; round++) {
      const [a, b] = [
        await world.createTeam({ name: `C ${round}` }),
        await world.createTeam({ name: `D ${round}` }),
      ];
      for (const team of [a, b]) {
        await world.call('POST', `${world.teamPath(team.id)}/pipelines`, {
          body: { pipeline_id: world.pipelines.public!.id, access_level: 'read_only' },
        });
      }
      const [deleted, removed] = await Promise.all([
        world.call('DELETE', world.teamPath(a.id)),
        world.call('DELETE', `${world.teamPath(b.id)}/pipelines/${world.pipelines.public!.id}`),
      ]);
      expect([deleted.status, removed.status].sort(), `${deleted.text} ${removed.text}`).toEqual([204, 422]);
      const left = await world.server.database.sql.query(
        'select team_id from team_pipelines where pipeline_id = $1',
        [world.pipelines.public!.id],
      );
      expect(left).toHaveLength(1);
      await world.server.database.sql.query('delete from team_pipelines where pipeline_id = $1', [
        world.pipelines.public!.id,
      ]);
    }
  });
});

describe('teams over tRPC: the same procedures, bodies and refusals', () => {
  let world: TeamsWorld;

  beforeAll(async () => {
    world = await startTeamsWorld();
  });
  afterAll(() => world?.close());

  it('lists, creates, gets, updates and deletes with the REST bodies', async () => {
    const admin = world.trpc(world.tokens.admin);
    const rest = (await world.call('GET', world.teamsPath())).body;
    expect(await admin.teams.list.query({ organization: 'acme' })).toEqual(rest);
    expect(await admin.teams.list.query({ organization: 'acme', page: 2, per_page: 1 })).toEqual([rest[1]]);
    expect(await admin.teams.list.query({ organization: 'acme', user_id: world.users.bystander.id })).toEqual(
      [rest[2]],
    );

    const created = await admin.teams.create.mutate({
      organization: 'acme',
      name: 'Typed',
      privacy: 'secret',
    });
    expectTeam(created);
    const key = { organization: 'acme', team: created.id };
    expect(await admin.teams.get.query(key)).toEqual(created);
    const updated = await admin.teams.update.mutate({ ...key, name: 'Typed Again' });
    expect(updated).toEqual({ ...created, name: 'Typed Again', slug: 'typed-again' });
    expect(await admin.teams.delete.mutate(key)).toBeUndefined();
    expect((await world.call('GET', world.teamPath(created.id))).status).toBe(404);
  });

  it('refuses with the REST messages and statuses', async () => {
    const taken = await failure(
      world.trpc(world.tokens.admin).teams.create.mutate({ organization: 'acme', name: 'Platform' }),
    );
    expect(taken.message).toBe('Validation failed: Name has already been taken');
    expect(taken.data?.httpStatus).toBe(422);
    const forbidden = await failure(
      world.trpc(world.tokens.member).teams.create.mutate({ organization: 'acme', name: 'Mine' }),
    );
    expect(forbidden.message).toBe('Forbidden');
    expect(forbidden.data?.httpStatus).toBe(403);
    const secret = await failure(
      world.trpc(world.tokens.member).teams.get.query({ organization: 'acme', team: world.teams.covert }),
    );
    expect(secret.message).toBe('No team found');
    expect(secret.data?.httpStatus).toBe(404);
    const badFilter = await failure(
      world.trpc(world.tokens.admin).teams.list.query({ organization: 'acme', user_id: 'x' }),
    );
    expect(badFilter.message).toBe('user_id must be a user UUID');
    expect(badFilter.data?.httpStatus).toBe(400);
  });
});
