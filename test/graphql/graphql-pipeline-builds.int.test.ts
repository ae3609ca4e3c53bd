import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';
import { decidesAccess, readsPipelines, teamIds } from '../support/world';

/**
 * `pipeline(slug:) { builds }`, the GraphQL twin of a pipeline's REST build list: the root decides the
 * actor's access to the pipeline, and its builds reuse that decision and the pipeline it read (only the
 * counts are read again), as the REST list does. A pipeline reached otherwise (a page of pipelines)
 * still has its access decided by the batch. Either way the answer and the refusals are the same.
 */

let world: GraphqlWorld;

beforeAll(async () => {
  world = await startGraphqlWorld();
  for (const [pipeline, branch] of [
    ['web', 'main'],
    ['web', 'main'],
    ['web', 'feature'],
    ['web', 'main'],
    ['api', 'main'],
    ['api', 'main'],
    ['secret', 'main'],
  ] as const) {
    await world.createBuild(pipeline, { branch, meta_data: { stage: pipeline } });
  }
  // Some of them passed, so that the state filter keeps some and leaves others out.
  await world.server.database.sql.query(
    `update builds set state = 'passed', started_at = created_at, finished_at = created_at + interval '1 minute'
     where number <> 2`,
  );
  // Pipelines made by a user: a list of their builds takes the creator the pipeline's read had.
  await world.server.database.sql.query(
    `update pipelines set created_by_id = (select id from users where email = 'admin@acme.test')`,
  );
}, 120_000);
afterAll(async () => world?.close());

const BUILD_FIELDS = `fragment Fields on Build {
  id uuid url number state blocked cancelReason message commit branch env
  source { name }
  metaData(first: 10) { edges { node { key value } } }
  createdAt scheduledAt startedAt finishedAt canceledAt
  createdBy { __typename ... on User { id uuid name email avatar { url } } }
  pullRequest { id }
  pipeline { id uuid slug name defaultBranch repository { url } webhookURL }
  jobs(first: 10) { edges { node { __typename ... on JobTypeCommand { id uuid label command state url } } } }
}`;

const BUILDS_ARGS = 'first: 30, branch: ["main"], state: [PASSED]';

const BY_SLUG = `query($slug: ID!) { pipeline(slug: $slug) {
  builds(${BUILDS_ARGS}) { edges { node { ...Fields } } pageInfo { hasNextPage endCursor } }
} } ${BUILD_FIELDS}`;

const BY_ORGANIZATION = `query { organization(slug: "acme") { pipelines(first: 8) { edges { node {
  slug
  builds(${BUILDS_ARGS}) { edges { node { ...Fields } } pageInfo { hasNextPage endCursor } }
} } } } } ${BUILD_FIELDS}`;

/** Whether a statement reads pipelines ({@link readsPipelines}) or what decides access to them. */
const touchesAccess = (sql: string) =>
  readsPipelines(sql) || /(from|join) (organization_members|team_pipelines) /.test(sql);

async function bySlug(slug: string, token?: string) {
  return world.countStatements(() => world.gql(BY_SLUG, { slug }, token ? { token } : {}));
}

async function byOrganization(slug: string, token?: string) {
  const { result, statements, sql } = await world.countStatements(() =>
    world.gql(BY_ORGANIZATION, {}, token ? { token } : {}),
  );
  expect(result.status, result.text).toBe(200);
  expect(result.body.errors, result.text).toBeUndefined();
  const edges = result.body.data.organization.pipelines.edges as Array<{ node: { slug: string } }>;
  const node = edges.find((edge) => edge.node.slug === slug)?.node as { builds: unknown } | undefined;
  return { builds: node?.builds, statements, sql };
}

