import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { encodeGraphqlId } from '@ci/domain';
import { schema } from '@ci/graphql';
import { buildSchema, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentProtocol } from '../support/agent-protocol';
import { UNKNOWN_UUID } from '../support/answers';
import { errorsOf, type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/**
 * Agents and the job lifecycle through GraphQL, with real job data: agents register and run jobs
 * through the /v3 agent protocol, driven from the test. The `agent` root field, `node` on the Agent ids
 * REST jobs carry, `Organization.agents`, the job fields an agent's work fills, and
 * `jobTypeCommandRetry` / `jobTypeBlockUnblock` against REST's retry and unblock, and
 * `jobTypeCommandCancel`.
 */

let world: GraphqlWorld;
let protocol: ReturnType<typeof agentProtocol>;
let elsewhere: ReturnType<typeof agentProtocol>;
/** Every agent of `acme` this file registers, oldest first. */
const registered: Array<{ token: string; uuid: string; name: string }> = [];

/** A pipeline of `acme` whose command steps run on agents tagged `queue=<queue>`, as `steps` says. */
async function pipelineOn(name: string, queue: string, steps: string) {
  await world.server.useCases.admin.createPipeline({
    organization: 'acme',
    name,
    repository: `git@example.com:acme/${name}.git`,
    steps: steps.replaceAll('QUEUE', queue),
  });
}

const ONE_COMMAND = `steps:
  - label: ":hammer: Compile"
    key: compile
    command: "make compile"
    agents:
      queue: QUEUE
`;

const GATED = `steps:
  - label: ":hammer: Build"
    key: build
    command: "make build"
    agents:
      queue: QUEUE
  - block: ":rocket: Ship it?"
    key: gate
  - label: ":ship: Ship"
    key: ship
    command: "make ship"
    agents:
      queue: QUEUE
`;

const TWO_COMMANDS = `steps:
  - label: ":mag: Lint"
    key: lint
    command: "make lint"
    agents:
      queue: QUEUE
  - label: ":test_tube: Test"
    key: test
    command: "make test"
    agents:
      queue: QUEUE
`;

async function register(options: Parameters<typeof protocol.register>[0] = {}) {
  const agent = await protocol.register(options);
  registered.push(agent);
  return agent;
}

beforeAll(async () => {
  world = await startGraphqlWorld();
  const admin = world.server.useCases.admin;
  protocol = agentProtocol(world.server, (await admin.createAgentToken({ organization: 'acme' })).secret);
  elsewhere = agentProtocol(world.server, (await admin.createAgentToken({ organization: 'other' })).secret);
  await pipelineOn('gql-alpha', 'alpha', ONE_COMMAND);
  await pipelineOn('gql-runs', 'runs', ONE_COMMAND);
  await pipelineOn('gql-deploy', 'deploy', GATED);
  await pipelineOn('gql-hidden', 'hidden', ONE_COMMAND);
  await pipelineOn('gql-pair', 'pair', TWO_COMMANDS);
  await pipelineOn(
    'gql-soft',
    'pair',
    TWO_COMMANDS.replace('    key: lint\n', '    key: lint\n    soft_fail: true\n'),
  );
  // Only the team `hidden` has it: `member` may not see its builds.
  await admin.addTeamPipeline({
    organization: 'acme',
    team: 'hidden',
    pipeline: 'gql-hidden',
    accessLevel: 'build_and_read',
  });
});
afterAll(async () => world?.close());

const data = (response: Awaited<ReturnType<GraphqlWorld['gql']>>) => {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data;
};

/** The REST get-build body (jobs with their graphql_id and agent), retried runs included when asked. */
async function restBuild(pipeline: string, number: number, includeRetried = false) {
  const response = await world.call(
    'GET',
    `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}${includeRetried ? '?include_retried_jobs=true' : ''}`,
  );
  expect(response.status, response.text).toBe(200);
  return response.body;
}

const jobPath = (pipeline: string, number: number, job: string) =>
  `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/jobs/${job}`;

const AGENT_FIELDS = `uuid name hostname ipAddress userAgent version pid metaData connectionState
  createdAt connectedAt disconnectedAt heartbeatAt isRunningJob organization { slug }
  job { __typename ... on JobTypeCommand { uuid state agent { uuid } } }`;

const COMMAND_FIELDS = `id uuid label state exitStatus passed softFailed command url
  createdAt scheduledAt runnableAt startedAt finishedAt canceledAt signal signalReason
  retried retriesCount retryType retrySource { __typename ... on JobTypeCommand { uuid } }
  agent { uuid name }`;

describe('an agent through node and the agent root field', () => {
  // biome-ignore lint/suspicious/noExplicitAny: REST bodies as the untyped JSON a client reads
  let restAgent: any;
  let jobId: string;
  let alpha: { token: string; uuid: string };

  beforeAll(async () => {
    alpha = await register({
      name: 'alpha',
      tags: ['queue=alpha', 'os=linux'],
      version: '3.80.0',
      pid: 4242,
    });
    await protocol.heartbeat(alpha.token);
    await world.createBuild('gql-alpha');
    jobId = await protocol.start(alpha.token);
    const [job] = (await restBuild('gql-alpha', 1)).jobs;
    expect(job.id).toBe(jobId);
    restAgent = job.agent;
  });

  it("answers the agent of a REST job's graphql_id through node, as REST embeds it, with what it is doing", async () => {
    expect(restAgent.graphql_id).toBe(encodeGraphqlId('Agent', alpha.uuid));
    const node = data(
      await world.gql(
        `query($id: ID!) { node(id: $id) { __typename id ... on Agent { ${AGENT_FIELDS} } } }`,
        {
          id: restAgent.graphql_id,
        },
      ),
    ).node;
    expect(node).toEqual({
      __typename: 'Agent',
      id: restAgent.graphql_id,
      uuid: restAgent.id,
      name: restAgent.name,
      hostname: restAgent.hostname,
      ipAddress: restAgent.ip_address,
      userAgent: restAgent.user_agent,
      version: '3.80.0',
      pid: '4242',
      metaData: ['queue=alpha', 'os=linux'],
      connectionState: restAgent.connection_state,
      createdAt: restAgent.created_at,
      connectedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      disconnectedAt: null,
      heartbeatAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      isRunningJob: true,
      organization: { slug: 'acme' },
      job: { __typename: 'JobTypeCommand', uuid: jobId, state: 'RUNNING', agent: { uuid: restAgent.id } },
    });
    expect(restAgent.connection_state).toBe('connected');
    expect(restAgent.user_agent).toBe('buildkite-agent/3.80.0 (linux; amd64)');
    expect(Date.parse(node.connectedAt)).toBeGreaterThanOrEqual(Date.parse(node.createdAt));
    expect(Date.parse(node.heartbeatAt)).toBeGreaterThanOrEqual(Date.parse(node.connectedAt));
  });

  it('finds the same agent by its slug, the organization and its UUID in any case', async () => {
    const byNode = data(
      await world.gql(`query($id: ID!) { node(id: $id) { ... on Agent { id ${AGENT_FIELDS} } } }`, {
        id: restAgent.graphql_id,
      }),
    ).node;
    for (const slug of [`acme/${alpha.uuid}`, `acme/${alpha.uuid.toUpperCase()}`]) {
      const bySlug = data(
        await world.gql(`query($slug: ID!) { agent(slug: $slug) { id ${AGENT_FIELDS} } }`, { slug }),
      ).agent;
      expect(bySlug).toEqual(byNode);
    }
  });

  it("shows the running job's agent on the job, and the job's fields as REST does once the agent finishes", async () => {
    const query = `query($uuid: ID!) { job(uuid: $uuid) { __typename ... on JobTypeCommand { ${COMMAND_FIELDS} } } }`;
    const running = data(await world.gql(query, { uuid: jobId })).job;
    expect(running).toMatchObject({
      state: 'RUNNING',
      passed: false,
      agent: { uuid: alpha.uuid, name: 'alpha' },
    });
    await protocol.finish(alpha.token, jobId, { exitStatus: 0 });
    const [rest] = (await restBuild('gql-alpha', 1)).jobs;
    expect(rest.state).toBe('passed');
    const finished = data(await world.gql(query, { uuid: jobId })).job;
    expect(finished).toEqual({
      __typename: 'JobTypeCommand',
      id: rest.graphql_id,
      uuid: rest.id,
      label: rest.name,
      state: 'FINISHED',
      exitStatus: String(rest.exit_status),
      passed: true,
      softFailed: rest.soft_failed,
      command: rest.command,
      url: rest.web_url,
      createdAt: rest.created_at,
      scheduledAt: rest.scheduled_at,
      runnableAt: rest.runnable_at,
      startedAt: rest.started_at,
      finishedAt: rest.finished_at,
      canceledAt: null,
      signal: null,
      signalReason: null,
      retried: false,
      retriesCount: rest.retries_count,
      retryType: null,
      retrySource: null,
      agent: { uuid: rest.agent.id, name: rest.agent.name },
    });
    expect(rest.exit_status).toBe(0);
    expect(rest.started_at).not.toBeNull();
    expect(rest.runnable_at).not.toBeNull();
  });

  it('shows the agent idle once its job finished, and disconnected once it says goodbye', async () => {
    const query = `query($slug: ID!) { agent(slug: $slug) { isRunningJob job { __typename } connectionState disconnectedAt } }`;
    expect(data(await world.gql(query, { slug: `acme/${alpha.uuid}` })).agent).toEqual({
      isRunningJob: false,
      job: null,
      connectionState: 'connected',
      disconnectedAt: null,
    });
    await protocol.disconnect(alpha.token);
    const agent = data(await world.gql(query, { slug: `acme/${alpha.uuid}` })).agent;
    expect(agent).toMatchObject({ isRunningJob: false, connectionState: 'disconnected' });
    expect(agent.disconnectedAt).not.toBeNull();
    const [rest] = (await restBuild('gql-alpha', 1)).jobs;
    expect(rest.agent.connection_state).toBe('disconnected');
  });
});

describe('the agent root field and node refuse as REST would', () => {
  let agent: { token: string; uuid: string };
  let foreign: { token: string; uuid: string };
  const AGENT = `query($slug: ID!) { agent(slug: $slug) { uuid } }`;
  const NODE = `query($id: ID!) { node(id: $id) { id } }`;

  beforeAll(async () => {
    agent = await register({ name: 'refusals', tags: ['queue=refusals'] });
    foreign = await elsewhere.register({ name: 'foreign', tags: ['queue=foreign'] });
  });

  it('lets every member of the organization read its agents', async () => {
    for (const token of [world.tokens.admin, world.tokens.member, world.tokens.bystander]) {
      expect(data(await world.gql(AGENT, { slug: `acme/${agent.uuid}` }, { token })).agent).toEqual({
        uuid: agent.uuid,
      });
    }
  });

  it.each([
    [
      'an agent of another organization',
      (): string => `other/${foreign.uuid}`,
      'admin',
      'No organization found',
    ],
    [
      "an organization's agent under another organization",
      (): string => `other/${agent.uuid}`,
      'otherAdmin',
      'No agent found',
    ],
    [
      "another organization's agent, for its non-member",
      (): string => `acme/${agent.uuid}`,
      'otherAdmin',
      'No organization found',
    ],
    ['an unknown agent', (): string => `acme/${UNKNOWN_UUID}`, 'admin', 'No agent found'],
    ['an agent id that is no UUID', (): string => 'acme/refusals', 'admin', 'No agent found'],
    ['a slug without an agent', (): string => 'acme', 'admin', 'No agent found'],
    ['a slug of three parts', (): string => `acme/${agent.uuid}/x`, 'admin', 'No agent found'],
    ['an empty slug', (): string => '', 'admin', 'No agent found'],
    [
      'an organization the database could not compare',
      (): string => `ac\u0000me/${agent.uuid}`,
      'admin',
      'No organization found',
    ],
    ['an unknown organization', (): string => `nope/${agent.uuid}`, 'admin', 'No organization found'],
  ] as const)('answers null and the refusal for %s', async (_name, slug, who, message) => {
    const response = await world.gql(AGENT, { slug: slug() }, { token: world.tokens[who] });
    expect(response.body.data).toEqual({ agent: null });
    expect(errorsOf(response)).toEqual([message]);
  });

  it('answers a token limited to another organization as for any other organization', async () => {
    const token = await world.token('admin', { organizations: ['other'] });
    const response = await world.gql(AGENT, { slug: `acme/${agent.uuid}` }, { token });
    expect(response.body.data).toEqual({ agent: null });
    expect(errorsOf(response)).toEqual(['No organization found']);
    const node = await world.gql(NODE, { id: encodeGraphqlId('Agent', agent.uuid) }, { token });
    expect(data(node)).toEqual({ node: null });
  });

  it('answers node null, without an error, for agents of other organizations and unknown ones', async () => {
    for (const [id, who] of [
      [encodeGraphqlId('Agent', foreign.uuid), 'admin'],
      [encodeGraphqlId('Agent', agent.uuid), 'otherAdmin'],
      [encodeGraphqlId('Agent', UNKNOWN_UUID), 'admin'],
    ] as const) {
      expect(data(await world.gql(NODE, { id }, { token: world.tokens[who] }))).toEqual({ node: null });
    }
    // The other organization's admin sees their own.
    expect(
      data(
        await world.gql(
          NODE,
          { id: encodeGraphqlId('Agent', foreign.uuid) },
          { token: world.tokens.otherAdmin },
        ),
      ),
    ).toEqual({ node: { id: encodeGraphqlId('Agent', foreign.uuid) } });
  });

  it('needs read_agents, as the public API', async () => {
    const token = await world.token('admin', { scopes: ['graphql', 'read_builds', 'read_organizations'] });
    for (const [query, variables, field] of [
      [AGENT, { slug: `acme/${agent.uuid}` }, 'agent'],
      [AGENT, { slug: 'acme' }, 'agent'],
      [NODE, { id: encodeGraphqlId('Agent', agent.uuid) }, 'node'],
    ] as const) {
      const response = await world.gql(query, variables, { token });
      expect(response.body.data).toEqual({ [field]: null });
      expect(errorsOf(response)).toEqual(["Your access token doesn't have the read_agents scope"]);
    }
  });

  it("shows a job's agent with the job, without read_agents, as REST embeds it", async () => {
    const { number } = await world.createBuild('gql-runs');
    const holder = await register({ name: 'embedded', tags: ['queue=runs'] });
    const jobId = await protocol.start(holder.token);
    const token = await world.token('admin', { scopes: ['graphql', 'read_builds'] });
    const job = data(
      await world.gql(
        `query($uuid: ID!) { job(uuid: $uuid) { ... on JobTypeCommand { agent { uuid name isRunningJob job { ... on JobTypeCommand { uuid } } } } } }`,
        { uuid: jobId },
        { token },
      ),
    ).job;
    expect(job.agent).toEqual({
      uuid: holder.uuid,
      name: 'embedded',
      isRunningJob: true,
      job: { uuid: jobId },
    });
    await protocol.finish(holder.token, jobId);
    expect((await restBuild('gql-runs', number)).state).toBe('passed');
  });
});

describe('what an agent is doing, as the user may see it', () => {
  let shadow: { token: string; uuid: string };
  let jobId: string;
  const QUERY = `query($slug: ID!) { agent(slug: $slug) { isRunningJob job { ... on JobTypeCommand { uuid } } } }`;

  beforeAll(async () => {
    shadow = await register({ name: 'shadow', tags: ['queue=hidden'] });
    await world.createBuild('gql-hidden');
    jobId = await protocol.start(shadow.token);
  });
  afterAll(async () => {
    await protocol.finish(shadow.token, jobId);
  });

  it('shows the job to those who may see its pipeline', async () => {
    expect(data(await world.gql(QUERY, { slug: `acme/${shadow.uuid}` })).agent).toEqual({
      isRunningJob: true,
      job: { uuid: jobId },
    });
  });

  it('tells a member who may not see the pipeline only that the agent is busy', async () => {
    const response = await world.gql(QUERY, { slug: `acme/${shadow.uuid}` }, { token: world.tokens.member });
    expect(data(response).agent).toEqual({ isRunningJob: true, job: null });
    const rest = await world.call('GET', '/v2/organizations/acme/pipelines/gql-hidden/builds/1', {
      token: world.tokens.member,
    });
    expect(rest.status).toBe(404);
  });

  it('tells a token without read_builds only that the agent is busy', async () => {
    const token = await world.token('admin', { scopes: ['graphql', 'read_agents'] });
    expect(data(await world.gql(QUERY, { slug: `acme/${shadow.uuid}` }, { token })).agent).toEqual({
      isRunningJob: true,
      job: null,
    });
  });
});

describe("an organization's agents", () => {
  const LIST = `query($slug: ID!, $first: Int, $after: String, $search: String, $metaData: [String!], $isRunningJob: Boolean) {
    organization(slug: $slug) { slug agents(first: $first, after: $after, search: $search, metaData: $metaData, isRunningJob: $isRunningJob) {
      count pageInfo { hasNextPage hasPreviousPage endCursor } edges { cursor node { uuid name isRunningJob } }
    } }
  }`;
  let busy: { token: string; uuid: string };
  let busyJob: string;

  beforeAll(async () => {
    await register({ name: 'linux-1', tags: ['queue=fleet', 'os=linux'] });
    await register({ name: 'mac-1', tags: ['queue=fleet', 'os=macos'] });
    busy = await register({ name: 'linux-busy', tags: ['queue=runs', 'os=linux'] });
    await world.createBuild('gql-runs');
    busyJob = await protocol.start(busy.token);
  });
  afterAll(async () => {
    await protocol.finish(busy.token, busyJob);
  });

  const names = (connection: { edges: Array<{ node: { name: string } }> }) =>
    connection.edges.map((edge) => edge.node.name);

  it('lists every agent of the organization, oldest first, with the count', async () => {
    const agents = data(await world.gql(LIST, { slug: 'acme', first: 100 })).organization.agents;
    expect(names(agents)).toEqual(registered.map((agent) => agent.name));
    expect(agents.count).toBe(registered.length);
    expect(agents.edges.map((edge: { node: { uuid: string } }) => edge.node.uuid)).toEqual(
      registered.map((agent) => agent.uuid),
    );
    const other = data(
      await world.gql(LIST, { slug: 'other', first: 100 }, { token: world.tokens.otherAdmin }),
    ).organization.agents;
    expect(names(other)).toEqual(['foreign']);
  });

  it('pages with first and after', async () => {
    const first = data(await world.gql(LIST, { slug: 'acme', first: 2 })).organization.agents;
    expect(names(first)).toEqual(registered.slice(0, 2).map((agent) => agent.name));
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const next = data(await world.gql(LIST, { slug: 'acme', first: 2, after: first.pageInfo.endCursor }))
      .organization.agents;
    expect(names(next)).toEqual(registered.slice(2, 4).map((agent) => agent.name));
    expect(next.pageInfo.hasPreviousPage).toBe(true);
    expect(next.count).toBe(registered.length);
  });

  it('filters by a part of the name or of a tag, by tags, and by whether they run a job', async () => {
    const list = async (variables: Record<string, unknown>) =>
      data(await world.gql(LIST, { slug: 'acme', first: 100, ...variables })).organization.agents;
    expect(names(await list({ search: 'LINUX' }))).toEqual(['alpha', 'linux-1', 'linux-busy']);
    expect(names(await list({ search: 'macos' }))).toEqual(['mac-1']);
    expect(names(await list({ search: '%' }))).toEqual([]);
    expect(names(await list({ metaData: ['os=linux'] }))).toEqual(['alpha', 'linux-1', 'linux-busy']);
    expect(names(await list({ metaData: ['os=linux', 'queue=fleet'] }))).toEqual(['linux-1']);
    expect(names(await list({ metaData: ['os=lin'] }))).toEqual([]);
    const running = await list({ isRunningJob: true });
    expect(running.edges.map((edge: { node: { isRunningJob: boolean } }) => edge.node.isRunningJob)).toEqual(
      running.edges.map(() => true),
    );
    expect(names(running)).toContain('linux-busy');
    expect(names(running)).not.toContain('linux-1');
    const idle = await list({ isRunningJob: false });
    expect(idle.count + running.count).toBe(registered.length);
    expect(names(idle)).toContain('linux-1');
    expect((await list({ search: 'linux', isRunningJob: true })).count).toBe(1);
  });

  it('refuses an unstorable search and a missing scope with clear messages, the rest still shown', async () => {
    const bad = await world.gql(LIST, { slug: 'acme', search: 'a\u0000b' });
    expect(bad.body.data.organization).toEqual({ slug: 'acme', agents: null });
    expect(errorsOf(bad)).toEqual(["search can't contain NUL characters or unpaired surrogates"]);
    for (const [variables, message] of [
      [{ metaData: ['os=\u0000'] }, "metaData can't contain NUL characters or unpaired surrogates"],
      [{ metaData: Array.from({ length: 51 }, (_, i) => `k=${i}`) }, 'metaData takes at most 50 tags'],
      [{ search: 'x'.repeat(256) }, 'search is too long (maximum is 255 characters)'],
      [{ first: 501 }, 'Argument "first" must be between 0 and 500'],
    ] as const) {
      const response = await world.gql(LIST, { slug: 'acme', ...variables });
      expect(response.status).toBe(200);
      expect(response.body.data.organization.agents).toBeNull();
      expect(errorsOf(response)).toEqual([message]);
    }
    const token = await world.token('bystander', { scopes: ['graphql', 'read_organizations'] });
    const refused = await world.gql(LIST, { slug: 'acme' }, { token });
    expect(refused.body.data.organization).toEqual({ slug: 'acme', agents: null });
    expect(errorsOf(refused)).toEqual(["Your access token doesn't have the read_agents scope"]);
  });
});

describe('jobs an agent failed, and their retries', () => {
  const RETRY = `mutation($id: ID!, $clientMutationId: String) {
    jobTypeCommandRetry(input: { id: $id, clientMutationId: $clientMutationId }) {
      clientMutationId
      jobTypeCommand { uuid state retried passed exitStatus }
      retriedInJobTypeCommand { uuid state retried retriesCount retryType exitStatus agent { uuid }
        retrySource { __typename ... on JobTypeCommand { uuid retried } } }
    }
  }`;
  let runner: { token: string; uuid: string };

  beforeAll(async () => {
    runner = await register({ name: 'runner', tags: ['queue=runs'] });
  });

  /** A build of gql-runs whose one job the runner failed with `exitStatus`; the REST job. */
  async function failedBuild(exitStatus = 1) {
    const { number } = await world.createBuild('gql-runs');
    await protocol.run(runner.token, exitStatus);
    const build = await restBuild('gql-runs', number);
    expect(build.state).toBe('failed');
    return { number, job: build.jobs[0] };
  }

  it('retries a failed job as REST does: the same new run, the old one retried', async () => {
    const viaGraphql = await failedBuild(2);
    const viaRest = await failedBuild(2);
    const payload = data(
      await world.gql(RETRY, { id: viaGraphql.job.graphql_id, clientMutationId: 'retry-1' }),
    ).jobTypeCommandRetry;
    const rest = await world.call('PUT', `${jobPath('gql-runs', viaRest.number, viaRest.job.id)}/retry`);
    expect(rest.status, rest.text).toBe(200);
    expect(payload).toEqual({
      clientMutationId: 'retry-1',
      jobTypeCommand: {
        uuid: viaGraphql.job.id,
        state: 'FINISHED',
        retried: true,
        passed: false,
        exitStatus: '2',
      },
      retriedInJobTypeCommand: {
        uuid: expect.any(String),
        state: rest.body.state.toUpperCase(),
        retried: rest.body.retried,
        retriesCount: rest.body.retries_count,
        retryType: rest.body.retry_type.toUpperCase(),
        exitStatus: null,
        agent: null,
        retrySource: { __typename: 'JobTypeCommand', uuid: viaGraphql.job.id, retried: true },
      },
    });
    expect(rest.body).toMatchObject({ state: 'scheduled', retries_count: 1, retry_type: 'manual' });
    // Both builds now look the same to REST: reopened, the old run pointing at the new one.
    const [graphqlBuild, restBuilt] = [
      await restBuild('gql-runs', viaGraphql.number, true),
      await restBuild('gql-runs', viaRest.number, true),
    ];
    expect(graphqlBuild.state).toBe(restBuilt.state);
    const retried = graphqlBuild.jobs.find((job: { id: string }) => job.id === viaGraphql.job.id);
    expect(retried).toMatchObject({
      retried: true,
      retried_in_job_id: payload.retriedInJobTypeCommand.uuid,
    });
    expect(graphqlBuild.jobs.map((job: { state: string }) => job.state)).toEqual(
      restBuilt.jobs.map((job: { state: string }) => job.state),
    );
    // The runner runs both new runs, so the next test's build is the only one waiting.
    expect(await protocol.drain(runner.token)).toEqual([payload.retriedInJobTypeCommand.uuid, rest.body.id]);
  });

  it("shows a retry's source in the build's jobs, where only the latest runs are listed", async () => {
    const failed = await failedBuild(3);
    const retry = data(await world.gql(RETRY, { id: failed.job.graphql_id })).jobTypeCommandRetry;
    const build = data(
      await world.gql(
        `query($slug: ID!) { build(slug: $slug) { state jobs(first: 10) { count edges { node { ... on JobTypeCommand {
          uuid state retriesCount retrySource { ... on JobTypeCommand { uuid exitStatus retried agent { uuid } } } } } } } } }`,
        { slug: `acme/gql-runs/${failed.number}` },
      ),
    ).build;
    expect(build.state).toBe('RUNNING');
    expect(build.jobs.count).toBe(1);
    expect(build.jobs.edges[0].node).toEqual({
      uuid: retry.retriedInJobTypeCommand.uuid,
      state: 'SCHEDULED',
      retriesCount: 1,
      retrySource: { uuid: failed.job.id, exitStatus: '3', retried: true, agent: { uuid: runner.uuid } },
    });
    // The runner takes the new run and passes it: the build passes, as REST shows.
    const rerun = await protocol.run(runner.token, 0);
    expect(rerun).toBe(retry.retriedInJobTypeCommand.uuid);
    expect((await restBuild('gql-runs', failed.number)).state).toBe('passed');
  });

  it('refuses a second retry and a retry of an unfinished job with the REST message', async () => {
    const failed = await failedBuild(1);
    data(await world.gql(RETRY, { id: failed.job.graphql_id }));
    for (const [id, path] of [
      [failed.job.graphql_id, `${jobPath('gql-runs', failed.number, failed.job.id)}/retry`],
    ] as const) {
      const response = await world.gql(RETRY, { id });
      expect(response.body.data).toEqual({ jobTypeCommandRetry: null });
      expect(errorsOf(response)).toEqual(['This job has already been retried']);
      const rest = await world.call('PUT', path);
      expect(rest.status).toBe(422);
      expect(rest.body).toEqual({ message: 'This job has already been retried' });
    }
    const { number, jobs } = await world.createBuild('gql-runs');
    const pending = (await restBuild('gql-runs', number)).jobs[0];
    expect(pending.id).toBe(jobs[0].id);
    const response = await world.gql(RETRY, { id: pending.graphql_id });
    expect(errorsOf(response)).toEqual(['This job cannot be retried when it is scheduled']);
    const rest = await world.call('PUT', `${jobPath('gql-runs', number, pending.id)}/retry`);
    expect(rest.body).toEqual({ message: 'This job cannot be retried when it is scheduled' });
    expect(await protocol.drain(runner.token)).toHaveLength(2);
  });

  it('shows the signal that killed a job and why, and when a canceled job stopped', async () => {
    const { number } = await world.createBuild('gql-runs');
    const jobId = await protocol.start(runner.token);
    const cancel = await world.call(
      'PUT',
      `/v2/organizations/acme/pipelines/gql-runs/builds/${number}/cancel`,
    );
    expect(cancel.status, cancel.text).toBe(200);
    expect(await protocol.jobState(runner.token, jobId)).toBe('canceling');
    const QUERY = `query($uuid: ID!) { job(uuid: $uuid) { ... on JobTypeCommand { state passed exitStatus signal signalReason canceledAt finishedAt } } }`;
    expect(data(await world.gql(QUERY, { uuid: jobId })).job).toMatchObject({
      state: 'CANCELING',
      canceledAt: null,
    });
    await protocol.finish(runner.token, jobId, { exitStatus: -1, signal: 'SIGTERM', signalReason: 'cancel' });
    const [rest] = (await restBuild('gql-runs', number)).jobs;
    expect(rest).toMatchObject({ state: 'canceled', exit_status: -1 });
    expect(data(await world.gql(QUERY, { uuid: jobId })).job).toEqual({
      state: 'CANCELED',
      passed: false,
      exitStatus: '-1',
      signal: 'SIGTERM',
      signalReason: 'CANCEL',
      canceledAt: rest.finished_at,
      finishedAt: rest.finished_at,
    });

    // A reason the public API does not name is no reason.
    await world.createBuild('gql-runs');
    const killed = await protocol.start(runner.token);
    await protocol.finish(runner.token, killed, {
      exitStatus: -1,
      signal: 'SIGKILL',
      signalReason: 'oom_killer',
    });
    expect(data(await world.gql(QUERY, { uuid: killed })).job).toMatchObject({
      state: 'FINISHED',
      passed: false,
      signal: 'SIGKILL',
      signalReason: null,
      canceledAt: null,
    });
  });
});

describe('a command job canceled on its own', () => {
  const CANCEL = `mutation($id: ID!, $clientMutationId: String) {
    jobTypeCommandCancel(input: { id: $id, clientMutationId: $clientMutationId }) {
      clientMutationId
      jobTypeCommand { uuid label state passed canceledAt build { state } }
    }
  }`;
  let worker: { token: string; uuid: string };

  beforeAll(async () => {
    worker = await register({ name: 'worker', tags: ['queue=pair'] });
  });

  it('cancels a job no agent holds at once; the build goes on and fails at the end', async () => {
    const { number } = await world.createBuild('gql-pair');
    const [lint, test] = (await restBuild('gql-pair', number)).jobs;
    const payload = data(
      await world.gql(CANCEL, { id: lint.graphql_id, clientMutationId: 'cancel-1' }),
    ).jobTypeCommandCancel;
    expect(payload).toEqual({
      clientMutationId: 'cancel-1',
      jobTypeCommand: {
        uuid: lint.id,
        label: ':mag: Lint',
        state: 'CANCELED',
        passed: false,
        canceledAt: expect.any(String),
        // Failing already, as after a failed job, while its other job still runs.
        build: { state: 'FAILING' },
      },
    });
    // Only the other job is left for agents; it passes, and the build fails for the canceled one.
    expect(await protocol.run(worker.token, 0)).toBe(test.id);
    const build = await restBuild('gql-pair', number);
    expect(build.state).toBe('failed');
    expect(build.jobs.map((job: { state: string }) => job.state)).toEqual(['canceled', 'passed']);
    expect(await protocol.drain(worker.token)).toEqual([]);
  });

  it('has the agent stop a job it runs, then the build fails', async () => {
    const { number } = await world.createBuild('gql-pair');
    const started = await protocol.start(worker.token);
    const job = (await restBuild('gql-pair', number)).jobs.find(
      (each: { id: string }) => each.id === started,
    );
    const payload = data(await world.gql(CANCEL, { id: job.graphql_id })).jobTypeCommandCancel;
    expect(payload.jobTypeCommand).toMatchObject({ uuid: started, state: 'CANCELING', canceledAt: null });
    expect(await protocol.jobState(worker.token, started)).toBe('canceling');
    await protocol.finish(worker.token, started, {
      exitStatus: -1,
      signal: 'SIGTERM',
      signalReason: 'cancel',
    });
    await protocol.run(worker.token, 0);
    const build = await restBuild('gql-pair', number);
    expect(build.jobs.find((each: { id: string }) => each.id === started).state).toBe('canceled');
    expect(build.state).toBe('failed');
  });

  it('lets the build pass when the canceled job may soft-fail', async () => {
    const { number } = await world.createBuild('gql-soft');
    const [lint] = (await restBuild('gql-soft', number)).jobs;
    expect(
      data(await world.gql(CANCEL, { id: lint.graphql_id })).jobTypeCommandCancel.jobTypeCommand.state,
    ).toBe('CANCELED');
    await protocol.run(worker.token, 0);
    expect((await restBuild('gql-soft', number)).state).toBe('passed');
  });

  it('refuses a finished job, a block step, a token without write_builds, and an unknown id', async () => {
    const { number } = await world.createBuild('gql-pair');
    await protocol.run(worker.token, 0);
    await protocol.run(worker.token, 0);
    const [passed] = (await restBuild('gql-pair', number)).jobs;
    expect(errorsOf(await world.gql(CANCEL, { id: passed.graphql_id }))).toEqual([
      'A job cannot be canceled when it is passed',
    ]);
    // A block step, whatever its state (the build is canceled after: no agent of this file runs it).
    const gated = await world.createBuild('gql-deploy');
    const gate = (await restBuild('gql-deploy', gated.number)).jobs[1];
    expect(errorsOf(await world.gql(CANCEL, { id: gate.graphql_id }))).toEqual([
      'Only command jobs can be canceled',
    ]);
    const canceled = await world.call(
      'PUT',
      `/v2/organizations/acme/pipelines/gql-deploy/builds/${gated.number}/cancel`,
    );
    expect(canceled.status, canceled.text).toBe(200);
    const pending = await world.createBuild('gql-pair');
    const [first] = (await restBuild('gql-pair', pending.number)).jobs;
    const reader = await world.token('admin', { scopes: ['graphql', 'read_builds'] });
    expect(errorsOf(await world.gql(CANCEL, { id: first.graphql_id }, { token: reader }))).toEqual([
      "Your access token doesn't have the write_builds scope",
    ]);
    expect(
      errorsOf(
        await world.gql(CANCEL, { id: encodeGraphqlId('Job', '00000000-0000-4000-8000-000000000000') }),
      ),
    ).toEqual(['No job found']);
    // Nothing was changed by the refusals.
    expect((await restBuild('gql-pair', pending.number)).jobs[0].state).toBe('scheduled');
    expect(await protocol.drain(worker.token)).toHaveLength(2);
  });
});

describe('block steps and their unblocking', () => {
  const UNBLOCK = `mutation($id: ID!, $fields: JSON, $clientMutationId: String) {
    jobTypeBlockUnblock(input: { id: $id, fields: $fields, clientMutationId: $clientMutationId }) {
      clientMutationId
      jobTypeBlock { uuid label state isUnblockable unblockedAt unblockedBy { uuid name } build { state blocked } }
    }
  }`;
  let deployer: { token: string; uuid: string };

  beforeAll(async () => {
    deployer = await register({ name: 'deployer', tags: ['queue=deploy'] });
  });

  /** A build of gql-deploy blocked at its gate, its first step run by the deployer; the REST build. */
  async function blockedBuild() {
    const { number } = await world.createBuild('gql-deploy');
    await protocol.run(deployer.token, 0);
    const build = await restBuild('gql-deploy', number);
    expect(build).toMatchObject({ state: 'passed', blocked: true });
    return build;
  }

  it('shows a blocked step as unblockable, and unblocks it as REST does', async () => {
    const viaGraphql = await blockedBuild();
    const viaRest = await blockedBuild();
    const gate = viaGraphql.jobs[1];
    const before = data(
      await world.gql(
        `query($uuid: ID!) { job(uuid: $uuid) { __typename ... on JobTypeBlock { state label isUnblockable unblockedAt unblockedBy { name } step { key } } } }`,
        { uuid: gate.id },
      ),
    ).job;
    expect(before).toEqual({
      __typename: 'JobTypeBlock',
      state: 'BLOCKED',
      label: gate.name,
      isUnblockable: true,
      unblockedAt: null,
      unblockedBy: null,
      step: { key: 'gate' },
    });

    const payload = data(
      await world.gql(UNBLOCK, { id: gate.graphql_id, fields: '{"release":"v1"}', clientMutationId: 'go' }),
    ).jobTypeBlockUnblock;
    const rest = await world.call(
      'PUT',
      `${jobPath('gql-deploy', viaRest.number, viaRest.jobs[1].id)}/unblock`,
      {
        body: { fields: { release: 'v1' } },
      },
    );
    expect(rest.status, rest.text).toBe(200);
    expect(payload).toEqual({
      clientMutationId: 'go',
      jobTypeBlock: {
        uuid: gate.id,
        label: gate.name,
        state: rest.body.state.toUpperCase(),
        isUnblockable: false,
        unblockedAt: expect.stringMatching(/Z$/),
        unblockedBy: { uuid: rest.body.unblocked_by.id, name: rest.body.unblocked_by.name },
        build: { state: 'RUNNING', blocked: false },
      },
    });
    expect(rest.body.unblocked_by.id).toBe(world.users.admin.id);
    // Both builds go on alike: running, the last step scheduled for the deployer.
    const [graphqlBuild, restBuilt] = [
      await restBuild('gql-deploy', viaGraphql.number),
      await restBuild('gql-deploy', viaRest.number),
    ];
    for (const build of [graphqlBuild, restBuilt]) {
      expect(build).toMatchObject({ state: 'running', blocked: false });
      expect(build.jobs.map((job: { state: string }) => job.state)).toEqual([
        'passed',
        'unblocked',
        'scheduled',
      ]);
    }
    await protocol.run(deployer.token, 0);
    await protocol.run(deployer.token, 0);
    expect((await restBuild('gql-deploy', viaGraphql.number)).state).toBe('passed');
  });

  it('refuses to unblock twice, and to unblock a command job, with the REST message', async () => {
    const build = await blockedBuild();
    const gate = build.jobs[1];
    data(await world.gql(UNBLOCK, { id: gate.graphql_id }));
    const again = await world.gql(UNBLOCK, { id: gate.graphql_id });
    expect(again.body.data).toEqual({ jobTypeBlockUnblock: null });
    const rest = await world.call('PUT', `${jobPath('gql-deploy', build.number, gate.id)}/unblock`);
    expect(rest.status).toBe(422);
    expect(errorsOf(again)).toEqual([rest.body.message]);
    const command = build.jobs[0];
    const wrong = await world.gql(UNBLOCK, { id: command.graphql_id });
    const restWrong = await world.call('PUT', `${jobPath('gql-deploy', build.number, command.id)}/unblock`);
    expect(restWrong.status).toBe(422);
    expect(errorsOf(wrong)).toEqual([restWrong.body.message]);
    expect(restWrong.body.message).toBe('This job cannot be unblocked when it is passed');
    await protocol.run(deployer.token, 0);
  });

  it('refuses fields that are not JSON', async () => {
    const response = await world.gql(UNBLOCK, { id: encodeGraphqlId('Job', UNKNOWN_UUID), fields: '{nope' });
    expect(response.body.data).toBeUndefined();
    expect(errorsOf(response)[0]).toMatch(/JSON must be a string holding JSON/);
  });
});

describe('the same refusals for retry and unblock', () => {
  const RETRY = `mutation($id: ID!) { jobTypeCommandRetry(input: { id: $id }) { jobTypeCommand { uuid } } }`;
  const UNBLOCK = `mutation($id: ID!) { jobTypeBlockUnblock(input: { id: $id }) { jobTypeBlock { uuid } } }`;
  // biome-ignore lint/suspicious/noExplicitAny: REST bodies as the untyped JSON a client reads
  const jobs: Record<string, any> = {};

  beforeAll(async () => {
    for (const pipeline of ['docs', 'secret', 'web']) {
      const { number } = await world.createBuild(pipeline);
      jobs[pipeline] = { number, ...(await restBuild(pipeline, number)).jobs[0] };
    }
  });

  it.each([
    ['a read_only member', 'docs', 'member', undefined, 403, 'Forbidden', undefined],
    [
      'a member who may not see the pipeline',
      'secret',
      'member',
      undefined,
      404,
      'No pipeline found',
      undefined,
    ],
    ['another organization', 'web', 'otherAdmin', undefined, 404, 'No organization found', 'No job found'],
    [
      'a token without write_builds',
      'web',
      'admin',
      ['graphql', 'read_builds'],
      403,
      "Your access token doesn't have the write_builds scope",
      undefined,
    ],
  ] as const)(
    '%s: REST and GraphQL refuse alike',
    async (_name, pipeline, who, scopes, status, message, byId) => {
      const token = scopes ? await world.token(who, { scopes: [...scopes] }) : world.tokens[who];
      const job = jobs[pipeline];
      for (const [action, mutation, field] of [
        ['retry', RETRY, 'jobTypeCommandRetry'],
        ['unblock', UNBLOCK, 'jobTypeBlockUnblock'],
      ] as const) {
        const rest = await world.call('PUT', `${jobPath(pipeline, job.number, job.id)}/${action}`, { token });
        expect(rest.status, rest.text).toBe(status);
        expect(rest.body).toEqual({ message });
        const graphql = await world.gql(mutation, { id: job.graphql_id }, { token });
        expect(graphql.body.data).toEqual({ [field]: null });
        expect(errorsOf(graphql)).toEqual([byId ?? message]);
      }
    },
  );

  it('answers No job found for ids that name no job', async () => {
    for (const id of [
      encodeGraphqlId('Job', UNKNOWN_UUID),
      encodeGraphqlId('Build', jobs.web.id),
      'nope',
      jobs.web.id,
    ]) {
      for (const [mutation, field] of [
        [RETRY, 'jobTypeCommandRetry'],
        [UNBLOCK, 'jobTypeBlockUnblock'],
      ] as const) {
        const response = await world.gql(mutation, { id });
        expect(response.body.data).toEqual({ [field]: null });
        expect(errorsOf(response)).toEqual(['No job found']);
      }
    }
  });

  it('changes nothing when refusing', async () => {
    for (const pipeline of ['docs', 'secret', 'web']) {
      const build = await restBuild(pipeline, jobs[pipeline].number, true);
      expect(build.jobs.map((job: { state: string }) => job.state)).toEqual([
        'scheduled',
        'waiting',
        'waiting',
        'waiting',
      ]);
      expect(build.jobs.some((job: { retried: boolean }) => job.retried)).toBe(false);
    }
  });
});

/**
 * Operations shaped like clients' (an agent dashboard paging an organization's agents, the CLI's agent
 * view, its job list with agents and retry state, its retry and unblock commands): each validates
 * against the public API's schema (the reference subset) and ours, then runs without errors.
 */
const REFERENCE = buildSchema(
  readFileSync(
    resolve(import.meta.dirname, '../fixtures/reference/buildkite-graphql-subset.graphql'),
    'utf8',
  ),
);

const CLIENT_OPERATIONS = {
  listAgents: `query ListAgents($slug: ID!, $cursor: String, $metaData: [String!]) {
    organization(slug: $slug) {
      agents(first: 100, after: $cursor, metaData: $metaData) {
        count
        pageInfo { hasNextPage endCursor }
        edges { node {
          id uuid name hostname ipAddress version connectionState metaData isRunningJob createdAt connectedAt
          job { __typename ... on JobTypeCommand { id uuid state url build { number pipeline { slug } } } }
        } }
      }
    }
  }`,
  getAgent: `query GetAgent($slug: ID!) {
    agent(slug: $slug) {
      id uuid name connectionState hostname ipAddress userAgent version pid metaData
      createdAt connectedAt disconnectedAt heartbeatAt isRunningJob organization { id slug }
    }
  }`,
  agentNode: `query AgentNode($id: ID!) {
    node(id: $id) { __typename id ... on Agent { uuid name connectionState isRunningJob } }
  }`,
  buildJobs: `query BuildJobs($slug: ID!) {
    build(slug: $slug) {
      state blockedState
      jobs(first: 100) { count edges { node {
        __typename
        ... on JobTypeCommand { id uuid label state exitStatus passed softFailed command url
          createdAt scheduledAt runnableAt startedAt finishedAt canceledAt signal signalReason
          retried retriesCount retryType retrySource { ... on JobTypeCommand { uuid } }
          agent { id uuid name hostname } }
        ... on JobTypeBlock { id uuid label state isUnblockable unblockedAt unblockedBy { id name } }
        ... on JobTypeWait { id uuid state }
      } } }
    }
  }`,
  retryJob: `mutation RetryJob($id: ID!) {
    jobTypeCommandRetry(input: { id: $id }) {
      jobTypeCommand { id uuid state retried }
      retriedInJobTypeCommand { id uuid state url retryType retriesCount }
    }
  }`,
  unblockJob: `mutation UnblockJob($id: ID!, $fields: JSON) {
    jobTypeBlockUnblock(input: { id: $id, fields: $fields }) {
      jobTypeBlock { id uuid state unblockedAt unblockedBy { id name } }
    }
  }`,
} as const;

describe('client operations on agents and jobs', () => {
  it.each(Object.entries(CLIENT_OPERATIONS))(
    '%s validates against the reference schema and ours',
    (_name, operation) => {
      const document = parse(operation);
      expect(validate(REFERENCE, document).map((error) => error.message)).toEqual([]);
      expect(validate(schema, document).map((error) => error.message)).toEqual([]);
    },
  );

  it('run against the server: list and view agents, read a build, retry and unblock its jobs', async () => {
    const run = async (name: keyof typeof CLIENT_OPERATIONS, variables: Record<string, unknown>) =>
      data(await world.gql(CLIENT_OPERATIONS[name], variables));
    const client = await register({ name: 'client-run', tags: ['queue=deploy', 'os=linux'] });
    const listed = (await run('listAgents', { slug: 'acme', metaData: ['queue=deploy'] })).organization
      .agents;
    expect(listed.edges.map((edge: { node: { name: string } }) => edge.node.name)).toEqual([
      'deployer',
      'client-run',
    ]);
    expect((await run('getAgent', { slug: `acme/${client.uuid}` })).agent).toMatchObject({
      uuid: client.uuid,
      connectionState: 'connected',
      isRunningJob: false,
    });
    const id = listed.edges[1].node.id;
    expect((await run('agentNode', { id })).node).toMatchObject({
      __typename: 'Agent',
      id,
      name: 'client-run',
    });

    // A deploy build whose first step fails: retried and passed, then unblocked, as a client would.
    const { number } = await world.createBuild('gql-deploy');
    await protocol.run(client.token, 1);
    const failed = (await run('buildJobs', { slug: `acme/gql-deploy/${number}` })).build;
    // Everything before the gate settled: the build blocks, keeping its failed state (rule B1).
    expect(failed).toMatchObject({ state: 'BLOCKED', blockedState: 'FAILED' });
    const [build, gate] = failed.jobs.edges.map((edge: { node: unknown }) => edge.node);
    expect(build).toMatchObject({
      state: 'FINISHED',
      passed: false,
      exitStatus: '1',
      agent: { name: 'client-run' },
    });
    expect(gate).toMatchObject({ __typename: 'JobTypeBlock', state: 'BLOCKED', isUnblockable: true });
    const retried = (await run('retryJob', { id: build.id })).jobTypeCommandRetry;
    expect(retried.retriedInJobTypeCommand).toMatchObject({ state: 'SCHEDULED', retryType: 'MANUAL' });
    await protocol.run(client.token, 0);
    const blocked = (await run('buildJobs', { slug: `acme/gql-deploy/${number}` })).build;
    expect(blocked.state).toBe('BLOCKED');
    expect(blocked.jobs.edges[0].node).toMatchObject({ state: 'FINISHED', passed: true, retriesCount: 1 });
    const unblocked = (await run('unblockJob', { id: gate.id, fields: '{}' })).jobTypeBlockUnblock;
    expect(unblocked.jobTypeBlock).toMatchObject({ state: 'UNBLOCKED', unblockedBy: { name: 'Ada Admin' } });
    await protocol.run(client.token, 0);
    const passed = (await run('buildJobs', { slug: `acme/gql-deploy/${number}` })).build;
    expect(passed.state).toBe('PASSED');
    expect(passed.jobs.edges[0].node.retrySource).toEqual({ uuid: build.uuid });
  });
});
