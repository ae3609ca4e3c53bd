import { SCOPES, type Scope } from '@ci/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectMessage, expectScopeHeaders } from '../support/answers';
import { type PipelinesWorld, startPipelinesWorld } from '../support/pipelines-world';
import { itRefusesWhomItMust } from '../support/scope-matrix';

/**
 * Who may do what with pipelines on /v2: every operation against every kind of caller (token scopes,
 * organizations, roles, team access levels), each answer checked for its status, its exact body, the OAuth
 * scope headers, and that a refused request changed nothing; member visibility and rule B2
 * (decisions.md, "Errors" and "Authorization model").
 */

type Json = Record<string, unknown>;

interface Operation {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  scope: 'read_pipelines' | 'write_pipelines';
  /** the path of a request against the pipeline `slug` of `organization` */
  path: (organization: string, slug: string) => string;
  body?: (n: number) => Json;
  /** what a success answers */
  answers: 'list' | 'pipeline' | 'empty';
  status: number;
  /** whether the operation acts on one pipeline (which it may change or delete) */
  target: boolean;
}

const pipelines = (organization: string) => `/v2/organizations/${organization}/pipelines`;
const pipeline = (organization: string, slug: string) => `${pipelines(organization)}/${slug}`;

const OPERATIONS: Operation[] = [
  {
    name: 'list',
    method: 'GET',
    scope: 'read_pipelines',
    path: pipelines,
    answers: 'list',
    status: 200,
    target: false,
  },
  {
    name: 'get',
    method: 'GET',
    scope: 'read_pipelines',
    path: pipeline,
    answers: 'pipeline',
    status: 200,
    target: true,
  },
  {
    name: 'create',
    method: 'POST',
    scope: 'write_pipelines',
    path: pipelines,
    body: (n) => ({
      name: `created ${n}`,
      repository: 'git@github.com:acme/x.git',
      configuration: 'steps: [x]',
    }),
    answers: 'pipeline',
    status: 201,
    target: false,
  },
  {
    name: 'update',
    method: 'PATCH',
    scope: 'write_pipelines',
    path: pipeline,
    body: (n) => ({ description: `changed ${n}` }),
    answers: 'pipeline',
    status: 200,
    target: true,
  },
  {
    name: 'archive',
    method: 'POST',
    scope: 'write_pipelines',
    path: (organization, slug) => `${pipeline(organization, slug)}/archive`,
    answers: 'pipeline',
    status: 200,
    target: true,
  },
  {
    name: 'delete',
    method: 'DELETE',
    scope: 'write_pipelines',
    path: pipeline,
    answers: 'empty',
    status: 204,
    target: true,
  },
];

let world: PipelinesWorld;
let n = 0;
/** A pipeline of `acme` made for one request, so requests meant to succeed never share one. */
const target = async () => (await world.createPipeline({ name: `target ${++n}` })).slug as string;

beforeAll(async () => {
  world = await startPipelinesWorld();
});
afterAll(() => world?.close());

/** Sends a request that must be refused, and checks that it changed no pipeline at all. */
async function refused(operation: Operation, token: string | null, organization = 'acme', slug = 'web') {
  const before = await world.pipelineRows();
  const response = await world.call(operation.method, operation.path(organization, slug), {
    token,
    ...(operation.body ? { body: operation.body(++n) } : {}),
  });
  expect(await world.pipelineRows()).toEqual(before);
  return response;
}

describe.each(OPERATIONS)('$name', (operation) => {
  itRefusesWhomItMust({
    world: () => world,
    scope: operation.scope,
    organization: true,
    send: (token, organization) => refused(operation, token, organization),
  });

  if (operation.target) {
    it.each([
      ['a pipeline that does not exist', 'acme', 'nope'],
      ["another organization's pipeline, through this one", 'acme', 'elsewhere'],
      ['a pipeline the member cannot see', 'acme', 'secret'],
    ])('answers 404 "No pipeline found" for %s', async (_case, organization, slug) => {
      const token = slug === 'secret' ? world.tokens.member : world.tokens.admin;
      const response = await refused(operation, token, organization, slug);
      expectMessage(response, 404, 'No pipeline found');
      expectScopeHeaders(response, operation.scope, SCOPES);
    });
  }

  it(`succeeds for an admin with only ${operation.scope}`, async () => {
    const slug = operation.target ? await target() : '';
    const token = await world.token('admin', { scopes: [operation.scope] });
    const response = await world.call(operation.method, operation.path('acme', slug), {
      token,
      ...(operation.body ? { body: operation.body(++n) } : {}),
    });
    expect(response.status, response.text).toBe(operation.status);
    expectScopeHeaders(response, operation.scope, [operation.scope]);
    if (operation.answers === 'list') expect(Array.isArray(response.body)).toBe(true);
    if (operation.answers === 'pipeline') expect(response.body).toMatchObject({ visibility: 'private' });
    if (operation.answers === 'empty') expect(response.text).toBe('');
  });
});

