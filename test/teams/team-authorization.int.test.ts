import type { Scope } from '@ci/domain';
import { TeamMemberWire, TeamWire } from '@ci/trpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTHENTICATION_REQUIRED,
  expectMessage,
  expectNoContent,
  link,
  UNKNOWN_TOKEN,
} from '../support/answers';
import { API_URL, startTeamsWorld, type TeamsWorld } from '../support/teams-world';

/**
 * Who may do what with teams, their members and their pipelines on /v2 (docs/compatibility.md):
 * every operation against every kind of caller with the exact answer and the OAuth scope headers,
 * refusals changing nothing; secret teams hidden from everyone but admins and their members; team
 * maintainers managing their own team, its members and (on pipelines they may edit) its pipelines.
 */

type TeamScope = 'view_teams' | 'write_teams';
type Caller =
  | 'none'
  | 'unknown'
  | 'withoutScope'
  | 'outsider'
  | 'limitedElsewhere'
  | 'member'
  | 'maintainer'
  | 'onlyScope';

interface Operation {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  scope: TeamScope;
  /** a request meant to succeed for an admin: fresh targets where the operation changes or removes them */
  prepare: (world: TeamsWorld, n: number) => Promise<{ path: string; body?: Record<string, unknown> }>;
  success: 200 | 201 | 204;
  answers: 'team' | 'teams' | 'member' | 'members' | 'none';
  /** what a team maintainer (of the target team) gets; every other write refuses plain members */
  maintainer: 'allowed' | 'forbidden';
}

/** A fresh visible team with `maintainer` as its maintainer and `member` as a member. */
async function freshTeam(world: TeamsWorld, n: number) {
  const team = await world.createTeam({ name: `Fresh ${n}` });
  await world.addMember(team.id, { user_id: world.users.maintainer.id, role: 'maintainer' });
  await world.addMember(team.id, { user_id: world.users.member.id, role: 'member' });
  return team.id;
}

const OPERATIONS: Operation[] = [
  {
    name: 'list teams',
    method: 'GET',
    scope: 'view_teams',
    prepare: async (world) => ({ path: world.teamsPath() }),
    success: 200,
    answers: 'teams',
    maintainer: 'allowed',
  },
  {
    name: 'get a team',
    method: 'GET',
    scope: 'view_teams',
    prepare: async (world) => ({ path: world.teamPath(world.teams.platform) }),
    success: 200,
    answers: 'team',
    maintainer: 'allowed',
  },
  {
    name: 'create a team',
    method: 'POST',
    scope: 'write_teams',
    prepare: async (world, n) => ({ path: world.teamsPath(), body: { name: `Created ${n}` } }),
    success: 201,
    answers: 'team',
    maintainer: 'forbidden',
  },
  {
    name: 'update a team',
    method: 'PATCH',
    scope: 'write_teams',
    prepare: async (world, n) => ({
      path: world.teamPath(await freshTeam(world, n)),
      body: { description: `changed ${n}`, privacy: 'secret' },
    }),
    success: 200,
    answers: 'team',
    maintainer: 'allowed',
  },
  {
    name: 'delete a team',
    method: 'DELETE',
    scope: 'write_teams',
    prepare: async (world, n) => ({ path: world.teamPath(await freshTeam(world, n)) }),
    success: 204,
    answers: 'none',
    maintainer: 'allowed',
  },
  {
    name: 'list team members',
    method: 'GET',
    scope: 'view_teams',
    prepare: async (world) => ({ path: world.membersPath(world.teams.platform) }),
    success: 200,
    answers: 'members',
    maintainer: 'allowed',
  },
  {
    name: 'get a team member',
    method: 'GET',
    scope: 'view_teams',
    prepare: async (world) => ({
      path: world.membersPath(world.teams.platform, `/${world.users.member.id}`),
    }),
    success: 200,
    answers: 'member',
    maintainer: 'allowed',
  },
  {
    name: 'add a team member',
    method: 'POST',
    scope: 'write_teams',
    prepare: async (world, n) => ({
      path: world.membersPath(await freshTeam(world, n)),
      body: { user_id: world.users.bystander.id, role: 'member' },
    }),
    success: 201,
    answers: 'member',
    maintainer: 'allowed',
  },
  {
    name: 'change a member role',
    method: 'PATCH',
    scope: 'write_teams',
    prepare: async (world, n) => ({
      path: world.membersPath(await freshTeam(world, n), `/${world.users.member.id}`),
      body: { role: 'maintainer' },
    }),
    success: 200,
    answers: 'member',
    maintainer: 'allowed',
  },
  {
    name: 'remove a team member',
    method: 'DELETE',
    scope: 'write_teams',
    prepare: async (world, n) => ({
      path: world.membersPath(await freshTeam(world, n), `/${world.users.member.id}`),
    }),
    success: 204,
    answers: 'none',
    maintainer: 'allowed',
  },
];

