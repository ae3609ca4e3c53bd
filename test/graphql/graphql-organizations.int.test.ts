import { encodeGraphqlId } from '@ci/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_UUID } from '../support/answers';
import { type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';
import { expectNothingLeaks } from '../support/refusal';
import { teamIds } from '../support/world';

/**
 * The root fields and connections over the identity, organization, pipeline and team use cases
 * (`viewer`, `organization`, `pipeline`, `team`; `Organization.pipelines/teams/members`,
 * `Pipeline.teams`, `Team.members`, `User.builds`, `Viewer.*`), through the real HTTP server on
 * PostgreSQL, each compared with what REST answers the same token.
 *
 * Besides the shared world: a secret team `covert` (made over REST) whose only member is `bystander`
 * and which has `web`; `member` and `admin` have each created builds.
 */

let world: GraphqlWorld;
let teams: Record<string, string>;
let covert: string;
// biome-ignore lint/suspicious/noExplicitAny: REST bodies as the untyped JSON a client reads
let memberBuild: any;

beforeAll(async () => {
  world = await startGraphqlWorld();
  const created = await world.call('POST', '/v2/organizations/acme/teams', {
    body: { name: 'Covert', privacy: 'secret', description: 'Nobody knows' },
  });
  expect(created.status, created.text).toBe(201);
  covert = created.body.id;
  const joined = await world.call('POST', `/v2/organizations/acme/teams/${covert}/members`, {
    body: { user_id: world.users.bystander.id, role: 'member' },
  });
  expect(joined.status, joined.text).toBe(201);
  const added = await world.call('POST', `/v2/organizations/acme/teams/${covert}/pipelines`, {
    body: { pipeline_id: world.pipelines.web?.id, access_level: 'read_only' },
  });
  expect(added.status, added.text).toBe(201);
  teams = { ...(await teamIds(world)), covert };
  await world.createBuild('web');
  await world.createBuild('secret');
  await world.createBuild('api', { branch: 'feature/x' });
  memberBuild = await world.createBuild('web', { message: 'by member' }, { token: world.tokens.member });
});
afterAll(async () => world?.close());

type Reply = Awaited<ReturnType<GraphqlWorld['gql']>>;

const data = (response: Reply) => {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data;
};

const messages = (response: Reply): string[] =>
  (response.body.errors ?? []).map((error: { message: string }) => error.message);

/** A connection's nodes, in order, as the untyped JSON a client reads. */
// biome-ignore lint/suspicious/noExplicitAny: response bodies as the untyped JSON a client reads
const nodes = (connection: { edges: Array<{ node: any }> }): any[] =>
  connection.edges.map((edge) => edge.node);

const as = (token: string) => ({ token });

describe('viewer', () => {
  it("answers the token's user as GET /v2/user does, under a Viewer id of its own", async () => {
    const rest = (await world.call('GET', '/v2/user', as(world.tokens.member))).body;
    const { viewer } = data(
      await world.gql(
        '{ viewer { id user { id uuid name email avatar { url } } } }',
        {},
        as(world.tokens.member),
      ),
    );
    expect(viewer).toEqual({
      id: encodeGraphqlId('Viewer', rest.id),
      user: {
        id: rest.graphql_id,
        uuid: rest.id,
        name: rest.name,
        email: rest.email,
        avatar: { url: rest.avatar_url },
      },
    });
    const node = '{ node(id: $id) { __typename id } }'.replace('{ node', 'query($id: ID!) { node');
    expect(data(await world.gql(node, { id: viewer.id }, as(world.tokens.member))).node).toEqual({
      __typename: 'Viewer',
      id: viewer.id,
    });
    // Another user's session is nobody's business.
    expect(data(await world.gql(node, { id: viewer.id }, as(world.tokens.admin))).node).toBeNull();
  });

  it('lists the organizations the token may use, as GET /v2/organizations does', async () => {
    const admin = await world.token('admin');
    await world.server.useCases.admin.createOrganization({ name: 'Beta', slug: 'beta' });
    await world.server.useCases.admin.addMember({
      organization: 'beta',
      email: world.users.admin.email,
      role: 'member',
    });
    const rest = (await world.call('GET', '/v2/organizations', as(admin))).body;
    const query = `query($first: Int, $last: Int) { viewer { organizations(first: $first, last: $last) {
      count edges { node { id uuid slug name } } pageInfo { hasNextPage hasPreviousPage } } } }`;
    const all = data(await world.gql(query, { first: 10 }, as(admin))).viewer.organizations;
    expect(all.count).toBe(2);
    expect(nodes(all)).toEqual(
      rest.map((o: Record<string, string>) => ({ id: o.graphql_id, uuid: o.id, slug: o.slug, name: o.name })),
    );
    const last = data(await world.gql(query, { last: 1 }, as(admin))).viewer.organizations;
    expect(nodes(last).map((o: { slug: string }) => o.slug)).toEqual(['beta']);
    expect(last.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
    const limited = await world.token('admin', { organizations: ['beta'] });
    const narrowed = data(await world.gql(query, { first: 10 }, as(limited))).viewer.organizations;
    expect(nodes(narrowed).map((o: { slug: string }) => o.slug)).toEqual(['beta']);
  });

  it('lists the builds the viewer created, newest first, with filters', async () => {
    const query = `query($state: [BuildStates!], $branch: String) { viewer {
      builds(first: 10, state: $state, branch: $branch) { count edges { node { uuid pipeline { slug } } } } } }`;
    const mine = data(await world.gql(query, {}, as(world.tokens.member))).viewer.builds;
    expect(mine.count).toBe(1);
    expect(nodes(mine)).toEqual([{ uuid: memberBuild.id, pipeline: { slug: 'web' } }]);
    const admins = data(await world.gql(query, {}, as(world.tokens.admin))).viewer.builds;
    expect(nodes(admins).map((b: { pipeline: { slug: string } }) => b.pipeline.slug)).toEqual([
      'api',
      'secret',
      'web',
    ]);
    const featured = data(await world.gql(query, { branch: 'feature/x' }, as(world.tokens.admin))).viewer
      .builds;
    expect(featured.count).toBe(1);
    const none = data(await world.gql(query, { state: ['PASSED'] }, as(world.tokens.admin))).viewer.builds;
    expect(none.count).toBe(0);
  });

  it('needs read_user for the user, as GET /v2/user does, and read_builds for the builds', async () => {
    const token = await world.token('member', { scopes: ['graphql'] });
    const response = await world.gql('{ viewer { id user { name } builds { count } } }', {}, as(token));
    expect(response.body.data.viewer).toEqual({
      id: encodeGraphqlId('Viewer', world.users.member.id),
      user: null,
      builds: null,
    });
    expect(messages(response).sort()).toEqual([
      "Your access token doesn't have the read_builds scope",
      "Your access token doesn't have the read_user scope",
    ]);
  });
});

describe('organization', () => {
  it('finds an organization by slug and by uuid, as GET /v2/organizations/{org} shows it', async () => {
    const rest = (await world.call('GET', '/v2/organizations/acme')).body;
    const fields = 'id uuid slug name';
    const bySlug = data(await world.gql(`{ organization(slug: "acme") { ${fields} } }`)).organization;
    const byUuid = data(await world.gql(`{ organization(uuid: "${rest.id}") { ${fields} } }`)).organization;
    expect(bySlug).toEqual({ id: rest.graphql_id, uuid: rest.id, slug: 'acme', name: rest.name });
    expect(byUuid).toEqual(bySlug);
  });

  it('answers null and the REST refusal for an organization the token may not use', async () => {
    const other = (await world.call('GET', '/v2/organizations/other', as(world.tokens.otherAdmin))).body;
    const limited = await world.token('admin', { organizations: ['other'] });
    const noScope = await world.token('admin', { scopes: ['graphql', 'read_pipelines'] });
    const cases: Array<[string, string, string]> = [
      ['{ organization(slug: "other") { id } }', world.tokens.admin, 'No organization found'],
      [`{ organization(uuid: "${other.id}") { id } }`, world.tokens.admin, 'No organization found'],
      [`{ organization(uuid: "${UNKNOWN_UUID}") { id } }`, world.tokens.admin, 'No organization found'],
      ['{ organization(uuid: "nope") { id } }', world.tokens.admin, 'No organization found'],
      ['{ organization(slug: "acme") { id } }', limited, 'No organization found'],
      [
        '{ organization(slug: "acme") { id } }',
        noScope,
        "Your access token doesn't have the read_organizations scope",
      ],
      ['{ organization { id } }', world.tokens.admin, 'Find an organization by either its slug or its uuid'],
      [
        `{ organization(slug: "acme", uuid: "${other.id}") { id } }`,
        world.tokens.admin,
        'Find an organization by either its slug or its uuid',
      ],
    ];
    for (const [query, token, message] of cases) {
      const response = await world.gql(query, {}, as(token));
      expect(response.body.data, query).toEqual({ organization: null });
      expect(messages(response), query).toEqual([message]);
    }
  });

  it('lists its members as GET /v2/organizations/{org}/members does, each a node of its own', async () => {
    const rest = (await world.call('GET', '/v2/organizations/acme/members', as(world.tokens.member))).body;
    const { members } = data(
      await world.gql(
        `{ organization(slug: "acme") { members(first: 10) { count edges { node {
          id uuid role createdAt user { uuid name email } organization { slug } } } } } }`,
        {},
        as(world.tokens.member),
      ),
    ).organization;
    expect(members.count).toBe(rest.length);
    expect(nodes(members).map((m: { user: unknown }) => m.user)).toEqual(
      rest.map((m: Record<string, string>) => ({ uuid: m.id, name: m.name, email: m.email })),
    );
    expect(nodes(members).map((m: { role: string }) => m.role)).toEqual(['ADMIN', 'MEMBER', 'MEMBER']);
    const first = nodes(members)[0] as { id: string; uuid: string };
    expect(first.id).toBe(encodeGraphqlId('OrganizationMember', first.uuid));
    const node = await world.gql(
      'query($id: ID!) { node(id: $id) { __typename ... on OrganizationMember { user { name } } } }',
      { id: first.id },
      as(world.tokens.member),
    );
    expect(data(node).node).toEqual({ __typename: 'OrganizationMember', user: { name: 'Ada Admin' } });
    const outsider = await world.gql(
      'query($id: ID!) { node(id: $id) { id } }',
      { id: first.id },
      as(world.tokens.otherAdmin),
    );
    expect(outsider.body).toEqual({ data: { node: null } });
  });

  it('pages the pipelines the user may see, as GET /v2/organizations/{org}/pipelines lists them', async () => {
    const rest = (await world.call('GET', '/v2/organizations/acme/pipelines', as(world.tokens.member))).body;
    const restSlugs = rest.map((p: { slug: string }) => p.slug);
    expect(restSlugs).not.toContain('secret');
    const page = async (args: string) =>
      data(
        await world.gql(
          `{ organization(slug: "acme") { pipelines(${args}) {
            count pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { node { slug } } } } }`,
          {},
          as(world.tokens.member),
        ),
      ).organization.pipelines;
    const first = await page('first: 4');
    expect(first.count).toBe(restSlugs.length);
    expect(nodes(first).map((p: { slug: string }) => p.slug)).toEqual(restSlugs.slice(0, 4));
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const rest2 = await page(`first: 4, after: "${first.pageInfo.endCursor}"`);
    expect(nodes(rest2).map((p: { slug: string }) => p.slug)).toEqual(restSlugs.slice(4));
    const last = await page('last: 2');
    expect(nodes(last).map((p: { slug: string }) => p.slug)).toEqual(restSlugs.slice(-2));
    const searched = await page('first: 10, search: "REL"');
    expect(nodes(searched)).toEqual([{ slug: 'releases' }]);
    const byRepository = await page('first: 10, repository: { url: "acme/api.git" }');
    expect(nodes(byRepository)).toEqual([{ slug: 'api' }]);
    const archived = await page('first: 10, archived: true');
    expect(nodes(archived)).toEqual([{ slug: 'archived' }]);
    const active = await page('first: 10, archived: false');
    expect(active.count).toBe(restSlugs.length - 1);
    expect(nodes(active).map((p: { slug: string }) => p.slug)).toEqual(
      restSlugs.filter((slug: string) => slug !== 'archived'),
    );
  });

  it('lists the teams the user may see, a secret team only for its members and admins, as REST', async () => {
    const query =
      '{ organization(slug: "acme") { teams(first: 10) { count edges { node { slug privacy } } } } }';
    for (const [who, expected] of [
      ['admin', ['platform', 'hidden', 'covert']],
      ['member', ['platform', 'hidden']],
      ['bystander', ['platform', 'hidden', 'covert']],
    ] as const) {
      const token = world.tokens[who];
      const rest = (await world.call('GET', '/v2/organizations/acme/teams', as(token))).body;
      const graphql = data(await world.gql(query, {}, as(token))).organization.teams;
      expect(rest.map((team: { slug: string }) => team.slug)).toEqual(expected);
      expect(
        nodes(graphql).map((team: { slug: string }) => team.slug),
        who,
      ).toEqual(expected);
      expect(graphql.count).toBe(expected.length);
    }
  });

  it("answers a list the token's scopes do not cover with the scope error, the rest of the organization still shown", async () => {
    const token = await world.token('admin', { scopes: ['graphql', 'read_organizations'] });
    const response = await world.gql(
      '{ organization(slug: "acme") { slug pipelines { count } teams { count } } }',
      {},
      as(token),
    );
    expect(response.body.data).toEqual({ organization: { slug: 'acme', pipelines: null, teams: null } });
    expect(messages(response).sort()).toEqual([
      "Your access token doesn't have the read_pipelines scope",
      "Your access token doesn't have the view_teams scope",
    ]);
  });
});

describe('pipeline', () => {
  it('finds a pipeline by slug and by uuid, as GET /v2/organizations/{org}/pipelines/{slug} shows it', async () => {
    const rest = (await world.call('GET', '/v2/organizations/acme/pipelines/web')).body;
    const fields = `id uuid name slug url description repository { url } defaultBranch webhookURL badgeURL
      createdAt archived createdBy { uuid } organization { slug }`;
    const bySlug = data(await world.gql(`{ pipeline(slug: "acme/web") { ${fields} } }`)).pipeline;
    const byUuid = data(await world.gql(`{ pipeline(uuid: "${rest.id}") { ${fields} } }`)).pipeline;
    expect(byUuid).toEqual(bySlug);
    expect(bySlug).toEqual({
      id: rest.graphql_id,
      uuid: rest.id,
      name: rest.name,
      slug: rest.slug,
      url: rest.web_url,
      // REST shows no description as '' (as recorded); GraphQL's nullable field shows null.
      description: rest.description || null,
      repository: { url: rest.repository },
      defaultBranch: rest.default_branch,
      webhookURL: rest.provider.webhook_url,
      badgeURL: rest.badge_url,
      createdAt: rest.created_at,
      archived: false,
      createdBy: rest.created_by ? { uuid: rest.created_by.id } : null,
      organization: { slug: 'acme' },
    });
  });

  it("shows the visibility REST stores, in the reference's enum", async () => {
    const patch = (visibility: string) =>
      world.call('PATCH', '/v2/organizations/acme/pipelines/public', { body: { visibility } });
    try {
      expect((await patch('public')).body.visibility).toBe('public');
      const shown = data(await world.gql('{ pipeline(slug: "acme/public") { visibility } }')).pipeline;
      expect(shown).toEqual({ visibility: 'PUBLIC' });
    } finally {
      expect((await patch('private')).body.visibility).toBe('private');
    }
    const shown = data(await world.gql('{ pipeline(slug: "acme/public") { visibility } }')).pipeline;
    expect(shown).toEqual({ visibility: 'PRIVATE' });
  });

  it('answers null and the REST refusals', async () => {
    const secret = world.pipelines.secret?.id;
    const elsewhere = world.pipelines.elsewhere?.id;
    const noScope = await world.token('member', { scopes: ['graphql', 'read_builds'] });
    const cases: Array<[string, string, string]> = [
      ['{ pipeline(slug: "acme/secret") { id } }', world.tokens.member, 'No pipeline found'],
      [`{ pipeline(uuid: "${secret}") { id } }`, world.tokens.member, 'No pipeline found'],
      ['{ pipeline(slug: "other/elsewhere") { id } }', world.tokens.member, 'No organization found'],
      [`{ pipeline(uuid: "${elsewhere}") { id } }`, world.tokens.member, 'No pipeline found'],
      ['{ pipeline(slug: "acme/nope") { id } }', world.tokens.member, 'No pipeline found'],
      ['{ pipeline(slug: "web") { id } }', world.tokens.member, 'No pipeline found'],
      ['{ pipeline(slug: "acme/web/1") { id } }', world.tokens.member, 'No pipeline found'],
      [`{ pipeline(uuid: "${UNKNOWN_UUID}") { id } }`, world.tokens.member, 'No pipeline found'],
      [
        '{ pipeline(slug: "acme/web") { id } }',
        noScope,
        "Your access token doesn't have the read_pipelines scope",
      ],
      ['{ pipeline { id } }', world.tokens.member, 'Find a pipeline by either its slug or its uuid'],
    ];
    for (const [query, token, message] of cases) {
      const response = await world.gql(query, {}, as(token));
      expect(response.body.data, query).toEqual({ pipeline: null });
      expect(messages(response), query).toEqual([message]);
    }
  });

  it('lists its teams newest association first (the default order, as in the reference), a secret team only for its members and admins', async () => {
    const query = `{ pipeline(slug: "acme/web") { teams(first: 10) { count edges { node {
      id accessLevel team { slug } pipeline { slug } } } } } }`;
    for (const [who, expected] of [
      [
        'admin',
        [
          ['covert', 'READ_ONLY'],
          ['platform', 'MANAGE_BUILD_AND_READ'],
        ],
      ],
      ['member', [['platform', 'MANAGE_BUILD_AND_READ']]],
      [
        'bystander',
        [
          ['covert', 'READ_ONLY'],
          ['platform', 'MANAGE_BUILD_AND_READ'],
        ],
      ],
    ] as const) {
      const { teams: list } = data(await world.gql(query, {}, as(world.tokens[who]))).pipeline;
      expect(
        nodes(list).map((node: { team: { slug: string }; accessLevel: string }) => [
          node.team.slug,
          node.accessLevel,
        ]),
        who,
      ).toEqual(expected);
      expect(list.count).toBe(expected.length);
      for (const node of nodes(list) as Array<{ id: string; pipeline: { slug: string } }>) {
        expect(node.pipeline.slug).toBe('web');
        const read = await world.gql(
          'query($id: ID!) { node(id: $id) { id } }',
          { id: node.id },
          as(world.tokens[who]),
        );
        expect(data(read).node).toEqual({ id: node.id });
      }
    }
    const last = data(
      await world.gql(
        '{ pipeline(slug: "acme/web") { teams(last: 1) { edges { node { team { slug } } } } } }',
      ),
    ).pipeline.teams;
    expect(nodes(last)).toEqual([{ team: { slug: 'platform' } }]);
  });

  it('pages its builds through the root field', async () => {
    const { builds } = data(
      await world.gql(
        '{ pipeline(slug: "acme/web") { builds(first: 1) { count edges { node { message } } } } }',
      ),
    ).pipeline;
    expect(builds).toEqual({ count: 2, edges: [{ node: { message: 'by member' } }] });
  });
});

describe('team', () => {
  it('finds a team by its slug, as GET /v2/organizations/{org}/teams/{uuid} shows it', async () => {
    const rest = (await world.call('GET', `/v2/organizations/acme/teams/${covert}`)).body;
    const { team } = data(
      await world.gql(`{ team(slug: "acme/covert") { id uuid name slug description privacy isDefaultTeam
        defaultMemberRole membersCanCreatePipelines createdAt createdBy { uuid name } organization { slug } } }`),
    );
    expect(team).toEqual({
      id: rest.graphql_id,
      uuid: rest.id,
      name: rest.name,
      slug: rest.slug,
      description: rest.description,
      privacy: 'SECRET',
      isDefaultTeam: rest.default,
      defaultMemberRole: 'MEMBER',
      membersCanCreatePipelines: true,
      createdAt: rest.created_at,
      createdBy: { uuid: rest.created_by.id, name: rest.created_by.name },
      organization: { slug: 'acme' },
    });
  });

  it('hides a secret team from members who are not in it, as REST does', async () => {
    const query = '{ team(slug: "acme/covert") { slug } }';
    for (const who of ['admin', 'bystander'] as const) {
      expect(data(await world.gql(query, {}, as(world.tokens[who]))).team).toEqual({ slug: 'covert' });
    }
    const rest = await world.call('GET', `/v2/organizations/acme/teams/${covert}`, as(world.tokens.member));
    expect(rest.body).toEqual({ message: 'No team found' });
    const graphql = await world.gql(query, {}, as(world.tokens.member));
    expect(graphql.body.data).toEqual({ team: null });
    expect(messages(graphql)).toEqual(['No team found']);
    const node = await world.gql(
      'query($id: ID!) { node(id: $id) { id } }',
      { id: encodeGraphqlId('Team', covert) },
      as(world.tokens.member),
    );
    expect(node.body).toEqual({ data: { node: null } });
  });

  it('answers the REST refusals for other slugs', async () => {
    const noScope = await world.token('admin', { scopes: ['graphql', 'read_organizations'] });
    const cases: Array<[string, string, string]> = [
      ['acme/nope', world.tokens.admin, 'No team found'],
      ['platform', world.tokens.admin, 'No team found'],
      ['acme/platform/x', world.tokens.admin, 'No team found'],
      ['other/platform', world.tokens.admin, 'No organization found'],
      ['acme/platform', world.tokens.otherAdmin, 'No organization found'],
      ['acme/platform', noScope, "Your access token doesn't have the view_teams scope"],
    ];
    for (const [slug, token, message] of cases) {
      const response = await world.gql('query($slug: ID!) { team(slug: $slug) { id } }', { slug }, as(token));
      expect(response.body.data, slug).toEqual({ team: null });
      expect(messages(response), slug).toEqual([message]);
    }
  });

  it('lists its members as GET …/teams/{uuid}/members does, each a node of its own', async () => {
    const rest = (await world.call('GET', `/v2/organizations/acme/teams/${teams.platform}/members`)).body;
    const { members } = data(
      await world.gql(`{ team(slug: "acme/platform") { members(first: 10) { count edges { node {
        id uuid role createdAt team { slug } user { uuid name } } } } } }`),
    ).team;
    expect(members.count).toBe(rest.length);
    expect(
      nodes(members).map((m: { user: { uuid: string; name: string }; role: string; createdAt: string }) => ({
        user_id: m.user.uuid,
        user_name: m.user.name,
        role: m.role.toLowerCase(),
        created_at: m.createdAt,
      })),
    ).toEqual(
      rest.map((m: Record<string, string>) => ({
        user_id: m.user_id,
        user_name: m.user_name,
        role: m.role,
        created_at: m.created_at,
      })),
    );
    const first = nodes(members)[0] as { id: string; uuid: string };
    expect(first.id).toBe(encodeGraphqlId('TeamMember', first.uuid));
    const node = await world.gql(
      'query($id: ID!) { node(id: $id) { __typename ... on TeamMember { team { slug } user { name } } } }',
      { id: first.id },
    );
    expect(data(node).node).toEqual({
      __typename: 'TeamMember',
      team: { slug: 'platform' },
      user: { name: 'Max Member' },
    });
  });

  it("shows a secret team's memberships to no one who may not see the team", async () => {
    const { members } = data(
      await world.gql('{ team(slug: "acme/covert") { members { edges { node { id user { name } } } } } }'),
    ).team;
    expect(nodes(members).map((m: { user: { name: string } }) => m.user.name)).toEqual(['Bea Bystander']);
    const id = (nodes(members)[0] as { id: string }).id;
    const hidden = await world.gql(
      'query($id: ID!) { node(id: $id) { id } }',
      { id },
      as(world.tokens.member),
    );
    expect(hidden.body).toEqual({ data: { node: null } });
  });

  it('lists its pipelines, a member seeing only those they may see', async () => {
    const query =
      '{ team(slug: "acme/covert") { pipelines { count edges { node { pipeline { slug } } } } } }';
    expect(data(await world.gql(query, {}, as(world.tokens.bystander))).team.pipelines).toEqual({
      count: 1,
      edges: [{ node: { pipeline: { slug: 'web' } } }],
    });
  });
});

describe('User.builds', () => {
  it('lists the builds a user created that the viewer may see', async () => {
    const query = `query($id: ID!) { node(id: $id) { ... on User { name builds(first: 10) {
      count edges { node { pipeline { slug } } } } } } }`;
    const adminId = encodeGraphqlId('User', world.users.admin.id);
    const forAdmin = data(await world.gql(query, { id: adminId })).node.builds;
    expect(nodes(forAdmin).map((b: { pipeline: { slug: string } }) => b.pipeline.slug)).toEqual([
      'api',
      'secret',
      'web',
    ]);
    // The member cannot see `secret`: its build is not theirs to see either.
    const forMember = data(await world.gql(query, { id: adminId }, as(world.tokens.member))).node.builds;
    expect(forMember.count).toBe(2);
    expect(nodes(forMember).map((b: { pipeline: { slug: string } }) => b.pipeline.slug)).toEqual([
      'api',
      'web',
    ]);
  });

  it("hides users outside the viewer's organizations", async () => {
    const response = await world.gql(
      'query($id: ID!) { node(id: $id) { id } }',
      { id: encodeGraphqlId('User', world.users.otherAdmin.id) },
      as(world.tokens.member),
    );
    expect(response.body).toEqual({ data: { node: null } });
  });
});

describe('bad input', () => {
  it('answers every odd argument with a GraphQL error of its own, never a 500 or an inside detail', async () => {
    const cases: Array<[string, Record<string, unknown>, string | RegExp]> = [
      ['query($slug: ID!) { team(slug: $slug) { id } }', { slug: '' }, 'No team found'],
      ['query($slug: ID!) { team(slug: $slug) { id } }', { slug: 'acme/\u0000' }, 'No team found'],
      [
        'query($slug: ID!) { team(slug: $slug) { id } }',
        { slug: 'ac\u0000me/platform' },
        'No organization found',
      ],
      ['query($slug: ID) { pipeline(slug: $slug) { id } }', { slug: 'acme/w\u0000eb' }, 'No pipeline found'],
      [
        'query($slug: ID) { organization(slug: $slug) { id } }',
        { slug: 'ac\u0000me' },
        'No organization found',
      ],
      ['query($slug: ID) { build(slug: $slug) { id } }', { slug: 'acme/w\ud800eb/1' }, 'No pipeline found'],
      ['query($slug: ID) { registry(slug: $slug) { id } }', { slug: 'acme/g\u0000ems' }, 'No registry found'],
      [
        'query($slug: ID) { pipeline(slug: $slug) { id } }',
        { slug: `acme/${'x'.repeat(5000)}` },
        'No pipeline found',
      ],
      ['query($slug: ID) { organization(slug: $slug) { id } }', { slug: '%00' }, 'No organization found'],
      [
        'query($uuid: ID) { organization(uuid: $uuid) { id } }',
        { uuid: "'; drop table users; --" },
        'No organization found',
      ],
      [
        'query($search: String) { organization(slug: "acme") { pipelines(search: $search) { count } } }',
        { search: 'a\u0000b' },
        "name can't contain NUL characters or unpaired surrogates",
      ],
      [
        '{ organization(slug: "acme") { pipelines(first: 2) { edges { node { teams(first: 501) { count } } } } } }',
        {},
        'Argument "first" must be between 0 and 500',
      ],
      [
        '{ organization(slug: "acme") { teams(first: 2) { edges { node { members(after: "bm9wZQ==") { count } } } } } }',
        {},
        'Argument "after" is not a cursor of this connection',
      ],
      ['{ viewer { builds(last: -1) { count } } }', {}, 'Argument "last" must be between 0 and 500'],
      [
        '{ viewer { builds(metaData: ["nope"]) { count } } }',
        {},
        'metaData filters are "key=value", got "nope"',
      ],
      [
        '{ organization(slug: "acme") { pipelines(archived: "yes") { count } } }',
        {},
        /Boolean cannot represent/,
      ],
    ];
    for (const [query, variables, message] of cases) {
      const response = await world.gql(query, variables);
      expect(response.status, query).toBeLessThan(500);
      expectNothingLeaks(response.text, [/Internal Server Error|select |node_modules/]);
      const [first] = messages(response);
      if (typeof message === 'string') expect(first, query).toBe(message);
      else expect(first, query).toMatch(message);
    }
  });

  it('pages a nested list from its end for every parent of a page at once', async () => {
    const { pipelines } = data(
      await world.gql(`{ organization(slug: "acme") { pipelines(first: 3) { edges { node { slug
        builds(last: 1) { count pageInfo { hasPreviousPage hasNextPage } edges { node { message } } } } } } } }`),
    ).organization;
    expect(
      nodes(pipelines).map((p: { slug: string; builds: { count: number; edges: unknown[] } }) => [
        p.slug,
        p.builds.count,
        p.builds.edges.length,
      ]),
    ).toEqual([
      ['web', 2, 1],
      ['api', 1, 1],
      ['docs', 0, 0],
    ]);
    // The oldest of web's two builds: the admin's, not the member's.
    expect(nodes(pipelines)[0].builds.edges[0].node.message).toBe('a build');
    expect(nodes(pipelines)[0].builds.pageInfo).toEqual({ hasPreviousPage: true, hasNextPage: false });
  });
});
