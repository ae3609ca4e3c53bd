import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/**
 * What an operation may cost: depth, aliases and cost limits refuse it before any resolver runs (the
 * token lookup is the only SQL sent), and the loaders keep a page at a fixed number of SQL statements,
 * whatever its size: a page of builds with their jobs, pipeline, creator, organization and original
 * build; a page of pipelines each with its teams (and their members), its latest builds and its
 * schedules; a page of teams with their members and pipelines; a page of members with the builds each
 * created.
 */

let world: GraphqlWorld;
const BUILDS = 110;
/** Pipelines, teams and members the organization gets besides the world's, for large pages of each. */
const EXTRA = 40;

beforeAll(async () => {
  world = await startGraphqlWorld();
  for (let start = 0; start < BUILDS; start += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, BUILDS - start) }, (_, i) =>
        world.createBuild('web', { message: `build ${start + i + 1}` }),
      ),
    );
  }
  // Some builds of the page are rebuilds, so that `rebuiltFrom` has something to load.
  for (const number of [1, 2, 3]) {
    const response = await world.call('PUT', `/v2/organizations/acme/pipelines/web/builds/${number}/rebuild`);
    expect(response.status).toBe(200);
  }
  // EXTRA pipelines, each with a build and a team of its own (with a member) beside `platform`.
  const admin = world.server.useCases.admin;
  for (let n = 1; n <= EXTRA; n += 1) {
    const name = `extra ${String(n).padStart(2, '0')}`;
    const user = await admin.createUser({ name: `User ${n}`, email: `user${n}@acme.test` });
    await admin.addMember({ organization: 'acme', email: user.email, role: 'member' });
    await admin.createPipeline({ organization: 'acme', name, repository: `git@example.com:acme/${n}.git` });
    await admin.createTeam({ organization: 'acme', name: `Team ${n}`, members: [user.email] });
    await admin.addTeamPipeline({
      organization: 'acme',
      team: `team-${n}`,
      pipeline: `extra-${String(n).padStart(2, '0')}`,
      accessLevel: 'build_and_read',
    });
    await admin.addTeamPipeline({
      organization: 'acme',
      team: 'platform',
      pipeline: `extra-${String(n).padStart(2, '0')}`,
      accessLevel: 'read_only',
    });
  }
  for (let start = 1; start <= EXTRA; start += 10) {
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => world.createBuild(`extra-${String(start + i).padStart(2, '0')}`)),
    );
  }
  // A schedule on each extra pipeline, so that a page's `schedules` has something to load.
  await Promise.all(
    Array.from({ length: EXTRA }, async (_, i) => {
      const pipeline = `extra-${String(i + 1).padStart(2, '0')}`;
      const response = await world.call('POST', `/v2/organizations/acme/pipelines/${pipeline}/schedules`, {
        body: { label: `Nightly ${pipeline}`, cronline: '@daily' },
      });
      expect(response.status).toBe(201);
    }),
  );
}, 180_000);
afterAll(async () => world?.close());

const PAGE = `query($first: Int!) { build(slug: "acme/web/1") { pipeline { builds(first: $first) {
  count
  edges { node {
    number
    pipeline { slug }
    organization { slug }
    createdBy { ... on User { name } }
    rebuiltFrom { number }
    jobs(first: 10) { count edges { node { __typename ... on JobTypeCommand { uuid label state } } } }
  } }
} } } }`;

describe('a page of builds', () => {
  it('costs the same few SQL statements for 5 builds as for 100, jobs, pipeline and creator included', async () => {
    await world.gql(PAGE, { first: 1 });
    const small = await world.countStatements(() => world.gql(PAGE, { first: 5 }));
    const large = await world.countStatements(() => world.gql(PAGE, { first: 100 }));
    for (const { result } of [small, large]) {
      expect(result.status, result.text).toBe(200);
      expect(result.body.errors, result.text).toBeUndefined();
    }
    const builds = large.result.body.data.build.pipeline.builds;
    expect(builds.count).toBe(BUILDS + 3);
    expect(builds.edges).toHaveLength(100);
    for (const { node } of builds.edges) {
      expect(node.pipeline.slug).toBe('web');
      expect(node.organization.slug).toBe('acme');
      expect(node.createdBy.name).toBe('Ada Admin');
      expect(node.jobs.count).toBe(4);
      expect(node.jobs.edges[0].node).toMatchObject({
        __typename: 'JobTypeCommand',
        label: ':hammer: Build',
      });
    }
    expect(
      builds.edges
        .slice(0, 3)
        .map((edge: { node: { rebuiltFrom: { number: number } } }) => edge.node.rebuiltFrom.number),
    ).toEqual([3, 2, 1]);
    // The token, the build and its pipeline's access, the page (builds beside their count, then their
    // jobs beside their pipelines' counts), the organizations, and the original builds in one batch.
    expect(large.statements).toBe(small.statements);
    expect(large.statements).toBeLessThanOrEqual(16);
  });
});

