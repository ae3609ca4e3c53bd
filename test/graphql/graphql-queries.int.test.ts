import { encodeGraphqlId } from '@ci/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_UUID } from '../support/answers';
import { type GraphqlWorld, startGraphqlWorld, WEB_URL } from '../support/graphql-world';

/**
 * The root fields (`build`, `job`, `registry`, `node`) and the connections over existing use cases
 * (`Pipeline.builds`, `Team.pipelines`, `Organization.registries`), through the real HTTP server on
 * PostgreSQL. Every id is the REST `graphql_id`.
 */

let world: GraphqlWorld;
/** REST get-build bodies of builds of `web`: the first, then a second one, then a rebuild of the first. */
// biome-ignore lint/suspicious/noExplicitAny: REST bodies as the untyped JSON a client reads
const builds: any[] = [];
let registry: Record<string, unknown>;

beforeAll(async () => {
  world = await startGraphqlWorld();
  await world.createBuild('web', { meta_data: { release: 'v1' }, env: { CI: 'true' } });
  await world.createBuild('web', { branch: 'feature/x', commit: 'b'.repeat(40) });
  await world.call('PUT', '/v2/organizations/acme/pipelines/web/builds/1/rebuild');
  for (const number of [1, 2, 3]) {
    // The get response, whose jobs carry their graphql_id (the create response's do not).
    builds.push((await world.call('GET', `/v2/organizations/acme/pipelines/web/builds/${number}`)).body);
  }
  const created = await world.call('POST', '/v2/packages/organizations/acme/registries', {
    body: { name: 'Gems', ecosystem: 'ruby', description: 'our gems' },
  });
  registry = created.body;
});
afterAll(async () => world?.close());

const data = (response: Awaited<ReturnType<GraphqlWorld['gql']>>) => {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data;
};

const BUILD_FIELDS = `id uuid number state blocked blockedState branch commit message url
  createdAt scheduledAt startedAt finishedAt canceledAt cancelReason env
  source { __typename name }
  createdBy { __typename ... on User { id uuid name email avatar { url } } }
  pipeline { id uuid slug name url webhookURL badgeURL repository { url } defaultBranch }
  organization { id uuid slug name }
  metaData(first: 10) { count edges { node { key value } } }
  rebuiltFrom { number }`;

