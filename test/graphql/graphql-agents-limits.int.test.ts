import { encodeGraphqlId } from '@ci/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentProtocol } from '../support/agent-protocol';
import { type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/**
 * The loaders keep pages of builds with jobs that agents ran (their agents, what those agents are doing,
 * the runs retries came from, who unblocked a block step) and pages of agents at a fixed number of SQL
 * statements, whatever their size. Every job here went through the /v3 agent protocol.
 */

let world: GraphqlWorld;
let protocol: ReturnType<typeof agentProtocol>;
const BUILDS = 32;
const FLEET = 30;
/** Agents in the order they registered: `busy`, `worker`, then the fleet. */
const agents: Array<{ token: string; uuid: string; name: string }> = [];

const GATED = `steps:
  - label: ":hammer: Build"
    command: "make build"
    agents:
      queue: count
  - block: ":rocket: Ship it?"
  - label: ":ship: Ship"
    command: "make ship"
    agents:
      queue: count
`;

beforeAll(async () => {
  world = await startGraphqlWorld();
  const admin = world.server.useCases.admin;
  protocol = agentProtocol(world.server, (await admin.createAgentToken({ organization: 'acme' })).secret);
  for (const [name, queue, steps] of [
    ['gql-busy', 'busy', 'steps:\n  - command: "sleep 600"\n    agents:\n      queue: busy\n'],
    ['gql-count', 'count', GATED],
  ] as const) {
    await admin.createPipeline({
      organization: 'acme',
      name,
      repository: `git@example.com:acme/${queue}.git`,
      steps,
    });
  }
  const busy = await protocol.register({ name: 'busy', tags: ['queue=busy'] });
  const worker = await protocol.register({ name: 'worker', tags: ['queue=count'] });
  agents.push(busy, worker);
  for (let n = 1; n <= FLEET; n += 1) {
    agents.push(
      await protocol.register({ name: `fleet-${String(n).padStart(2, '0')}`, tags: ['queue=fleet'] }),
    );
  }
  await world.createBuild('gql-busy');
  await protocol.start(busy.token);

  const path = (number: number) => `/v2/organizations/acme/pipelines/gql-count/builds/${number}`;
  for (let number = 1; number <= BUILDS; number += 1) await world.createBuild('gql-count');
  // The worker runs the first step of each build, oldest first; every third one fails.
  for (let number = 1; number <= BUILDS; number += 1) {
    await protocol.run(worker.token, number % 3 === 0 ? 1 : 0);
  }
  for (let number = 1; number <= BUILDS; number += 1) {
    const build = (await world.call('GET', path(number))).body;
    const [first, gate] = build.jobs;
    expect(first.state).toBe(number % 3 === 0 ? 'failed' : 'passed');
    // A failed step is retried, and its new run (which the worker then passes) has a retry source.
    if (number % 3 === 0) {
      const retry = await world.call('PUT', `${path(number)}/jobs/${first.id}/retry`);
      expect(retry.status, retry.text).toBe(200);
    }
    // Every second build is unblocked (by the admin): its last step then waits for the worker.
    if (number % 2 === 0 && number % 3 !== 0) {
      const unblock = await world.call('PUT', `${path(number)}/jobs/${gate.id}/unblock`);
      expect(unblock.status, unblock.text).toBe(200);
    }
  }
  expect(await protocol.drain(worker.token)).toHaveLength(
    Math.floor(BUILDS / 3) + Math.floor(BUILDS / 2) - Math.floor(BUILDS / 6),
  );
  for (let number = 6; number <= BUILDS; number += 6) {
    const build = (await world.call('GET', path(number))).body;
    expect(build.blocked).toBe(true);
    const unblock = await world.call('PUT', `${path(number)}/jobs/${build.jobs[1].id}/unblock`);
    expect(unblock.status, unblock.text).toBe(200);
  }
  // The worker is busy with the oldest waiting last step while the pages are read.
  await protocol.start(worker.token);
}, 120_000);
afterAll(async () => world?.close());

const BUILDS_PAGE = `query($first: Int!) { pipeline(slug: "acme/gql-count") { builds(first: $first) {
  count
  edges { node { number state blocked
    jobs(first: 5) { edges { node { __typename
      ... on JobTypeCommand { uuid state exitStatus passed retried retriesCount startedAt finishedAt
        retrySource { ... on JobTypeCommand { uuid exitStatus retried } }
        agent { uuid name connectionState connectedAt isRunningJob organization { slug }
          job { ... on JobTypeCommand { uuid state build { number } } } } }
      ... on JobTypeBlock { state isUnblockable unblockedAt unblockedBy { name } }
    } } }
  } }
} } }`;

describe('a page of builds with jobs agents ran', () => {
  it('costs the same SQL statements for 3 builds as for 30: agents, their work, retry sources, unblockers', async () => {
    const { few, many } = await world.pageStatements(BUILDS_PAGE, 3, 30);
    const builds = many.result.body.data.pipeline.builds;
    expect(builds.count).toBe(BUILDS);
    expect(builds.edges).toHaveLength(30);
    const commands = builds.edges.flatMap((edge: { node: { jobs: { edges: Array<{ node: unknown }> } } }) =>
      edge.node.jobs.edges.map((job) => job.node),
    );
    // What the loaders had to find is really there, in the small page as in the large one.
    for (const page of [few, many]) {
      const text = page.result.text;
      expect(text).toContain('"retrySource":{"uuid"');
      expect(text).toContain('"unblockedBy":{"name":"Ada Admin"}');
      expect(text).toContain('"isRunningJob":true');
    }
    const retries = commands.filter(
      (job: { retrySource?: unknown }) => job && (job as { retrySource: unknown }).retrySource,
    );
    expect(retries.length).toBe(10);
    for (const job of retries) {
      expect(job).toMatchObject({ retriesCount: 1, retrySource: { exitStatus: '1', retried: true } });
    }
    const worker = agents[1];
    const ran = commands.filter((job: { agent?: { uuid: string } | null }) => job.agent);
    expect(ran.length).toBeGreaterThan(30);
    for (const job of ran) {
      expect(job.agent).toMatchObject({ uuid: worker?.uuid, name: 'worker', isRunningJob: true });
      expect(job.agent.job.state).toBe('RUNNING');
    }
    expect(many.statements).toBe(few.statements);
    expect(many.statements).toBeLessThanOrEqual(24);
  });
});

const AGENTS_PAGE = `query($first: Int!) { organization(slug: "acme") { agents(first: $first) {
  count
  edges { node { uuid name version metaData connectionState isRunningJob organization { slug }
    job { ... on JobTypeCommand { uuid state build { number pipeline { slug } } } } } }
} } }`;

describe('a page of agents', () => {
  it('costs the same SQL statements for 3 agents as for 30, with what each is doing', async () => {
    const { few, many } = await world.pageStatements(AGENTS_PAGE, 3, 30);
    const page = many.result.body.data.organization.agents;
    expect(page.count).toBe(FLEET + 2);
    expect(page.edges.map((edge: { node: { name: string } }) => edge.node.name)).toEqual(
      agents.slice(0, 30).map((agent) => agent.name),
    );
    const [busy, worker, idle] = page.edges.map((edge: { node: unknown }) => edge.node);
    expect(busy).toMatchObject({
      isRunningJob: true,
      job: { state: 'RUNNING', build: { pipeline: { slug: 'gql-busy' } } },
    });
    expect(worker).toMatchObject({
      isRunningJob: true,
      job: { state: 'RUNNING', build: { pipeline: { slug: 'gql-count' } } },
    });
    expect(idle).toMatchObject({ isRunningJob: false, job: null, organization: { slug: 'acme' } });
    expect(many.statements).toBe(few.statements);
    expect(many.statements).toBeLessThanOrEqual(16);
  });

  it('costs the same for 3 agents read by node as for 30', async () => {
    const byNode = (count: number) =>
      `{ ${agents
        .slice(0, count)
        .map(
          (agent, index) =>
            `a${index}: node(id: "${encodeGraphqlId('Agent', agent.uuid)}") { ... on Agent { name isRunningJob job { __typename } } }`,
        )
        .join(' ')} }`;
    const few = await world.countStatements(() => world.gql(byNode(3)));
    const many = await world.countStatements(() => world.gql(byNode(30)));
    for (const { result } of [few, many]) expect(result.body.errors, result.text).toBeUndefined();
    expect(Object.values(many.result.body.data).map((node) => (node as { name: string }).name)).toEqual(
      agents.slice(0, 30).map((agent) => agent.name),
    );
    expect(many.statements).toBe(few.statements);
  });
});