const PIPELINES_PAGE = `query($first: Int!) { organization(slug: "acme") { pipelines(first: $first) {
  count
  edges { node {
    slug webhookURL createdBy { name } organization { slug }
    teams(first: 5) { count edges { node { accessLevel team { slug createdBy { name }
      members(first: 5) { count edges { node { role user { name } } } } } } } }
    builds(first: 3) { count edges { node { number createdBy { ... on User { name } } pipeline { slug }
      jobs(first: 5) { count edges { node { __typename } } } } } }
    schedules(first: 2) { edges { node { label permissions { pipelineScheduleUpdate { allowed } } } } }
  } }
} } }`;

describe('a page of pipelines', () => {
  it('costs the same few SQL statements for 5 pipelines as for 45, with their teams, members and builds', async () => {
    for (const token of [world.tokens.admin, world.tokens.member]) {
      const { few, many } = await world.pageStatements(PIPELINES_PAGE, 5, 45, token);
      const pipelines = many.result.body.data.organization.pipelines;
      expect(pipelines.edges).toHaveLength(45);
      const extra = pipelines.edges
        .map((edge: { node: unknown }) => edge.node)
        .filter((node: { slug: string }) => node.slug.startsWith('extra-'));
      // After the world's seven pipelines (six for the member, who cannot see `secret`).
      expect(extra.length).toBeGreaterThanOrEqual(EXTRA - 2);
      for (const node of extra) {
        expect(node.builds.count).toBe(1);
        expect(node.builds.edges[0].node).toMatchObject({ number: 1, createdBy: { name: 'Ada Admin' } });
        // A pipeline made without steps has the one default step.
        expect(node.builds.edges[0].node.jobs.count).toBe(1);
        expect(node.teams.count).toBe(2);
        expect(node.teams.edges[0].node.team.members.count).toBe(1);
        expect(node.schedules.edges.map((edge: { node: { label: string } }) => edge.node.label)).toEqual([
          `Nightly ${node.slug}`,
        ]);
      }
      // Each level of the page is one batch of use cases, whatever the page's size.
      expect(many.statements, token).toBe(few.statements);
      expect(many.statements).toBeLessThanOrEqual(32);
    }
  });

  it("costs the same for a pipeline's builds through the root field, 5 or 100", async () => {
    const query = `query($first: Int!) { pipeline(slug: "acme/web") { builds(first: $first) { count edges { node {
      number createdBy { ... on User { name builds(first: 2) { count } } } rebuiltFrom { number }
      jobs(first: 10) { count } } } } } }`;
    const { few, many } = await world.pageStatements(query, 5, 100);
    expect(many.result.body.data.pipeline.builds.edges).toHaveLength(100);
    expect(many.statements).toBe(few.statements);
  });
});

describe('a page of teams and of members', () => {
  it('costs the same few SQL statements for 5 teams as for 40, with their members and pipelines', async () => {
    const query = `query($first: Int!) { organization(slug: "acme") { teams(first: $first) { count edges { node {
      slug createdBy { name } organization { slug }
      members(first: 5) { count edges { node { id role user { name builds(first: 2) { count } } } } }
      pipelines(first: 5) { count edges { node { accessLevel pipeline { slug builds(first: 1) { count } } } } }
    } } } } }`;
    for (const token of [world.tokens.admin, world.tokens.member]) {
      const { few, many } = await world.pageStatements(query, 5, 40, token);
      const teams = many.result.body.data.organization.teams;
      expect(teams.edges).toHaveLength(40);
      expect(many.statements, token).toBe(few.statements);
      expect(many.statements).toBeLessThanOrEqual(32);
    }
  });

  it('costs the same for 3 members as for 40, with the builds each created', async () => {
    const query = `query($first: Int!) { organization(slug: "acme") { members(first: $first) { count edges { node {
      role user { name builds(first: 2) { count edges { node { number pipeline { slug } } } } } } } } } }`;
    const { few, many } = await world.pageStatements(query, 3, 40);
    const members = many.result.body.data.organization.members;
    expect(members.count).toBe(3 + EXTRA);
    expect(members.edges[0].node.user).toMatchObject({
      name: 'Ada Admin',
      builds: { count: BUILDS + 3 + EXTRA },
    });
    expect(many.statements).toBe(few.statements);
  });
});