describe('the builds of a pipeline found by its slug', () => {
  it('cost four statements: the token, the access, the builds with their counts, their jobs', async () => {
    const { result, statements, sql } = await bySlug('acme/web');
    expect(result.status, result.text).toBe(200);
    expect(result.body.errors, result.text).toBeUndefined();
    expect(result.body.data.pipeline.builds.edges).toHaveLength(2);
    expect(statements).toBe(4);
    // The access is read once (as REST reads it); the builds read only their pipeline's counts.
    expect(decidesAccess(sql[1] as string)).toBe(true);
    expect(touchesAccess(sql[1] as string)).toBe(true);
    expect(sql.slice(2).filter(touchesAccess)).toEqual([]);
    expect(sql.slice(2).some((text) => text.includes('pipeline_counts'))).toBe(true);
  });

  it('answers the same when the pipeline is behind a fragment of the root selection', async () => {
    const query = (root: string) =>
      `query($slug: ID!) { ${root.replace('$', `pipeline(slug: $slug) { builds(${BUILDS_ARGS}) { edges { node { number } } } }`)} }`;
    const direct = await world.countStatements(() => world.gql(query('$'), { slug: 'acme/web' }));
    const spread = await world.countStatements(() =>
      world.gql(query('... on Query { $ }'), { slug: 'acme/web' }),
    );
    expect(direct.result.body.errors, direct.result.text).toBeUndefined();
    expect(spread.result.body).toEqual(direct.result.body);
    expect(direct.statements).toBe(4);
    expect(spread.statements).toBe(4);
    expect(spread.sql.filter(touchesAccess)).toHaveLength(1);
  });

  it('answers what a page of pipelines answers for the same pipeline, which decides its access in the batch', async () => {
    for (const [token, slug] of [
      [world.tokens.admin, 'web'],
      [world.tokens.member, 'web'],
      [world.tokens.member, 'api'],
      [world.tokens.bystander, 'public'],
    ] as const) {
      const found = await bySlug(`acme/${slug}`, token);
      expect(found.result.body.errors, found.result.text).toBeUndefined();
      const listed = await byOrganization(slug, token);
      expect(listed.builds).toBeDefined();
      expect(found.result.body.data.pipeline.builds).toEqual(listed.builds);
      // The page of pipelines reads its builds' access in the batch, as before.
      expect(listed.sql.slice(2).filter(touchesAccess).length).toBeGreaterThan(0);
    }
  });

  it('shows the builds, in order, of the REST list with the same filters', async () => {
    const rest = await world.call(
      'GET',
      '/v2/organizations/acme/pipelines/web/builds?per_page=30&branch=main&state=passed',
    );
    expect(rest.status).toBe(200);
    const { result } = await bySlug('acme/web');
    const nodes = result.body.data.pipeline.builds.edges.map(
      (edge: { node: unknown }) => edge.node,
    ) as Array<{
      uuid: string;
      number: number;
      branch: string;
      state: string;
      pipeline: { uuid: string; slug: string; name: string };
    }>;
    expect(nodes.map((node) => [node.uuid, node.number, node.branch, node.state.toLowerCase()])).toEqual(
      (rest.body as Array<{ id: string; number: number; branch: string; state: string }>).map((build) => [
        build.id,
        build.number,
        build.branch,
        build.state,
      ]),
    );
    expect(nodes.every((node) => node.pipeline.uuid === world.pipelines.web?.id)).toBe(true);
  });

  it('shows the webhook URL to those who may edit the pipeline only (rule B2), as the batch decides it', async () => {
    const web = await bySlug('acme/web', world.tokens.member);
    const api = await bySlug('acme/api', world.tokens.member);
    expect(web.result.body.data.pipeline.builds.edges[0].node.pipeline.webhookURL).toEqual(
      expect.any(String),
    );
    expect(api.result.body.data.pipeline.builds.edges[0].node.pipeline.webhookURL).toBeNull();
  });

  it('reads the access again in every request: nothing is kept from the previous one', async () => {
    for (let n = 0; n < 2; n += 1) {
      const { sql } = await bySlug('acme/web');
      expect(sql.filter(touchesAccess)).toHaveLength(1);
      expect(touchesAccess(sql[1] as string)).toBe(true);
    }
  });
});