const CALLERS: Array<{
  caller: Caller;
  name: string;
  outcome: (op: Operation) => { status: number; message?: string };
}> = [
  { caller: 'none', name: 'no token', outcome: () => ({ status: 401, message: AUTHENTICATION_REQUIRED }) },
  {
    caller: 'unknown',
    name: 'an unknown token',
    outcome: () => ({ status: 401, message: AUTHENTICATION_REQUIRED }),
  },
  {
    caller: 'withoutScope',
    name: "an admin token without the operation's scope",
    outcome: (op) => ({ status: 403, message: `Your access token doesn't have the ${op.scope} scope` }),
  },
  {
    caller: 'outsider',
    name: "another organization's admin",
    outcome: () => ({ status: 404, message: 'No organization found' }),
  },
  {
    caller: 'limitedElsewhere',
    name: 'an admin token limited to another organization',
    outcome: () => ({ status: 404, message: 'No organization found' }),
  },
  {
    caller: 'member',
    name: 'a team member who is no maintainer',
    outcome: (op) =>
      op.scope === 'write_teams' ? { status: 403, message: 'Forbidden' } : { status: op.success },
  },
  {
    caller: 'maintainer',
    name: "the target team's maintainer",
    outcome: (op) =>
      op.maintainer === 'allowed' ? { status: op.success } : { status: 403, message: 'Forbidden' },
  },
  {
    caller: 'onlyScope',
    name: "an admin with only the operation's scope",
    outcome: (op) => ({ status: op.success }),
  },
];

describe('teams and team members: the scope and role matrix', () => {
  let world: TeamsWorld;
  const secrets = {} as Record<string, string>;
  let n = 0;

  const authorization = (caller: Caller, op: Operation): string | null => {
    if (caller === 'none') return null;
    if (caller === 'unknown') return `Bearer ${UNKNOWN_TOKEN}`;
    if (caller === 'withoutScope' || caller === 'onlyScope')
      return `Bearer ${secrets[`${caller} ${op.scope}`]}`;
    return `Bearer ${secrets[caller]}`;
  };

  beforeAll(async () => {
    world = await startTeamsWorld();
    await world.server.useCases.admin.addMember({
      organization: 'other',
      email: world.users.admin.email,
      role: 'member',
    });
    const teamScopes: Scope[] = ['view_teams', 'write_teams'];
    secrets.member = await world.token('member', { scopes: teamScopes });
    secrets.maintainer = await world.token('maintainer', { scopes: teamScopes });
    secrets.outsider = await world.token('outsider', { scopes: teamScopes });
    secrets.limitedElsewhere = await world.token('admin', { scopes: teamScopes, organizations: ['other'] });
    secrets['withoutScope view_teams'] = await world.token('admin', {
      scopes: ['write_teams', 'read_teams'],
    });
    secrets['withoutScope write_teams'] = await world.token('admin', {
      scopes: ['view_teams', 'read_teams'],
    });
    secrets['onlyScope view_teams'] = await world.token('admin', { scopes: ['view_teams'] });
    secrets['onlyScope write_teams'] = await world.token('admin', { scopes: ['write_teams'] });
  });
  afterAll(() => world?.close());

  const MATRIX = OPERATIONS.flatMap((op) =>
    CALLERS.map((caller) => [op.name, caller.name, op, caller] as const),
  );
  it.each(MATRIX)('answers %s for %s as documented', async (_op, _caller, op, { caller, outcome }) => {
    const request = await op.prepare(world, n++);
    const header = authorization(caller, op);
    const before = await world.rows();
    const response = await world.call(op.method, request.path, {
      token: null,
      headers: header === null ? {} : { Authorization: header },
      ...(request.body ? { body: request.body } : {}),
    });
    const expected = outcome(op);
    expect(response.status, response.text).toBe(expected.status);
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe(op.scope);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    if (expected.message) {
      expect(response.body).toEqual({ message: expected.message });
      expect(await world.rows()).toEqual(before);
      return;
    }
    if (op.answers === 'none') expectNoContent(response);
    else if (op.answers === 'team') TeamWire.parse(response.body);
    else if (op.answers === 'teams') TeamWire.array().parse(response.body);
    else if (op.answers === 'member') TeamMemberWire.parse(response.body);
    else TeamMemberWire.array().parse(response.body);
  });

  it('records who created a team: the admin whose token created it', async () => {
    const created = await world.call('POST', world.teamsPath(), {
      token: secrets['onlyScope write_teams']!,
      body: { name: 'Attributed' },
    });
    expect(created.body.created_by.id).toBe(world.users.admin.id);
  });
});