describe('unarchive', () => {
  it('needs write_pipelines and edit permission, like archive', async () => {
    const slug = await target();
    await world.call('POST', `${pipeline('acme', slug)}/archive`);
    const path = `${pipeline('acme', slug)}/unarchive`;
    const scoped = await world.call('POST', path, {
      token: await world.token('admin', { scopes: ['read_pipelines'] }),
    });
    expect(scoped.status).toBe(403);
    expect(scoped.body).toEqual({ message: "Your access token doesn't have the write_pipelines scope" });
    expect(scoped.headers.get('x-accepted-oauth-scopes')).toBe('write_pipelines');
    const member = await world.call('POST', path, { token: world.tokens.member });
    // Admin-made and team-less: open to every member, who may build but not edit it.
    expect(member.status).toBe(403);
    expect(member.body).toEqual({ message: 'Forbidden' });
    const admin = await world.call('POST', path);
    expect(admin.status).toBe(200);
    expect(admin.body.archived_at).toBeNull();
  });
});

describe('what members see', () => {
  const slugsOf = async (token: string) =>
    ((await world.call('GET', `${pipelines('acme')}?per_page=100`, { token })).body as Json[]).map(
      (p) => p.slug,
    );

  it('shows an admin every pipeline of the organization, and nothing of another', async () => {
    const slugs = await slugsOf(world.tokens.admin);
    for (const slug of ['web', 'api', 'docs', 'secret', 'public', 'releases', 'archived'])
      expect(slugs).toContain(slug);
    expect(slugs).not.toContain('elsewhere');
  });

  it("shows a member their teams' pipelines and the team-less ones, never another team's", async () => {
    const teamless = (await world.pipelineRows())
      .filter((row) => row.organization === 'acme' && (row.teams as string[]).length === 0)
      .map((row) => row.slug);
    expect(teamless).toContain('public');
    const member = await slugsOf(world.tokens.member);
    expect([...member].sort()).toEqual(['web', 'api', 'docs', 'releases', 'archived', ...teamless].sort());
    const bystander = await slugsOf(world.tokens.bystander);
    expect([...bystander].sort()).toEqual([...teamless].sort());
  });

  it('counts and pages only what the member sees', async () => {
    const all = await slugsOf(world.tokens.bystander);
    const response = await world.call('GET', `${pipelines('acme')}?per_page=1`, {
      token: world.tokens.bystander,
    });
    const last = /<[^>]*[?&]page=(\d+)&per_page=1>; rel="last"/.exec(response.headers.get('link') ?? '')?.[1];
    expect(Number(last ?? 1)).toBe(all.length);
  });

  it.each([
    ['member', 'secret'],
    ['bystander', 'web'],
    ['bystander', 'docs'],
  ] as const)('answers %s a 404 for %s, as for a pipeline that does not exist', async (user, slug) => {
    const response = await world.call('GET', pipeline('acme', slug), { token: world.tokens[user] });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No pipeline found' });
  });
});

describe('rule B2: the webhook URL only for users who may edit', () => {
  const webhookOf = async (token: string, slug: string) => {
    const got = (await world.call('GET', pipeline('acme', slug), { token })).body;
    const listed = (
      (await world.call('GET', `${pipelines('acme')}?per_page=100`, { token })).body as Json[]
    ).find((p) => p.slug === slug);
    // The list and the get agree.
    expect((listed?.provider as Json | undefined)?.webhook_url).toBe(got.provider.webhook_url);
    return got.provider.webhook_url as string;
  };

  it.each<[string, 'admin' | 'member' | 'bystander', string, boolean]>([
    ['an admin', 'admin', 'api', true],
    ['an admin, on a team-less pipeline', 'admin', 'public', true],
    ['a manage_build_and_read member', 'member', 'web', true],
    ['a build_and_read member', 'member', 'api', false],
    ['a read_only member', 'member', 'docs', false],
    ['a member on a team-less pipeline', 'bystander', 'public', false],
  ])('%s: %s on %s', async (_case, user, slug, shown) => {
    const url = await webhookOf(world.tokens[user], slug);
    if (shown) expect(url).toMatch(/^https:\/\/api\.ci\.test\/webhooks\/deliver\/[0-9a-f]{50}$/);
    else expect(url).toBe('');
  });
});

describe('what members may change', () => {
  it.each([
    ['build_and_read', 'api'],
    ['read_only', 'docs'],
    ['team-less (build_and_read)', 'public'],
  ])('answers 403 Forbidden to a %s member on update, archive, unarchive and delete', async (_case, slug) => {
    for (const [method, path, body] of [
      ['PATCH', pipeline('acme', slug), { description: 'no' }],
      ['POST', `${pipeline('acme', slug)}/archive`, undefined],
      ['POST', `${pipeline('acme', slug)}/unarchive`, undefined],
      ['DELETE', pipeline('acme', slug), undefined],
    ] as const) {
      const before = await world.pipelineRows();
      const response = await world.call(method, path, {
        token: world.tokens.member,
        ...(body ? { body } : {}),
      });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body).toEqual({ message: 'Forbidden' });
      expect(await world.pipelineRows()).toEqual(before);
    }
  });

  it('lets a manage_build_and_read member update, archive, unarchive and delete', async () => {
    const made = await world.createPipeline({
      name: 'Managed',
      teams: { [world.teams.platform!]: 'manage_build_and_read' },
    });
    const token = world.tokens.member;
    const path = pipeline('acme', 'managed');
    expect((await world.call('PATCH', path, { token, body: { description: 'mine' } })).status).toBe(200);
    expect((await world.call('POST', `${path}/archive`, { token })).status).toBe(200);
    expect((await world.call('POST', `${path}/unarchive`, { token })).status).toBe(200);
    const deleted = await world.call('DELETE', path, { token });
    expect(deleted.status).toBe(204);
    expect((await world.pipelineRows()).some((row) => row.id === made.id)).toBe(false);
  });
});