describe('build', () => {
  it('finds a build by slug and by uuid, with the fields REST shows', async () => {
    const rest = builds[0];
    const bySlug = data(await world.gql(`{ build(slug: "acme/web/1") { ${BUILD_FIELDS} } }`)).build;
    const byUuid = data(
      await world.gql(`query($uuid: ID!) { build(uuid: $uuid) { ${BUILD_FIELDS} } }`, { uuid: rest.id }),
    ).build;
    expect(byUuid).toEqual(bySlug);
    expect(bySlug).toMatchObject({
      id: rest.graphql_id,
      uuid: rest.id,
      number: 1,
      state: 'SCHEDULED',
      blocked: false,
      blockedState: null,
      branch: 'main',
      commit: 'a'.repeat(40),
      message: 'a build',
      url: rest.web_url,
      createdAt: rest.created_at,
      scheduledAt: rest.scheduled_at,
      startedAt: null,
      env: ['CI=true'],
      source: { __typename: 'BuildSourceAPI', name: 'api' },
      createdBy: {
        __typename: 'User',
        id: rest.creator.graphql_id,
        uuid: rest.creator.id,
        name: 'Ada Admin',
        email: 'admin@acme.test',
        avatar: { url: rest.creator.avatar_url },
      },
      pipeline: {
        id: rest.pipeline.graphql_id,
        uuid: rest.pipeline.id,
        slug: 'web',
        url: `${WEB_URL}/acme/web`,
        webhookURL: rest.pipeline.provider.webhook_url,
        badgeURL: rest.pipeline.badge_url,
        repository: { url: rest.pipeline.repository },
      },
      organization: {
        slug: 'acme',
        name: 'Acme',
        id: encodeGraphqlId('Organization', bySlug.organization.uuid),
      },
      metaData: { count: 1, edges: [{ node: { key: 'release', value: 'v1' } }] },
      rebuiltFrom: null,
    });
  });

  it('links a rebuild to the build it was rebuilt from', async () => {
    const rebuild = data(
      await world.gql(`{ build(slug: "acme/web/3") { number rebuiltFrom { number id } } }`),
    ).build;
    expect(rebuild).toEqual({ number: 3, rebuiltFrom: { number: 1, id: builds[0]?.graphql_id } });
  });

  it('gives the jobs as a connection of the Job union, filtered as asked', async () => {
    const rest = builds[0];
    const { jobs } = data(
      await world.gql(`{ build(slug: "acme/web/1") { jobs(first: 10) { count edges { node {
        __typename
        ... on JobTypeCommand { id uuid label command state passed url step { key } build { number } }
        ... on JobTypeWait { id uuid state }
      } } } } }`),
    ).build;
    expect(jobs.count).toBe(rest.jobs.length);
    expect(jobs.edges.map((edge: { node: { uuid: string } }) => edge.node.uuid)).toEqual(
      rest.jobs.map((job: { id: string }) => job.id),
    );
    expect(jobs.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual(
      rest.jobs.map((job: { graphql_id: string }) => job.graphql_id),
    );
    const first = jobs.edges[0].node;
    expect(first).toMatchObject({
      __typename: 'JobTypeCommand',
      label: rest.jobs[0].name,
      command: 'make build',
      state: 'SCHEDULED',
      passed: false,
      url: rest.jobs[0].web_url,
      step: { key: 'build' },
      build: { number: 1 },
    });
    expect(jobs.edges.map((edge: { node: { __typename: string } }) => edge.node.__typename)).toContain(
      'JobTypeWait',
    );

    const waits = data(
      await world.gql(
        `{ build(slug: "acme/web/1") { jobs(type: [WAIT]) { count } commands: jobs(type: [COMMAND], step: { key: ["test"] }) { count } } }`,
      ),
    ).build;
    expect(waits.jobs.count).toBe(1);
    expect(waits.commands.count).toBe(2);
  });

  it('answers null with the REST refusal for a build the actor may not see', async () => {
    const cases: Array<[string, string]> = [
      ['{ build(slug: "acme/web/999") { number } }', 'No build found'],
      ['{ build(slug: "acme/nope/1") { number } }', 'No pipeline found'],
      ['{ build(slug: "other/elsewhere/1") { number } }', 'No organization found'],
      ['{ build(slug: "acme/web/one") { number } }', 'No build found'],
      ['{ build(slug: "acme/web") { number } }', 'No build found'],
      [`{ build(uuid: "${UNKNOWN_UUID}") { number } }`, 'No build found'],
      ['{ build(uuid: "not-a-uuid") { number } }', 'No build found'],
      ['{ build { number } }', 'Find a build by either its slug or its uuid'],
    ];
    for (const [query, message] of cases) {
      const response = await world.gql(query);
      expect(response.status, query).toBe(200);
      expect(response.body.data, query).toEqual({ build: null });
      expect(
        response.body.errors?.map((error: { message: string }) => error.message),
        query,
      ).toEqual([message]);
    }
  });

  it('hides a build of a pipeline the member cannot see, by uuid as by slug', async () => {
    const secret = await world.createBuild('secret');
    const bySlug = await world.gql(
      '{ build(slug: "acme/secret/1") { number } }',
      {},
      { token: world.tokens.member },
    );
    expect(bySlug.body.errors[0].message).toBe('No pipeline found');
    const byUuid = await world.gql(
      `{ build(uuid: "${secret.id}") { number } }`,
      {},
      { token: world.tokens.member },
    );
    expect(byUuid.body.errors[0].message).toBe('No build found');
    const node = await world.gql(
      `{ node(id: "${secret.graphql_id}") { id } }`,
      {},
      { token: world.tokens.member },
    );
    expect(node.body).toEqual({ data: { node: null } });
  });
});

describe('job', () => {
  it('finds a job by uuid as its union member, with its build', async () => {
    const rest = builds[0];
    const job = data(
      await world.gql(
        `query($uuid: ID!) { job(uuid: $uuid) { __typename ... on JobTypeCommand { id label build { number } pipeline { slug } } } }`,
        {
          uuid: rest.jobs[0].id,
        },
      ),
    ).job;
    expect(job).toEqual({
      __typename: 'JobTypeCommand',
      id: rest.jobs[0].graphql_id,
      label: rest.jobs[0].name,
      build: { number: 1 },
      pipeline: { slug: 'web' },
    });
  });

  it('answers No job found for an unknown job and for one the actor may not see', async () => {
    const other = await world.createBuild(
      'elsewhere',
      {},
      { organization: 'other', token: world.tokens.otherAdmin },
    );
    for (const uuid of [UNKNOWN_UUID, other.jobs[0].id, 'nope']) {
      const response = await world.gql(`{ job(uuid: "${uuid}") { __typename } }`);
      expect(response.body.data).toEqual({ job: null });
      expect(response.body.errors[0].message).toBe('No job found');
    }
  });
});

describe('registry', () => {
  it('finds a registry by slug and by uuid', async () => {
    const fields = 'id uuid name slug description ecosystem public emoji color url organization { slug }';
    const bySlug = data(await world.gql(`{ registry(slug: "acme/gems") { ${fields} } }`)).registry;
    const byUuid = data(await world.gql(`{ registry(uuid: "${registry.id}") { ${fields} } }`)).registry;
    expect(byUuid).toEqual(bySlug);
    expect(bySlug).toEqual({
      id: registry.graphql_id,
      uuid: registry.id,
      name: 'Gems',
      slug: 'gems',
      description: 'our gems',
      ecosystem: 'ruby',
      public: false,
      emoji: null,
      color: null,
      url: registry.web_url,
      organization: { slug: 'acme' },
    });
  });

  it('answers the REST refusals', async () => {
    const cases: Array<[string, string, string | undefined]> = [
      ['{ registry(slug: "acme/nope") { id } }', 'No registry found', undefined],
      ['{ registry(slug: "other/gems") { id } }', 'No organization found', undefined],
      [`{ registry(uuid: "${registry.id}") { id } }`, 'No registry found', world.tokens.otherAdmin],
      ['{ registry(slug: "gems") { id } }', 'No registry found', undefined],
    ];
    for (const [query, message, token] of cases) {
      const response = await world.gql(query, {}, token ? { token } : {});
      expect(response.body.data, query).toEqual({ registry: null });
      expect(response.body.errors[0].message, query).toBe(message);
    }
  });
});

describe('node', () => {
  /** Every REST resource kind with its graphql_id, read from real REST responses (the association's
   * from GraphQL: REST shows team pipelines without one), with the scope that reads it. */
  async function everyKind(): Promise<Array<{ id: string; typename: string; scope: string }>> {
    const rest = builds[0];
    const organization = (await world.call('GET', '/v2/organizations/acme')).body;
    const user = (await world.call('GET', '/v2/user')).body;
    const pipeline = (await world.call('GET', '/v2/organizations/acme/pipelines/web')).body;
    const [team] = (await world.call('GET', '/v2/organizations/acme/teams')).body;
    const association = data(
      await world.gql(
        `{ team(slug: "acme/${team.slug}") { pipelines(first: 1) { edges { node { id } } } } }`,
      ),
    ).team.pipelines.edges[0].node.id;
    return [
      { id: organization.graphql_id, typename: 'Organization', scope: 'read_organizations' },
      { id: user.graphql_id, typename: 'User', scope: 'read_user' },
      { id: rest.creator.graphql_id, typename: 'User', scope: 'read_user' },
      { id: pipeline.graphql_id, typename: 'Pipeline', scope: 'read_pipelines' },
      { id: rest.pipeline.graphql_id, typename: 'Pipeline', scope: 'read_pipelines' },
      { id: team.graphql_id, typename: 'Team', scope: 'view_teams' },
      { id: rest.graphql_id, typename: 'Build', scope: 'read_builds' },
      { id: rest.jobs[0].graphql_id, typename: 'JobTypeCommand', scope: 'read_builds' },
      { id: rest.jobs[1].graphql_id, typename: 'JobTypeWait', scope: 'read_builds' },
      { id: association, typename: 'TeamPipeline', scope: 'view_teams' },
      { id: registry.graphql_id as string, typename: 'Registry', scope: 'read_registries' },
    ];
  }

  it('resolves the graphql_id of every REST resource kind', async () => {
    const query = `query($id: ID!) { node(id: $id) { __typename id } }`;
    const kinds = await everyKind();
    expect(new Set(kinds.map((kind) => kind.typename)).size).toBe(9);
    for (const { id, typename } of kinds) {
      expect(data(await world.gql(query, { id })).node, typename).toEqual({ __typename: typename, id });
    }
  });

  it('answers null, without an error, for unknown, malformed and foreign ids of every kind', async () => {
    const other = await world.createBuild(
      'elsewhere',
      {},
      { organization: 'other', token: world.tokens.otherAdmin },
    );
    const otherToken = { token: world.tokens.otherAdmin };
    const otherTeam = await world.call('POST', '/v2/organizations/other/teams', {
      ...otherToken,
      body: { name: 'Elsewhere' },
    });
    const otherBuild = (
      await world.call(
        'GET',
        `/v2/organizations/other/pipelines/elsewhere/builds/${other.number}`,
        otherToken,
      )
    ).body;
    const foreign = [
      other.graphql_id,
      otherBuild.jobs[0].graphql_id,
      other.pipeline.graphql_id,
      other.creator.graphql_id,
      (await world.call('GET', '/v2/organizations/other', otherToken)).body.graphql_id,
      otherTeam.body.graphql_id,
    ].filter(Boolean);
    expect(foreign).toHaveLength(6);
    const unknown = [
      'Build',
      'Job',
      'Pipeline',
      'User',
      'Organization',
      'Team',
      'TeamPipeline',
      'Registry',
      'OrganizationMember',
      'TeamMember',
      'Viewer',
      // Agents come with issue 7: an agent id names nothing yet.
      'Agent',
    ].map((type) => encodeGraphqlId(type as Parameters<typeof encodeGraphqlId>[0], UNKNOWN_UUID));
    const malformed = ['not base64 at all', btoa('Build---not-a-uuid'), btoa(`Nothing---${UNKNOWN_UUID}`)];
    for (const id of [...foreign, ...unknown, ...malformed]) {
      const response = await world.gql('query($id: ID!) { node(id: $id) { id } }', { id });
      expect(response.body, id).toEqual({ data: { node: null } });
    }
  });

  it('refuses with the scope message when the token may not read the kind of object', async () => {
    const token = await world.token('admin', { scopes: ['graphql'] });
    for (const { id, typename, scope } of await everyKind()) {
      const response = await world.gql('query($id: ID!) { node(id: $id) { id } }', { id }, { token });
      expect(response.body.data, typename).toEqual({ node: null });
      expect(response.body.errors[0].message, typename).toBe(
        `Your access token doesn't have the ${scope} scope`,
      );
    }
  });

  it('reads another member of the organization with read_organizations, as the member list shows them', async () => {
    const token = await world.token('member', { scopes: ['graphql', 'read_organizations'] });
    const admin = builds[0].creator.graphql_id;
    const response = await world.gql(
      'query($id: ID!) { node(id: $id) { ... on User { name } } }',
      { id: admin },
      { token },
    );
    expect(response.body).toEqual({ data: { node: { name: 'Ada Admin' } } });
    const userOnly = await world.token('member', { scopes: ['graphql', 'read_user'] });
    const refused = await world.gql(
      'query($id: ID!) { node(id: $id) { id } }',
      { id: admin },
      { token: userOnly },
    );
    expect(refused.body.errors[0].message).toBe(
      "Your access token doesn't have the read_organizations scope",
    );
    const self = await world.gql(
      'query($id: ID!) { node(id: $id) { ... on User { name } } }',
      { id: encodeGraphqlId('User', world.users.member.id) },
      { token: userOnly },
    );
    expect(self.body).toEqual({ data: { node: { name: 'Max Member' } } });
  });
});

describe('connections', () => {
  it("pages a pipeline's builds newest first with first/after and last/before, counting them all", async () => {
    const page = async (args: string) =>
      data(
        await world.gql(`{ build(slug: "acme/web/1") { pipeline { builds(${args}) {
          count pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { number } } } } } }`),
      ).build.pipeline.builds;
    const first = await page('first: 2');
    expect(first.count).toBe(3);
    expect(first.edges.map((edge: { node: { number: number } }) => edge.node.number)).toEqual([3, 2]);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const next = await page(`first: 2, after: "${first.pageInfo.endCursor}"`);
    expect(next.edges.map((edge: { node: { number: number } }) => edge.node.number)).toEqual([1]);
    expect(next.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const last = await page('last: 1');
    expect(last.edges.map((edge: { node: { number: number } }) => edge.node.number)).toEqual([1]);
    const before = await page(`last: 5, before: "${last.pageInfo.startCursor}"`);
    expect(before.edges.map((edge: { node: { number: number } }) => edge.node.number)).toEqual([3, 2]);
  });

  it("filters a pipeline's builds by state, branch, commit, meta-data and creation time", async () => {
    const numbers = async (args: string) =>
      data(
        await world.gql(
          `{ build(slug: "acme/web/1") { pipeline { builds(${args}) { edges { node { number } } } } } }`,
        ),
      ).build.pipeline.builds.edges.map((edge: { node: { number: number } }) => edge.node.number);
    expect(await numbers('branch: ["feature/x"]')).toEqual([2]);
    expect(await numbers('branch: ["%default"]')).toEqual([3, 1]);
    expect(await numbers(`commit: ["${'b'.repeat(40)}"]`)).toEqual([2]);
    expect(await numbers('metaData: ["release=v1"]')).toEqual([3, 1]);
    expect(await numbers('state: [SCHEDULED]')).toEqual([3, 2, 1]);
    expect(await numbers('state: [PASSED, CANCELED]')).toEqual([]);
    expect(await numbers('createdAtFrom: "2100-01-01T00:00:00Z"')).toEqual([]);
    expect(await numbers('createdAtTo: "2100-01-01T00:00:00Z"')).toEqual([3, 2, 1]);
  });

  it('refuses bad connection arguments with a clear message, never a 500', async () => {
    const cases: Array<[string, string]> = [
      ['first: 501', 'Argument "first" must be between 0 and 500'],
      ['first: -1', 'Argument "first" must be between 0 and 500'],
      ['after: "bm9wZQ=="', 'Argument "after" is not a cursor of this connection'],
      ['metaData: ["release"]', 'metaData filters are "key=value", got "release"'],
      // Text PostgreSQL refuses even as a parameter (GraphQL's \u escape of a NUL character).
      ['branch: ["a\\u0000b"]', "branch can't contain NUL characters or unpaired surrogates"],
      ['commit: ["\\u0000"]', "commit can't contain NUL characters or unpaired surrogates"],
      ['metaData: ["release=v\\u0000"]', "meta_data can't contain NUL characters or unpaired surrogates"],
    ];
    for (const [args, message] of cases) {
      const response = await world.gql(
        `{ build(slug: "acme/web/1") { pipeline { builds(${args}) { count } } } }`,
      );
      expect(response.status).toBe(200);
      expect(response.body.errors?.[0]?.message, args).toBe(message);
    }
    const badTime = await world.gql(
      '{ build(slug: "acme/web/1") { pipeline { builds(createdAtFrom: "yesterday") { count } } } }',
    );
    expect(badTime.body.errors[0].message).toMatch(/DateTime must be an ISO 8601 timestamp/);
  });

  it("lists an organization's registries", async () => {
    const { organization } = data(
      await world.gql(
        `{ build(slug: "acme/web/1") { organization { registries(first: 5) { count edges { node { slug } } } } } }`,
      ),
    ).build;
    expect(organization.registries).toEqual({ count: 1, edges: [{ node: { slug: 'gems' } }] });
  });
});
