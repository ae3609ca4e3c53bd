import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/**
 * What an operation may cost: depth, aliases and cost limits refuse it before any resolver runs (the
 * token lookup is the only SQL sent), and the loaders keep a page of builds with their jobs, pipeline,
 * creator, organization and original build at a fixed number of SQL statements, whatever its size.
 */

let world: GraphqlWorld;
const BUILDS = 110;

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
}, 120_000);
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
    const literal = await world.gql(
      query.replace('($builds: Int, $jobs: Int)', '').replace('$builds', '500').replace('$jobs', '500'),
    );
    expect(literal.body.errors[0].message).toMatch(/^Query cost/);
    const allowed = await world.gql(query, { builds: 50, jobs: 10 });
    expect(allowed.body.errors).toBeUndefined();
  });
});
