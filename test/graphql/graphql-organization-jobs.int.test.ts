import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/**
 * `Organization.jobs` over the jobs builds really have (filters by type, state, agent query rules and
 * cluster queue; the pipelines' visibility), and `Build.annotations`, the public connection, empty.
 */

let world: GraphqlWorld;

const JOBS = `query organizationJobs($slug: ID!, $first: Int, $type: [JobTypes!], $state: [JobStates!],
    $agentQueryRules: [String!], $clusterQueue: [ID!]) {
  organization(slug: $slug) {
    jobs(first: $first, type: $type, state: $state, agentQueryRules: $agentQueryRules, clusterQueue: $clusterQueue) {
      count
      edges {
        node {
          __typename
          ... on JobTypeCommand { uuid label state agentQueryRules build { number pipeline { slug } }
            cluster { id name } clusterQueue { id key } }
          ... on JobTypeWait { uuid state }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

const ANNOTATIONS = `query buildAnnotations($slug: ID!) {
  build(slug: $slug) {
    annotations(first: 10) {
      count
      edges { node { id uuid context style scope priority body { text html } createdAt } }
      pageInfo { hasNextPage }
    }
  }
}`;

const data = (response: Awaited<ReturnType<GraphqlWorld['gql']>>) => {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data;
};

type JobEdge = {
  node: {
    __typename: string;
    state: string;
    agentQueryRules?: string[];
    build?: { pipeline: { slug: string } };
  };
};
const jobsOf = async (variables: Record<string, unknown>, token?: string) =>
  data(await world.gql(JOBS, { slug: 'acme', first: 100, ...variables }, token ? { token } : {})).organization
    .jobs as { count: number; edges: JobEdge[]; pageInfo: { hasNextPage: boolean } };

beforeAll(async () => {
  world = await startGraphqlWorld();
  await world.server.useCases.admin.createPipeline({
    organization: 'acme',
    name: 'deployer',
    repository: 'git@example.com:acme/deployer.git',
    steps:
      'steps:\n  - label: ":rocket: Deploy"\n    command: "make deploy"\n    agents:\n      queue: deploy\n',
  });
  await world.createBuild('web');
  await world.createBuild('secret');
  await world.createBuild('deployer');
});
afterAll(async () => world?.close());

describe('Organization.jobs', () => {
  it('lists the latest runs of every job an admin may see, newest first', async () => {
    const all = await jobsOf({});
    // web and secret: a command, a wait and two parallel commands each; deployer: one command.
    expect(all.count).toBe(9);
    expect(all.edges).toHaveLength(9);
    expect(all.edges[0]?.node.build?.pipeline.slug).toBe('deployer');
    const page = await jobsOf({ first: 2 });
    expect(page.edges).toHaveLength(2);
    expect(page.pageInfo.hasNextPage).toBe(true);
  });

  it('filters by type, state and agent query rules', async () => {
    const waits = await jobsOf({ type: ['WAIT'] });
    expect(waits.count).toBe(2);
    expect(waits.edges.every((edge) => edge.node.__typename === 'JobTypeWait')).toBe(true);
    const scheduled = await jobsOf({ type: ['COMMAND'], state: ['SCHEDULED'] });
    expect(scheduled.count).toBeGreaterThan(0);
    expect(scheduled.edges.every((edge) => edge.node.state === 'SCHEDULED')).toBe(true);
    const deploy = await jobsOf({ agentQueryRules: ['queue=deploy'] });
    expect(deploy.count).toBe(1);
    expect(deploy.edges[0]?.node).toMatchObject({ agentQueryRules: ['queue=deploy'], state: 'SCHEDULED' });
    expect((await jobsOf({ state: ['FINISHED'] })).count).toBe(0);
  });

  it('matches nothing for a cluster queue: there are no clusters yet', async () => {
    const queued = await jobsOf({ clusterQueue: ['Q2x1c3RlclF1ZXVlLS0tMQ=='] });
    expect(queued).toMatchObject({ count: 0, edges: [] });
  });

  it("shows a command job's cluster, its pipeline's, and no cluster queue", async () => {
    const cluster = await world.call('POST', '/v2/organizations/acme/clusters', {
      body: { name: 'Deploys' },
    });
    expect(cluster.status, cluster.text).toBe(201);
    const moved = await world.call('PATCH', '/v2/organizations/acme/pipelines/deployer', {
      body: { cluster_id: cluster.body.id },
    });
    expect(moved.status, moved.text).toBe(200);
    const jobs = await jobsOf({ agentQueryRules: ['queue=deploy'] });
    expect(jobs.edges.map((edge) => edge.node)).toEqual([
      expect.objectContaining({
        cluster: { id: cluster.body.graphql_id, name: 'Deploys' },
        clusterQueue: null,
      }),
    ]);
    const web = await jobsOf({ type: ['COMMAND'], first: 20 });
    const others = web.edges.filter((edge) => edge.node.build?.pipeline.slug !== 'deployer');
    expect(others.length).toBeGreaterThan(0);
    expect(others.every((edge) => (edge.node as { cluster?: unknown }).cluster === null)).toBe(true);
  });

  it('shows a member only the jobs of pipelines the member may see', async () => {
    const seen = await jobsOf({}, world.tokens.member);
    const slugs = new Set(seen.edges.map((edge) => edge.node.build?.pipeline.slug).filter(Boolean));
    expect(slugs.has('secret')).toBe(false);
    expect(slugs.has('web')).toBe(true);
    expect(seen.count).toBe(seen.edges.length);
  });

  it('needs read_builds', async () => {
    const token = await world.token('admin', { scopes: ['graphql', 'read_organizations'] });
    const response = await world.gql(JOBS, { slug: 'acme' }, { token });
    expect(response.body.errors?.map((error: { message: string }) => error.message)).toEqual([
      "Your access token doesn't have the read_builds scope",
    ]);
  });
});

describe('Build.annotations', () => {
  it('is an empty connection of the public Annotation type', async () => {
    const build = await world.createBuild('api');
    const { annotations } = data(await world.gql(ANNOTATIONS, { slug: `acme/api/${build.number}` })).build;
    expect(annotations).toEqual({ count: 0, edges: [], pageInfo: { hasNextPage: false } });
  });
});