describe('a pipeline found otherwise', () => {
  it('by its id (`node`): keeps the access that read decided, and answers as the root does', async () => {
    const { result } = await bySlug('acme/web', world.tokens.member);
    const found = await world.gql(
      'query { pipeline(slug: "acme/web") { id } }',
      {},
      { token: world.tokens.member },
    );
    const byId = await world.countStatements(() =>
      world.gql(
        `query($id: ID!) { node(id: $id) { ... on Pipeline {
          builds(${BUILDS_ARGS}) { edges { node { ...Fields } } pageInfo { hasNextPage endCursor } }
        } } } ${BUILD_FIELDS}`,
        { id: found.body.data.pipeline.id },
        { token: world.tokens.member },
      ),
    );
    expect(byId.result.body.errors, byId.result.text).toBeUndefined();
    expect(byId.result.body.data.node.builds).toEqual(result.body.data.pipeline.builds);
    // The by-id read decided the access (pipelines, memberships, team access); the builds read none of
    // it again, nor their pipeline: the token, those three, the builds with their counts, the jobs.
    const reads = byId.sql.slice(1);
    const builds = reads.findIndex((sql) => sql.includes('from builds b'));
    expect(reads.slice(builds).filter(touchesAccess)).toEqual([]);
    expect(byId.statements).toBe(6);
  });

  it('in the same batch as the root: each parent as it came, the same answers', async () => {
    const { result, statements } = await world.countStatements(() =>
      world.gql(
        `query { pipeline(slug: "acme/web") {
          builds(${BUILDS_ARGS}) { edges { node { ...Fields } } pageInfo { hasNextPage endCursor } }
        }
        organization(slug: "acme") { pipelines(first: 8) { edges { node {
          slug builds(${BUILDS_ARGS}) { edges { node { ...Fields } } pageInfo { hasNextPage endCursor } }
        } } } } } ${BUILD_FIELDS}`,
        {},
        { token: world.tokens.member },
      ),
    );
    expect(result.body.errors, result.text).toBeUndefined();
    const listed = await byOrganization('web', world.tokens.member);
    const { result: alone } = await bySlug('acme/web', world.tokens.member);
    expect(result.body.data.pipeline.builds).toEqual(alone.body.data.pipeline.builds);
    expect(result.body.data.organization.pipelines.edges).toEqual(
      (await world.gql(BY_ORGANIZATION, {}, { token: world.tokens.member })).body.data.organization.pipelines
        .edges,
    );
    expect(listed.builds).toEqual(alone.body.data.pipeline.builds);
    expect(statements).toBeLessThanOrEqual(4 + listed.statements);
  });
});

describe('the refusals', () => {
  it('answers null and "No pipeline found" for a pipeline the member may not see', async () => {
    const { result } = await bySlug('acme/secret', world.tokens.member);
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual({ pipeline: null });
    expect(result.body.errors).toMatchObject([{ message: 'No pipeline found', path: ['pipeline'] }]);
  });

  it('answers null and "No organization found" for an organization the user is not in', async () => {
    const { result } = await bySlug('acme/web', world.tokens.outsider);
    expect(result.body.data).toEqual({ pipeline: null });
    expect(result.body.errors).toMatchObject([{ message: 'No organization found', path: ['pipeline'] }]);
  });

  it('refuses the builds of a token that may read the pipeline but not its builds', async () => {
    const token = await world.token('admin', { scopes: ['graphql', 'read_pipelines'] });
    const { result } = await bySlug('acme/web', token);
    expect(result.body.data).toEqual({ pipeline: { builds: null } });
    expect(result.body.errors).toMatchObject([
      { message: "Your access token doesn't have the read_builds scope", path: ['pipeline', 'builds'] },
    ]);
  });
});

describe('a change of access between two requests', () => {
  it('applies to the next request at once', async () => {
    const teams = await teamIds(world);
    const web = world.pipelines.web?.id ?? '';
    const before = await bySlug('acme/web', world.tokens.member);
    expect(before.result.body.data.pipeline.builds.edges[0].node.pipeline.webhookURL).toEqual(
      expect.any(String),
    );
    // Another team gets the pipeline and the member's team loses it: the member no longer sees it.
    const added = await world.call('POST', `/v2/organizations/acme/teams/${teams.hidden}/pipelines`, {
      body: { pipeline_id: web, access_level: 'read_only' },
    });
    expect(added.status, added.text).toBe(201);
    const removed = await world.call(
      'DELETE',
      `/v2/organizations/acme/teams/${teams.platform}/pipelines/${web}`,
    );
    expect(removed.status, removed.text).toBe(204);
    const after = await bySlug('acme/web', world.tokens.member);
    expect(after.result.body.data).toEqual({ pipeline: null });
    expect(after.result.body.errors).toMatchObject([{ message: 'No pipeline found', path: ['pipeline'] }]);
  });
});
