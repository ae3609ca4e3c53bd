import type { TeamMemberWire } from '@ci/trpc';
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
import { API_URL, expectTeamMember, startTeamsWorld, type TeamsWorld } from '../support/teams-world';
import { trpcFailure } from '../support/trpc';

/**
 * Team members on /v2 through the real HTTP server on PostgreSQL: list, get, add, change the role and
 * remove, the public API's member shape, who may be added (members of the organization, once), the
 * 404s, pagination, bad input (never a 500) and concurrent adds. Who may do what:
 * team-authorization.int.test.ts.
 */

type CallOptions = NonNullable<Parameters<TeamsWorld['call']>[2]>;

describe('team members: the operations', () => {
  let world: TeamsWorld;
  const call = (method: string, path: string, options?: CallOptions) => world.call(method, path, options);

  beforeAll(async () => {
    world = await startTeamsWorld();
  });
  afterAll(() => world?.close());

  it("lists a team's members, oldest first, with the public API's keys and no Link", async () => {
    const response = await call('GET', world.membersPath(world.teams.platform));
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    expect(response.headers.get('link')).toBeNull();
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('view_teams');
    for (const member of response.body) expectTeamMember(member);
    expect(response.body).toEqual([
      {
        role: 'member',
        created_at: expect.any(String),
        user_id: world.users.member.id,
        user_name: 'Max Member',
      },
      {
        role: 'maintainer',
        created_at: expect.any(String),
        user_id: world.users.maintainer.id,
        user_name: 'Mia Maintainer',
      },
    ]);
  });

  it('gets one member, the same as in the list, by user UUID in any case', async () => {
    const list = (await call('GET', world.membersPath(world.teams.platform))).body;
    const response = await call(
      'GET',
      world.membersPath(world.teams.platform, `/${world.users.member.id.toUpperCase()}`),
    );
    expect(response.status, response.text).toBe(200);
    expect(expectTeamMember(response.body)).toEqual(list[0]);
  });

  it('adds a member of the organization: 201, then listed and got', async () => {
    const before = Date.now();
    const response = await call('POST', world.membersPath(world.teams.hidden), {
      body: { user_id: world.users.bystander.id.toUpperCase(), role: 'maintainer' },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('write_teams');
    const member = expectTeamMember(response.body);
    expect(member).toEqual({
      role: 'maintainer',
      created_at: expect.any(String),
      user_id: world.users.bystander.id,
      user_name: 'Bea Bystander',
    });
    expect(Date.parse(member.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(
      (await call('GET', world.membersPath(world.teams.hidden, `/${world.users.bystander.id}`))).body,
    ).toEqual(member);
    expect((await call('GET', world.membersPath(world.teams.hidden))).body).toEqual([member]);
  });

  it("adds through the public API's path with the trailing slash, and ignores unknown fields", async () => {
    const response = await call('POST', world.membersPath(world.teams.hidden, '/'), {
      body: { user_id: world.users.member.id, role: 'member', team: world.teams.platform, x: 1 },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.user_id).toBe(world.users.member.id);
  });

  it("gives a member added without a role the team's default member role", async () => {
    const team = await world.createTeam({ name: 'Defaults', default_member_role: 'maintainer' });
    const added = await call('POST', world.membersPath(team.id), {
      body: { user_id: world.users.member.id },
    });
    expect(added.status, added.text).toBe(201);
    expect(added.body.role).toBe('maintainer');
    await call('PATCH', world.teamPath(team.id), { body: { default_member_role: 'member' } });
    const second = await call('POST', world.membersPath(team.id), {
      body: { user_id: world.users.admin.id, role: null },
    });
    expect(second.body.role).toBe('member');
  });

  it('changes the role: 200, created_at unchanged; and back', async () => {
    const path = world.membersPath(world.teams.hidden, `/${world.users.member.id}`);
    const before = (await call('GET', path)).body;
    const response = await call('PATCH', path, { body: { role: 'maintainer', user_id: UNKNOWN_UUID } });
    expect(response.status, response.text).toBe(200);
    expect(expectTeamMember(response.body)).toEqual({ ...before, role: 'maintainer' });
    expect((await call('GET', path)).body).toEqual(response.body);
    expect((await call('PATCH', path, { body: { role: 'member' } })).body).toEqual(before);
  });

  it('removes a member: 204 with an empty body, then 404; the user stays in the organization', async () => {
    const path = world.membersPath(world.teams.hidden, `/${world.users.member.id}`);
    const response = await call('DELETE', path);
    expectNoContent(response);
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('write_teams');
    expectMessage(await call('GET', path), 404, 'No user found');
    expectMessage(await call('DELETE', path), 404, 'No user found');
    const readd = await call('POST', world.membersPath(world.teams.hidden), {
      body: { user_id: world.users.member.id },
    });
    expect(readd.status, readd.text).toBe(201);
  });

  it('takes access away at once: a removed member no longer sees the builds of the team pipeline', async () => {
    const builds = '/v2/organizations/acme/pipelines/secret/builds';
    // `member` is in `hidden` again (above), which has `secret`.
    const seen = await call('GET', builds, { token: world.tokens.member });
    expect(seen.status, seen.text).toBe(200);
    expectNoContent(await call('DELETE', world.membersPath(world.teams.hidden, `/${world.users.member.id}`)));
    expectMessage(await call('GET', builds, { token: world.tokens.member }), 404, 'No pipeline found');
  });
});

describe('team members: 422 and 404', () => {
  let world: TeamsWorld;
  let otherTeam: string;
  let rowsBefore: Awaited<ReturnType<TeamsWorld['rows']>>;
  const call = (method: string, path: string, options?: CallOptions) => world.call(method, path, options);

  beforeAll(async () => {
    world = await startTeamsWorld();
    const others = await world.createTeam(
      { name: 'Others' },
      { organization: 'other', token: world.tokens.outsider },
    );
    otherTeam = others.id;
    rowsBefore = await world.rows();
  });
  afterAll(() => world?.close());

  it.each<[string, () => Record<string, unknown>, string]>([
    ['no user_id', () => ({ role: 'member' }), "User can't be blank"],
    ['an empty user_id', () => ({ user_id: '' }), "User can't be blank"],
    ['an email as user_id', () => ({ user_id: 'member@acme.test' }), 'User is invalid'],
    ['a numeric user_id', () => ({ user_id: 1 }), 'User is invalid'],
    ['an unknown user', () => ({ user_id: UNKNOWN_UUID }), 'User must be a member of the organization'],
    [
      'a user of another organization only',
      () => ({ user_id: world.users.outsider.id }),
      'User must be a member of the organization',
    ],
    ['a user already in the team', () => ({ user_id: world.users.member.id }), 'User has already been taken'],
    [
      'a user already in the team, with another role',
      () => ({ user_id: world.users.maintainer.id, role: 'member' }),
      'User has already been taken',
    ],
    [
      'an unknown role',
      () => ({ user_id: world.users.admin.id, role: 'admin' }),
      'Role is not included in the list',
    ],
    [
      'an empty role',
      () => ({ user_id: world.users.admin.id, role: '' }),
      'Role is not included in the list',
    ],
    ['an empty body', () => ({}), "User can't be blank"],
    ['both wrong', () => ({ user_id: 'x', role: 'x' }), 'User is invalid, Role is not included in the list'],
  ])('refuses to add with %s: 422 Validation failed', async (_name, body, reason) => {
    expectMessage(
      await call('POST', world.membersPath(world.teams.platform), { body: body() }),
      422,
      `Validation failed: ${reason}`,
    );
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no role', {}, "Role can't be blank"],
    ['a null role', { role: null }, "Role can't be blank"],
    ['an unknown role', { role: 'owner' }, 'Role is not included in the list'],
  ])('refuses to change the role with %s: 422', async (_name, body, reason) => {
    expectMessage(
      await call('PATCH', world.membersPath(world.teams.platform, `/${world.users.member.id}`), { body }),
      422,
      `Validation failed: ${reason}`,
    );
  });

  describe.each<[string, () => string]>([
    ['a user who is not in the team', () => world.users.bystander.id],
    ['an unknown user', () => UNKNOWN_UUID],
    ['a user of another organization', () => world.users.outsider.id],
    ['a user email', () => 'member@acme.test'],
    ['a malformed UUID', () => `${world.users.member.id.slice(0, -1)}g`],
  ])('on %s', (_name, user) => {
    it.each<[string, CallOptions]>([
      ['GET', {}],
      ['PATCH', { body: { role: 'member' } }],
      ['PATCH', { body: { role: 'bogus' } }],
      ['DELETE', {}],
    ])('%s answers 404 No user found', async (method, options) => {
      expectMessage(
        await call(method, world.membersPath(world.teams.platform, `/${user()}`), options),
        404,
        'No user found',
      );
    });
  });

  describe.each<[string, () => string]>([
    ['an unknown team', () => UNKNOWN_UUID],
    ['a team slug', () => 'platform'],
    ["another organization's team", () => otherTeam],
  ])('on %s', (_name, team) => {
    it.each<[string, string, CallOptions]>([
      ['GET', '', {}],
      ['POST', '', { body: { user_id: 'x' } }],
      ['GET', '/<member>', {}],
      ['PATCH', '/<member>', { body: { role: 'member' } }],
      ['DELETE', '/<member>', {}],
    ])('%s …/members%s answers 404 No team found', async (method, rest, options) => {
      const path = world.membersPath(team(), rest.replace('<member>', world.users.member.id));
      expectMessage(await call(method, path, options), 404, 'No team found');
    });
  });

  it('changed nothing', async () => {
    expect(await world.rows()).toEqual(rowsBefore);
  });
});

describe('team members: pagination', () => {
  let world: TeamsWorld;
  let team: string;

  beforeAll(async () => {
    world = await startTeamsWorld();
    team = (await world.createTeam({ name: 'Crowd' })).id;
    for (const name of ['a', 'b', 'c', 'd', 'e']) {
      const user = await world.server.useCases.admin.createUser({
        name: `User ${name}`,
        email: `${name}@acme.test`,
      });
      await world.server.useCases.admin.addMember({
        organization: 'acme',
        email: user.email,
        role: 'member',
      });
      await world.addMember(team, { user_id: user.id });
    }
  });
  afterAll(() => world?.close());

  it('walks every page through Link, each member once, in the order of the whole list', async () => {
    const whole = (await world.call('GET', world.membersPath(team))).body as TeamMemberWire[];
    expect(whole.map((member) => member.user_name)).toEqual([
      'User a',
      'User b',
      'User c',
      'User d',
      'User e',
    ]);
    const { items, rels } = await walkPages(
      (path) => world.call('GET', path),
      `${world.membersPath(team)}?per_page=2`,
    );
    expect(items).toEqual(whole);
    expect(rels).toEqual([
      ['next', 'last'],
      ['first', 'prev', 'next', 'last'],
      ['first', 'prev'],
    ]);
    expect(link(await world.call('GET', `${world.membersPath(team)}?per_page=2`), 'last')).toBe(
      `${API_URL}${world.membersPath(team)}?page=3&per_page=2`,
    );
  });

  it('answers a page past the end with [] and a bad page with 400', async () => {
    expect((await world.call('GET', `${world.membersPath(team)}?page=4&per_page=2`)).body).toEqual([]);
    expectMessage(
      await world.call('GET', `${world.membersPath(team)}?page=1.5`),
      400,
      'page must be a positive integer',
    );
  });
});

describe('team members: bad input is answered, never a 500, and changes nothing', () => {
  let world: TeamsWorld;
  let rowsBefore: Awaited<ReturnType<TeamsWorld['rows']>>;

  const expectSafe = (response: Reply) => expectSafeRefusal(response, [/team_members/]);

  beforeAll(async () => {
    world = await startTeamsWorld();
    rowsBefore = await world.rows();
  });
  afterAll(() => world?.close());

  it('answers malformed JSON with 400 Problems parsing JSON', async () => {
    for (const [method, path] of [
      ['POST', world.membersPath(world.teams.platform)],
      ['PATCH', world.membersPath(world.teams.platform, `/${world.users.member.id}`)],
    ] as const) {
      for (const body of ['{', '{"user_id": ', '[1]', '"x"']) {
        const response = await world.call(method, path, {
          rawBody: body,
          headers: { 'Content-Type': 'application/json' },
        });
        expectSafe(response);
        expect(response.status).toBe(400);
        expect(response.body.message).toMatch(/^Problems parsing JSON/);
      }
    }
  });

  it.each<[string, () => Record<string, unknown>, string]>([
    ['a NUL byte in user_id', () => ({ user_id: `${world.users.admin.id}\u0000` }), 'User is invalid'],
    ['an unpaired surrogate as user_id', () => ({ user_id: '\ud800' }), 'User is invalid'],
    ['a huge user_id', () => ({ user_id: 'f'.repeat(500_000) }), 'User is invalid'],
    [
      'a huge role',
      () => ({ user_id: world.users.admin.id, role: 'r'.repeat(500_000) }),
      'Role is not included in the list',
    ],
    [
      'objects as values',
      () => ({ user_id: { $ne: null }, role: ['member'] }),
      'User is invalid, Role is not included in the list',
    ],
    [
      'the role name in upper case',
      () => ({ user_id: world.users.admin.id, role: 'MAINTAINER' }),
      'Role is not included in the list',
    ],
  ])('answers %s on add with 422', async (_name, body, reason) => {
    const response = await world.call('POST', world.membersPath(world.teams.platform), { body: body() });
    expectSafe(response);
    expect(response.body).toEqual({ message: `Validation failed: ${reason}` });
  });

  it.each<[string, number, string]>([
    ['a NUL byte', 404, '%00'],
    ['a huge segment', 404, 'a'.repeat(5_000)],
    ['SQL', 404, encodeURIComponent("' or 1=1 --")],
    ['an unpaired surrogate', 400, '%ED%A0%80'],
  ])('answers %s as the user with %i', async (_name, status, segment) => {
    for (const [method, options] of [
      ['GET', {}],
      ['PATCH', { body: { role: 'member' } }],
      ['DELETE', {}],
    ] as const) {
      const response = await world.call(
        method,
        world.membersPath(world.teams.platform, `/${segment}`),
        options as CallOptions,
      );
      expectSafe(response);
      expect(response.status).toBe(status);
    }
  });

  it('changed nothing', async () => {
    expect(await world.rows()).toEqual(rowsBefore);
  });
});

describe('team members: races', () => {
  let world: TeamsWorld;

  beforeAll(async () => {
    world = await startTeamsWorld();
  });
  afterAll(() => world?.close());

  it('answers 8 concurrent adds of the same member with exactly one 201, the others 422', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        world.call('POST', world.membersPath(world.teams.hidden, i % 2 ? '/' : ''), {
          body: { user_id: world.users.bystander.id, role: i % 2 ? 'member' : 'maintainer' },
        }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses, responses.map((response) => response.text).join('\n')).toEqual([
      201,
      ...Array(7).fill(422),
    ]);
    for (const response of responses.filter((r) => r.status === 422)) {
      expect(response.body).toEqual({ message: 'Validation failed: User has already been taken' });
    }
    const rows = await world.server.database.sql.query(
      'select 1 from team_members where team_id = $1 and user_id = $2',
      [world.teams.hidden, world.users.bystander.id],
    );
    expect(rows).toHaveLength(1);
  });

  it('answers adds racing the deletion of their team with 201 or 404, never a 500', async () => {
    for (let round = 0; round < 4; round++) {
      const team = await world.createTeam({ name: `Doomed ${round}` });
      const [deleted, ...adds] = await Promise.all([
        world.call('DELETE', world.teamPath(team.id)),
        ...[world.users.member, world.users.bystander, world.users.maintainer].map((user) =>
          world.call('POST', world.membersPath(team.id), { body: { user_id: user.id } }),
        ),
      ]);
      expectNoContent(deleted!);
      for (const add of adds) {
        expect([201, 404], add.text).toContain(add.status);
        if (add.status === 404) expect(add.body).toEqual({ message: 'No team found' });
      }
      const left = await world.server.database.sql.query('select 1 from team_members where team_id = $1', [
        team.id,
      ]);
      expect(left).toEqual([]);
    }
  });
});

describe('team members over tRPC: the same procedures, bodies and refusals', () => {
  let world: TeamsWorld;

  beforeAll(async () => {
    world = await startTeamsWorld();
  });
  afterAll(() => world?.close());

  it('lists, adds, gets, updates and removes with the REST bodies', async () => {
    const admin = world.trpc(world.tokens.admin);
    const key = { organization: 'acme', team: world.teams.hidden };
    const rest = (await world.call('GET', world.membersPath(world.teams.platform))).body;
    expect(await admin.teamMembers.list.query({ organization: 'acme', team: world.teams.platform })).toEqual(
      rest,
    );
    const added = await admin.teamMembers.create.mutate({
      ...key,
      user_id: world.users.member.id,
      role: 'member',
    });
    expectTeamMember(added);
    const member = { ...key, user: world.users.member.id };
    expect(await admin.teamMembers.get.query(member)).toEqual(added);
    expect(await admin.teamMembers.update.mutate({ ...member, role: 'maintainer' })).toEqual({
      ...added,
      role: 'maintainer',
    });
    expect(await admin.teamMembers.delete.mutate(member)).toBeUndefined();
    expect(await admin.teamMembers.list.query(key)).toEqual([]);
  });

  it('refuses with the REST messages and statuses', async () => {
    const error = await trpcFailure(
      world.trpc(world.tokens.admin).teamMembers.create.mutate({
        organization: 'acme',
        team: world.teams.platform,
        user_id: world.users.outsider.id,
      }),
    );
    expect(error.message).toBe('Validation failed: User must be a member of the organization');
    expect(error.data?.httpStatus).toBe(422);
  });
});

describe('default teams', () => {
  let world: TeamsWorld;
  beforeAll(async () => {
    world = await startTeamsWorld();
  });
  afterAll(() => world?.close());

  const membersOf = async (team: string) =>
    ((await world.call('GET', world.membersPath(team))).body as TeamMemberWire[]).map((member) => ({
      user_id: member.user_id,
      role: member.role,
    }));

  it("are joined by every new member of the organization, with the team's default role; other teams are not", async () => {
    const joined = await world.createTeam({
      name: 'Everyone',
      is_default_team: true,
      default_member_role: 'maintainer',
    });
    const plain = await world.createTeam({ name: 'Not default' });
    const admin = world.server.useCases.admin;
    const newcomer = await admin.createUser({ name: 'Nina Newcomer', email: 'newcomer@acme.test' });
    await admin.addMember({ organization: 'acme', email: newcomer.email, role: 'member' });
    expect(await membersOf(joined.id)).toEqual([{ user_id: newcomer.id, role: 'maintainer' }]);
    expect(await membersOf(plain.id)).toEqual([]);
    // A member whose organization role changes is no new member: their teams stay as they are.
    await world.call('DELETE', `${world.membersPath(joined.id)}/${newcomer.id}`);
    await admin.addMember({ organization: 'acme', email: newcomer.email, role: 'admin' });
    expect(await membersOf(joined.id)).toEqual([]);
    // Another organization's default teams are not joined by members of this one.
    const elsewhere = await world.createTeam(
      { name: 'Other default', is_default_team: true },
      { organization: 'other', token: world.tokens.outsider },
    );
    const second = await admin.createUser({ name: 'Sam Second', email: 'second@acme.test' });
    await admin.addMember({ organization: 'acme', email: second.email, role: 'member' });
    expect(await membersOf(joined.id)).toEqual([{ user_id: second.id, role: 'maintainer' }]);
    const otherMembers = await world.call('GET', world.membersPath(elsewhere.id, '', 'other'), {
      token: world.tokens.outsider,
    });
    expect(otherMembers.status, otherMembers.text).toBe(200);
    expect(otherMembers.body).toEqual([]);
  });
});