describe('secret teams', () => {
  let world: TeamsWorld;

  beforeAll(async () => {
    world = await startTeamsWorld();
  });
  afterAll(() => world?.close());

  const as = (token: string, method: string, path: string, body?: Record<string, unknown>) =>
    world.call(method, path, { token, ...(body ? { body } : {}) });

  it('are answered 404 No team found to a member who is not in them, on every team endpoint', async () => {
    const team = world.teams.covert;
    const member = world.users.bystander.id;
    for (const token of [world.tokens.member, world.tokens.maintainer]) {
      for (const [method, path, body] of [
        ['GET', world.teamPath(team)],
        ['PATCH', world.teamPath(team), { name: 'Exposed' }],
        ['DELETE', world.teamPath(team)],
        ['GET', world.membersPath(team)],
        ['GET', world.membersPath(team, `/${member}`)],
        ['POST', world.membersPath(team), { user_id: world.users.member.id }],
        ['PATCH', world.membersPath(team, `/${member}`), { role: 'maintainer' }],
        ['DELETE', world.membersPath(team, `/${member}`)],
        ['GET', world.teamPath(team, '/pipelines')],
        ['GET', world.teamPath(team, `/pipelines/${world.pipelines.web!.id}`)],
        [
          'POST',
          world.teamPath(team, '/pipelines'),
          { pipeline_id: world.pipelines.web!.id, access_level: 'read_only' },
        ],
        ['DELETE', world.teamPath(team, `/pipelines/${world.pipelines.web!.id}`)],
      ] as const) {
        expectMessage(await as(token, method, path, body), 404, 'No team found');
      }
    }
  });

  it('are left out of lists for them, from the page, the count and the Link alike', async () => {
    const list = await as(world.tokens.member, 'GET', world.teamsPath());
    expect(list.body.map((team: TeamWire) => team.slug)).toEqual(['platform', 'hidden']);
    const paged = await as(world.tokens.member, 'GET', `${world.teamsPath()}?per_page=1`);
    expect(link(paged, 'last')).toBe(`${API_URL}${world.teamsPath()}?page=2&per_page=1`);
    const byMember = await as(
      world.tokens.member,
      'GET',
      `${world.teamsPath()}?user_id=${world.users.bystander.id}`,
    );
    expect(byMember.body).toEqual([]);
  });

  it('are seen by their members and by admins, but changed only by admins and maintainers', async () => {
    const bystander = world.tokens.bystander;
    expect((await as(bystander, 'GET', world.teamPath(world.teams.covert))).body.privacy).toBe('secret');
    expect((await as(bystander, 'GET', world.teamsPath())).body.map((team: TeamWire) => team.slug)).toEqual([
      'platform',
      'hidden',
      'covert',
    ]);
    expect((await as(bystander, 'GET', world.membersPath(world.teams.covert))).status).toBe(200);
    expect((await as(bystander, 'GET', world.teamPath(world.teams.covert, '/pipelines'))).body).toEqual([]);
    expectMessage(
      await as(bystander, 'PATCH', world.teamPath(world.teams.covert), { name: 'x' }),
      403,
      'Forbidden',
    );
    expect((await as(world.tokens.admin, 'GET', world.teamPath(world.teams.covert))).status).toBe(200);
    const promoted = await as(
      world.tokens.admin,
      'PATCH',
      world.membersPath(world.teams.covert, `/${world.users.bystander.id}`),
      {
        role: 'maintainer',
      },
    );
    expect(promoted.status, promoted.text).toBe(200);
    const renamed = await as(bystander, 'PATCH', world.teamPath(world.teams.covert), {
      description: 'by its maintainer',
    });
    expect(renamed.status, renamed.text).toBe(200);
  });

  it('hide a team from members the moment it is made secret, and show it again when made visible', async () => {
    const path = world.teamPath(world.teams.hidden);
    expect((await as(world.tokens.member, 'GET', path)).status).toBe(200);
    expect((await as(world.tokens.admin, 'PATCH', path, { privacy: 'secret' })).status).toBe(200);
    expectMessage(await as(world.tokens.member, 'GET', path), 404, 'No team found');
    expectMessage(
      await as(world.tokens.member, 'GET', world.teamPath(world.teams.hidden, '/pipelines')),
      404,
      'No team found',
    );
    expect((await as(world.tokens.admin, 'PATCH', path, { privacy: 'visible' })).status).toBe(200);
    expect((await as(world.tokens.member, 'GET', path)).status).toBe(200);
  });
});