describe('who may create', () => {
  const body = (n: string, extra: Json = {}) => ({
    name: `member made ${n}`,
    repository: 'git@github.com:acme/member.git',
    configuration: 'steps: [x]',
    ...extra,
  });

  it('lets a member create a pipeline given to their own team; the team sees it, others do not', async () => {
    const response = await world.call('POST', pipelines('acme'), {
      token: world.tokens.member,
      body: body('1', { teams: { [world.teams.platform!]: 'build_and_read' } }),
    });
    expect(response.status, response.text).toBe(201);
    // build_and_read may not edit: no webhook URL, even for its creator.
    expect(response.body.provider.webhook_url).toBe('');
    expect(response.body.created_by.id).toBe(world.users.member.id);
    const bystander = await world.call('GET', pipeline('acme', 'member-made-1'), {
      token: world.tokens.bystander,
    });
    expect(bystander.status).toBe(404);
  });

  it.each<[string, () => Json]>([
    ['without teams', () => ({})],
    ['with a team they are not in', () => ({ teams: { [world.teams.hidden!]: 'read_only' } })],
    [
      'with their team and one they are not in',
      () => ({ team_uuids: [world.teams.platform!, world.teams.hidden!] }),
    ],
  ])('refuses a member %s with 403 Forbidden, writing nothing', async (_case, teams) => {
    const before = await world.pipelineRows();
    const response = await world.call('POST', pipelines('acme'), {
      token: world.tokens.member,
      body: body('2', teams()),
    });
    expect(response.status, response.text).toBe(403);
    expect(response.body).toEqual({ message: 'Forbidden' });
    expect(await world.pipelineRows()).toEqual(before);
  });

  it("follows the team's members_can_create_pipelines for members, never for maintainers", async () => {
    const team = world.teams.platform!;
    const setting = (value: boolean) =>
      world.server.database.sql.query('update teams set members_can_create_pipelines = $2 where id = $1', [
        team,
        value,
      ]);
    const create = (n: string) =>
      world.call('POST', pipelines('acme'), {
        token: world.tokens.member,
        body: body(n, { teams: { [team]: 'read_only' } }),
      });
    try {
      await setting(false);
      const refused = await create('3');
      expect(refused.status, refused.text).toBe(403);
      await world.server.database.sql.query(
        "update team_members set role = 'maintainer' where team_id = $1 and user_id = $2",
        [team, world.users.member.id],
      );
      expect((await create('3')).status).toBe(201);
    } finally {
      await setting(true);
      await world.server.database.sql.query(
        "update team_members set role = 'member' where team_id = $1 and user_id = $2",
        [team, world.users.member.id],
      );
    }
  });

  it('answers 422 on teams for a team that does not exist, writing nothing', async () => {
    const team = '0190f3a0-cccc-7abc-8def-0123456789ab';
    const before = await world.pipelineRows();
    const response = await world.call('POST', pipelines('acme'), {
      body: body('3', { teams: { [team]: 'read_only' } }),
    });
    expect(response.status, response.text).toBe(422);
    expect(response.body).toEqual({
      message: 'Validation Failed',
      errors: [
        {
          field: 'teams',
          code: 'invalid',
          message: `teams names ${team}, which is not a team of this organization`,
        },
      ],
    });
    expect(await world.pipelineRows()).toEqual(before);
  });

  it("answers the same 422 for another organization's team, writing nothing", async () => {
    const admin = world.server.useCases.admin;
    const otherTeam = await admin.createTeam({ organization: 'other', name: 'Elsewhere Team' });
    const before = await world.pipelineRows();
    const response = await world.call('POST', pipelines('acme'), {
      body: body('4', { team_uuids: [otherTeam.id] }),
    });
    expect(response.status, response.text).toBe(422);
    expect(await world.pipelineRows()).toEqual(before);
    expect(response.body.errors).toEqual([
      {
        field: 'team_uuids',
        code: 'invalid',
        message: `team_uuids names ${otherTeam.id}, which is not a team of this organization`,
      },
    ]);
  });
});

describe('scope headers', () => {
  it('lists the scopes of the token in X-OAuth-Scopes', async () => {
    const scopes: Scope[] = ['read_pipelines', 'write_pipelines'];
    const response = await world.call('GET', pipelines('acme'), {
      token: await world.token('member', { scopes }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-oauth-scopes')).toBe('read_pipelines, write_pipelines');
  });
});