describe('limits', () => {
  it('refuses an operation nested too deep before any resolver runs', async () => {
    const nested = (depth: number): string =>
      depth === 0 ? 'number' : `rebuiltFrom { ${nested(depth - 1)} }`;
    const { result, statements } = await world.countStatements(() =>
      world.gql(`{ build(slug: "acme/web/1") { ${nested(20)} } }`),
    );
    expect(result.body.data).toBeUndefined();
    expect(result.body.errors[0].message).toMatch(/depth limit of 15 exceeded/);
    expect(statements).toBe(1);
    const allowed = await world.gql(`{ build(slug: "acme/web/1") { ${nested(10)} } }`);
    expect(allowed.body.errors).toBeUndefined();
  });

  it('refuses an operation with too many aliases before any resolver runs', async () => {
    const aliases = (n: number) =>
      Array.from({ length: n }, (_, i) => `b${i}: build(slug: "acme/web/${i + 1}") { number }`).join('\n');
    const { result, statements } = await world.countStatements(() => world.gql(`{ ${aliases(41)} }`));
    expect(result.body.data).toBeUndefined();
    expect(result.body.errors[0].message).toMatch(/Aliases limit of 40 exceeded/);
    expect(statements).toBe(1);
    const allowed = await world.gql(`{ ${aliases(40)} }`);
    expect(allowed.body.errors).toBeUndefined();
    expect(Object.keys(allowed.body.data)).toHaveLength(40);
  });

  it('refuses an operation that could cost too much, counting page sizes passed as variables', async () => {
    const query = `query($builds: Int, $jobs: Int) { build(slug: "acme/web/1") { pipeline {
      builds(first: $builds) { edges { node { jobs(first: $jobs) { edges { node { __typename } } } } } } } } }`;
    const { result, statements } = await world.countStatements(() =>
      world.gql(query, { builds: 500, jobs: 500 }),
    );
    expect(result.body.data).toBeUndefined();
    expect(result.body.errors[0].message).toMatch(/^Query cost \d+ exceeds the limit of 50000/);
    expect(result.body.errors[0].extensions.code).toBe('query_too_costly');
    expect(statements).toBe(1);
    const literalQuery = query
      .replace('($builds: Int, $jobs: Int)', '')
      .replace('$builds', '500')
      .replace('$jobs', '500');
    // A cost no variable decides is kept per document: refused again, the same way.
    for (let n = 0; n < 2; n += 1) {
      const literal = await world.countStatements(() => world.gql(literalQuery));
      expect(literal.result.body.errors[0].message).toMatch(/^Query cost \d+ exceeds/);
      expect(literal.statements).toBe(1);
    }
    // One that variables decide is not: the same document, smaller pages, allowed.
    const allowed = await world.gql(query, { builds: 50, jobs: 10 });
    expect(allowed.body.errors).toBeUndefined();
  });
});