describe('team maintainers', () => {
  let world: TeamsWorld;

  beforeAll(async () => {
    world = await startTeamsWorld();
  });
  afterAll(() => world?.close());

  const asMaintainer = (method: string, path: string, body?: Record<string, unknown>) =>
    world.call(method, path, { token: world.tokens.maintainer, ...(body ? { body } : {}) });
  const pipelinesOf = (team: string, rest = '') => world.teamPath(team, `/pipelines${rest}`);
  const id = (pipeline: string) => world.pipelines[pipeline]!.id;

  it('manage their own team: settings, members and roles', async () => {
    const team = world.teams.platform;
    const updated = await asMaintainer('PATCH', world.teamPath(team), {
      description: 'Our platform',
      is_default_team: true,
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ description: 'Our platform', default: true });
    const added = await asMaintainer('POST', world.membersPath(team), { user_id: world.users.bystander.id });
    expect(added.status, added.text).toBe(201);
    const promoted = await asMaintainer('PATCH', world.membersPath(team, `/${world.users.bystander.id}`), {
      role: 'maintainer',
    });
    expect(promoted.body.role).toBe('maintainer');
    expectNoContent(await asMaintainer('DELETE', world.membersPath(team, `/${world.users.bystander.id}`)));
  });

  it('cannot create teams, nor change a team they do not maintain', async () => {
    expectMessage(await asMaintainer('POST', world.teamsPath(), { name: 'Mine' }), 403, 'Forbidden');
    expectMessage(
      await asMaintainer('PATCH', world.teamPath(world.teams.hidden), { name: 'Mine' }),
      403,
      'Forbidden',
    );
    expectMessage(
      await asMaintainer('POST', world.membersPath(world.teams.hidden), {
        user_id: world.users.maintainer.id,
      }),
      403,
      'Forbidden',
    );
    expectMessage(await asMaintainer('DELETE', world.teamPath(world.teams.hidden)), 403, 'Forbidden');
  });

  it('may delete the team they maintain', async () => {
    const team = await world.createTeam({ name: 'Theirs' });
    await world.addMember(team.id, { user_id: world.users.maintainer.id, role: 'maintainer' });
    expectNoContent(await asMaintainer('DELETE', world.teamPath(team.id)));
  });

  it('lose their powers with their role', async () => {
    const team = await world.createTeam({ name: 'Stepping Down' });
    await world.addMember(team.id, { user_id: world.users.maintainer.id, role: 'maintainer' });
    const demoted = await asMaintainer('PATCH', world.membersPath(team.id, `/${world.users.maintainer.id}`), {
      role: 'member',
    });
    expect(demoted.status, demoted.text).toBe(200);
    expectMessage(await asMaintainer('PATCH', world.teamPath(team.id), { name: 'Back' }), 403, 'Forbidden');
  });

  it("change their team's pipelines, on pipelines they may edit themselves", async () => {
    // Through `platform` the maintainer has web: manage_build_and_read, docs: read_only.
    const web = pipelinesOf(world.teams.platform, `/${id('web')}`);
    const raised = await asMaintainer('PATCH', web, { access_level: 'manage_build_and_read' });
    expect(raised.status, raised.text).toBe(200);
    expectMessage(
      await asMaintainer('PATCH', pipelinesOf(world.teams.platform, `/${id('docs')}`), {
        access_level: 'manage_build_and_read',
      }),
      403,
      'Forbidden',
    );
    expectMessage(
      await asMaintainer('DELETE', pipelinesOf(world.teams.platform, `/${id('docs')}`)),
      403,
      'Forbidden',
    );
    // A team-less pipeline gives members build_and_read only: not theirs to hand out.
    expectMessage(
      await asMaintainer('POST', pipelinesOf(world.teams.platform), {
        pipeline_id: id('public'),
        access_level: 'read_only',
      }),
      403,
      'Forbidden',
    );
  });

  it('are told a pipeline they cannot see does not exist', async () => {
    expectMessage(
      await asMaintainer('POST', pipelinesOf(world.teams.platform), {
        pipeline_id: id('secret'),
        access_level: 'read_only',
      }),
      422,
      'Validation failed: Pipeline must exist',
    );
    expect(
      (
        await world.call('POST', pipelinesOf(world.teams.platform), {
          body: { pipeline_id: id('secret'), access_level: 'read_only' },
        })
      ).status,
    ).toBe(201);
    // Now `platform` has `secret` (read_only for the maintainer): visible, not theirs to change.
    expectMessage(
      await asMaintainer('DELETE', pipelinesOf(world.teams.platform, `/${id('secret')}`)),
      403,
      'Forbidden',
    );
    expectNoContent(await world.call('DELETE', pipelinesOf(world.teams.platform, `/${id('secret')}`)));
    expectMessage(
      await asMaintainer('PATCH', pipelinesOf(world.teams.hidden, `/${id('secret')}`), {
        access_level: 'read_only',
      }),
      403,
      'Forbidden',
    );
  });

  it('give their team a pipeline they may edit through another team, at once for its members', async () => {
    const member = (method: string, path: string) => world.call(method, path, { token: world.tokens.member });
    expectMessage(
      await member('GET', '/v2/organizations/acme/pipelines/secret/builds'),
      404,
      'No pipeline found',
    );
    await world.addMember(world.teams.hidden, { user_id: world.users.maintainer.id, role: 'member' });
    const levelled = await world.call('PATCH', pipelinesOf(world.teams.hidden, `/${id('secret')}`), {
      body: { access_level: 'manage_build_and_read' },
    });
    expect(levelled.status, levelled.text).toBe(200);
    const given = await asMaintainer('POST', pipelinesOf(world.teams.platform), {
      pipeline_id: id('secret'),
      access_level: 'read_only',
    });
    expect(given.status, given.text).toBe(201);
    expect((await member('GET', '/v2/organizations/acme/pipelines/secret/builds')).status).toBe(200);
    expectNoContent(await asMaintainer('DELETE', pipelinesOf(world.teams.platform, `/${id('secret')}`)));
    expectMessage(
      await member('GET', '/v2/organizations/acme/pipelines/secret/builds'),
      404,
      'No pipeline found',
    );
  });

  it('can lower a level below their own and then no longer raise it: an admin must', async () => {
    const web = pipelinesOf(world.teams.platform, `/${id('web')}`);
    const lowered = await asMaintainer('PATCH', web, { access_level: 'build_and_read' });
    expect(lowered.status, lowered.text).toBe(200);
    expectMessage(
      await asMaintainer('PATCH', web, { access_level: 'manage_build_and_read' }),
      403,
      'Forbidden',
    );
    expect((await world.call('PATCH', web, { body: { access_level: 'manage_build_and_read' } })).status).toBe(
      200,
    );
  });

  it('still cannot leave a pipeline without a team', async () => {
    expectMessage(
      await asMaintainer('DELETE', pipelinesOf(world.teams.platform, `/${id('web')}`)),
      422,
      'The pipeline must belong to at least one team',
    );
  });
});