describe("a connection's count", () => {
  const WEB_BUILDS = BUILDS + 3;
  const isCount = (sql: string) => /\bcount\(\*\)/.test(sql);
  const builds = (selection: string) => `query($first: Int!, $after: String) { pipeline(slug: "acme/web") {
    builds(first: $first, after: $after) { ${selection} pageInfo { hasNextPage hasPreviousPage endCursor }
      edges { node { number } } } } }`;

  it.each([
    ['one shorter than the list', WEB_BUILDS - 1, true],
    ['as long as the list', WEB_BUILDS, false],
    ['one longer than the list', WEB_BUILDS + 1, false],
  ])(
    'is not counted when not selected, and a page %s still knows exactly whether more follow',
    async (_, first, hasNextPage) => {
      const uncounted = await world.countStatements(() => world.gql(builds(''), { first }));
      expect(uncounted.result.body.errors, uncounted.result.text).toBeUndefined();
      const page = uncounted.result.body.data.pipeline.builds;
      expect(page.edges).toHaveLength(Math.min(first, WEB_BUILDS));
      expect(page.pageInfo).toMatchObject({ hasNextPage, hasPreviousPage: false });
      expect(uncounted.sql.filter(isCount)).toEqual([]);

      const counted = await world.countStatements(() => world.gql(builds('count'), { first }));
      expect(counted.result.body.data.pipeline.builds).toEqual({ ...page, count: WEB_BUILDS });
      expect(counted.sql.filter(isCount)).toHaveLength(1);
      expect(counted.statements).toBe(uncounted.statements + 1);
    },
  );

  it('is not counted for the next page either, whose end is exact', async () => {
    const first = await world.gql(builds(''), { first: 100 });
    const { endCursor } = first.body.data.pipeline.builds.pageInfo;
    const next = await world.countStatements(() =>
      world.gql(builds(''), { first: WEB_BUILDS - 100, after: endCursor }),
    );
    expect(next.result.body.data.pipeline.builds.pageInfo).toMatchObject({
      hasNextPage: false,
      hasPreviousPage: true,
    });
    // Both pages together are the whole list, each build once.
    const numbers = [first, next.result].flatMap((page) =>
      page.body.data.pipeline.builds.edges.map((edge: { node: { number: number } }) => edge.node.number),
    );
    expect(numbers.sort((x, y) => x - y)).toEqual(Array.from({ length: WEB_BUILDS }, (_, i) => i + 1));
    expect(next.sql.filter(isCount)).toEqual([]);
  });

  it('is counted through a fragment, and once when `last` counts from the end', async () => {
    const viaFragment = await world.countStatements(() =>
      world.gql(`{ pipeline(slug: "acme/web") { builds(first: 1) { ...Counted } } }
        fragment Counted on BuildConnection { ... on Connection { count } }`),
    );
    expect(viaFragment.result.body.data.pipeline.builds.count).toBe(WEB_BUILDS);
    expect(viaFragment.sql.filter(isCount)).toHaveLength(1);

    const last = await world.countStatements(() =>
      world.gql(`{ pipeline(slug: "acme/web") { builds(last: 2) { count pageInfo { hasNextPage hasPreviousPage }
        edges { node { number } } } } }`),
    );
    // The list's own order (newest first by creation time; the setup creates builds concurrently, so
    // not necessarily by number): `last: 2` is its last two builds.
    const whole = await world.gql(builds(''), { first: WEB_BUILDS });
    const order = whole.body.data.pipeline.builds.edges.map(
      (edge: { node: { number: number } }) => edge.node,
    );
    expect(last.result.body.data.pipeline.builds).toEqual({
      count: WEB_BUILDS,
      pageInfo: { hasNextPage: false, hasPreviousPage: true },
      edges: order.slice(-2).map((node: { number: number }) => ({ node })),
    });
    expect(last.sql.filter(isCount)).toHaveLength(1);
  });

  it("is counted for no batched list that does not select it: teams, their members and pipelines, a creator's builds", async () => {
    const query = `{ pipeline(slug: "acme/web") {
      teams(first: 5) { pageInfo { hasNextPage } edges { node { team { slug
        members(first: 5) { pageInfo { hasNextPage } edges { node { role } } }
        pipelines(first: 1) { pageInfo { hasNextPage } edges { node { accessLevel } } } } } } }
      builds(first: 1) { edges { node { createdBy { ... on User { builds(first: 1) { pageInfo { hasNextPage } } } } } } } } }`;
    const { result, sql } = await world.countStatements(() => world.gql(query));
    expect(result.body.errors, result.text).toBeUndefined();
    const web = result.body.data.pipeline;
    expect(web.teams.edges.length).toBeGreaterThan(0);
    const platform = web.teams.edges.find(
      (edge: { node: { team: { slug: string } } }) => edge.node.team.slug === 'platform',
    );
    // platform has the web pipeline and every extra one: more than one.
    expect(platform.node.team.pipelines.pageInfo.hasNextPage).toBe(true);
    expect(web.builds.edges[0].node.createdBy.builds.pageInfo.hasNextPage).toBe(true);
    expect(sql.filter(isCount)).toEqual([]);
  });
});
