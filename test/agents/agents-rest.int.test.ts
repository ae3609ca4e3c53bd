import { encodeGraphqlId, SCOPES } from '@ci/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentProtocol } from '../support/agent-protocol';
import {
  expectMessage,
  expectNoContent,
  expectScopeHeaders,
  ISO_MS_Z,
  linksOf,
  UNKNOWN_UUID,
} from '../support/answers';
import { recorded, shapeDifferences } from '../support/recorded';
import { itRefusesWhomItMust } from '../support/scope-matrix';
import { trpcFailure } from '../support/trpc';
import { API_URL, startWorld, WEB_URL, type World } from '../support/world';

/**
 * The REST agents API (`/v2/organizations/{org}/agents…`) through the real HTTP server, with agents that
 * register, connect and take jobs through `/v3`, driven from the test.
 */

type Json = Record<string, unknown>;
type Agent = { token: string; uuid: string; name: string };

/** The recorded agent answers (test/fixtures/recorded); `busy_agent`: the agent of a recorded build's job. */
const RECORDED = {
  agent_list: recorded('agent_list').response as { body: Json[] },
  agent_retrieve: recorded('agent_retrieve').response as { body: Json },
  busy_agent: (recorded('build_retrieve').response.body as { jobs: { agent: Json }[] }).jobs[0]!.agent,
};

/** Every key of the recorded agent, with what we add (`graphql_id`, the spec's; the pause). */
const AGENT_KEYS = [
  ...Object.keys(RECORDED.agent_retrieve.body),
  'graphql_id',
  'paused',
  'paused_at',
  'paused_note',
  'paused_until',
];

/** Every key the recorded answer has, ours has, with the same JSON type (test/support/recorded.ts). */
function expectRecordedShape(ours: unknown, theirs: unknown) {
  expect(shapeDifferences(ours, theirs)).toEqual([]);
}

let world: World;
let protocol: ReturnType<typeof agentProtocol>;
let elsewhere: ReturnType<typeof agentProtocol>;
let agents: { alpha: Agent; beta: Agent; gamma: Agent; gone: Agent; foreign: Agent };

const AGENTS = '/v2/organizations/acme/agents';
const agentPath = (uuid: string, organization = 'acme') => `/v2/organizations/${organization}/agents/${uuid}`;
const get = (path: string, token?: string) => world.call('GET', path, token ? { token } : {});
const put = (path: string, body?: unknown, token?: string) =>
  world.call('PUT', path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });

let pipelines = 0;
/** A pipeline of `acme` with one command step for agents tagged `queue=<queue>`, and a build of it. */
async function buildOn(queue: string) {
  const name = `agents-rest-${++pipelines}`;
  const { slug } = await world.server.useCases.admin.createPipeline({
    organization: 'acme',
    name,
    repository: `git@example.com:acme/${name}.git`,
    steps: `steps:\n  - label: work\n    command: "make work"\n    agents:\n      queue: ${queue}\n`,
  });
  const build = await world.createBuild(slug);
  return { pipeline: slug, number: build.number as number, jobId: build.jobs[0].id as string };
}

beforeAll(async () => {
  world = await startWorld();
  const admin = world.server.useCases.admin;
  protocol = agentProtocol(world.server, (await admin.createAgentToken({ organization: 'acme' })).secret);
  elsewhere = agentProtocol(world.server, (await admin.createAgentToken({ organization: 'other' })).secret);
  agents = {
    alpha: await protocol.register({ name: 'alpha', tags: ['queue=alpha'], version: '3.80.0' }),
    beta: await protocol.register({ name: 'beta', tags: ['queue=beta', 'os=linux'], version: '3.81.0' }),
    gamma: await protocol.register({ name: 'gamma', tags: ['queue=gamma'], version: '3.81.0' }),
    gone: await protocol.register({ name: 'gone', tags: ['queue=gone'] }),
    foreign: await elsewhere.register({ name: 'foreign', tags: ['queue=foreign'] }),
  };
  await protocol.disconnect(agents.gone.token);
});
afterAll(async () => {
  await world?.close();
});

describe('GET /v2/organizations/{org}/agents', () => {
  it('lists the agents still there, oldest first, in the recorded shape', async () => {
    const response = await get(AGENTS);
    expect(response.status, response.text).toBe(200);
    expectScopeHeaders(response, 'read_agents', SCOPES);
    const names = (response.body as Json[]).map((agent) => agent.name);
    expect(names).toEqual(['alpha', 'beta', 'gamma']);
    const [alpha] = response.body as Json[];
    expect(Object.keys(alpha!).sort()).toEqual([...AGENT_KEYS].sort());
    expectRecordedShape(alpha, RECORDED.agent_list.body[0]);
    expect(alpha).toMatchObject({
      id: agents.alpha.uuid,
      graphql_id: encodeGraphqlId('Agent', agents.alpha.uuid),
      url: `${API_URL}/v2/organizations/acme/agents/${agents.alpha.uuid}`,
      web_url: `${WEB_URL}/organizations/acme/agents/${agents.alpha.uuid}`,
      name: 'alpha',
      connection_state: 'connected',
      hostname: 'alpha.internal',
      user_agent: 'buildkite-agent/3.80.0 (linux; amd64)',
      version: '3.80.0',
      creator: null,
      job: null,
      last_job_finished_at: null,
      priority: 0,
      meta_data: ['queue=alpha'],
      paused: false,
      paused_at: null,
      paused_note: null,
      paused_until: null,
    });
    expect(alpha!.created_at).toMatch(ISO_MS_Z);
  });

  it.each([
    ['name=beta', ['beta']],
    ['hostname=gamma.internal', ['gamma']],
    ['version=3.81.0', ['beta', 'gamma']],
    ['version=3.81.0&name=gamma', ['gamma']],
    ['name=bet', []],
    ['name=gone', []],
    ['name=', ['alpha', 'beta', 'gamma']],
  ])('narrows the list by %s (exact)', async (query, names) => {
    const response = await get(`${AGENTS}?${query}`);
    expect(response.status, response.text).toBe(200);
    expect((response.body as Json[]).map((agent) => agent.name)).toEqual(names);
  });

  it('pages with page and per_page, and a Link header like every list', async () => {
    const first = await get(`${AGENTS}?per_page=2`);
    expect((first.body as Json[]).map((agent) => agent.name)).toEqual(['alpha', 'beta']);
    expect(linksOf(first.headers.get('link'))).toEqual({
      next: `${API_URL}${AGENTS}?page=2&per_page=2`,
      last: `${API_URL}${AGENTS}?page=2&per_page=2`,
    });
    const second = await get(`${AGENTS}?version=3.81.0&page=2&per_page=1`);
    expect((second.body as Json[]).map((agent) => agent.name)).toEqual(['gamma']);
    expect(linksOf(second.headers.get('link'))).toEqual({
      first: `${API_URL}${AGENTS}?version=3.81.0&page=1&per_page=1`,
      prev: `${API_URL}${AGENTS}?version=3.81.0&page=1&per_page=1`,
    });
    expect((await get(`${AGENTS}?page=9`)).body).toEqual([]);
    expect((await get(AGENTS)).headers.get('link')).toBeNull();
  });

  it.each([
    ['page=x', 'page must be a positive integer'],
    ['name=%00', "name can't contain NUL characters or unpaired surrogates"],
    [`hostname=${'h'.repeat(256)}`, 'hostname is too long (maximum is 255 characters)'],
  ])('answers 400 to %s', async (query, message) => {
    expectMessage(await get(`${AGENTS}?${query}`), 400, message);
  });

  itRefusesWhomItMust({
    world: () => world,
    scope: 'read_agents',
    organization: true,
    send: (token, organization) => world.call('GET', `/v2/organizations/${organization}/agents`, { token }),
  });
});

describe('GET /v2/organizations/{org}/agents/{id}', () => {
  it('answers the agent in the recorded shape, a disconnected one too', async () => {
    const response = await get(agentPath(agents.beta.uuid));
    expect(response.status, response.text).toBe(200);
    expectScopeHeaders(response, 'read_agents', SCOPES);
    expect(Object.keys(response.body).sort()).toEqual([...AGENT_KEYS].sort());
    expectRecordedShape(response.body, RECORDED.agent_retrieve.body);
    expect(response.body).toMatchObject({ name: 'beta', meta_data: ['queue=beta', 'os=linux'] });
    const list = await get(`${AGENTS}?name=beta`);
    expect(list.body).toEqual([response.body]);

    const gone = await get(agentPath(agents.gone.uuid));
    expect(gone.status).toBe(200);
    expect(gone.body.connection_state).toBe('disconnected');
  });

  it.each([
    ['an unknown UUID', () => agentPath(UNKNOWN_UUID)],
    ['a malformed id', () => agentPath('not-a-uuid')],
    ["another organization's agent", () => agentPath(agents.foreign.uuid)],
  ])('answers 404 "No agent found" to %s', async (_name, path) => {
    expectMessage(await get(path()), 404, 'No agent found');
  });

  it('shows the job the agent holds as builds show it, and when it last finished one', async () => {
    const { pipeline, number, jobId } = await buildOn('alpha');
    const started = await protocol.start(agents.alpha.token);
    expect(started).toBe(jobId);
    const busy = await get(agentPath(agents.alpha.uuid));
    const build = await get(`/v2/organizations/acme/pipelines/${pipeline}/builds/${number}`);
    expect(busy.body.job).toEqual(build.body.jobs[0]);
    expect(busy.body.job.state).toBe('running');
    expect(busy.body.job.agent).toMatchObject({ id: agents.alpha.uuid, name: 'alpha' });
    // A token that may not read builds learns nothing of the job.
    const agentsOnly = await world.token('admin', { scopes: ['read_agents'] });
    expect((await get(agentPath(agents.alpha.uuid), agentsOnly)).body.job).toBeNull();

    await protocol.finish(agents.alpha.token, jobId);
    const idle = await get(agentPath(agents.alpha.uuid));
    expect(idle.body.job).toBeNull();
    expect(idle.body.last_job_finished_at).toMatch(ISO_MS_Z);
    expectRecordedShape(idle.body, RECORDED.busy_agent);
  });

  itRefusesWhomItMust({
    world: () => world,
    scope: 'read_agents',
    organization: true,
    send: (token, organization) => world.call('GET', agentPath(agents.alpha.uuid, organization), { token }),
  });
});

describe('PUT /v2/organizations/{org}/agents/{id}/stop', () => {
  it('answers 204; the agent is told to disconnect, takes no job, and ends stopped', async () => {
    const agent = await protocol.register({ name: 'stop-me', tags: ['queue=stop-me'] });
    await buildOn('stop-me');
    expectNoContent(await put(`${agentPath(agent.uuid)}/stop`, { force: false }));
    expect((await get(agentPath(agent.uuid))).body.connection_state).toBe('stopping');
    expect(await protocol.v3('GET', '/ping', agent.token)).toEqual({ action: 'disconnect' });
    await protocol.disconnect(agent.token);
    expect((await get(agentPath(agent.uuid))).body.connection_state).toBe('stopped');
    expect(((await get(AGENTS)).body as Json[]).map((listed) => listed.name)).not.toContain('stop-me');
    expectMessage(await put(`${agentPath(agent.uuid)}/stop`), 422, 'The agent is not connected');
  });

  it('lets the agent finish its job without force, and cancels it with force', async () => {
    const gentle = await protocol.register({ name: 'gentle', tags: ['queue=gentle'] });
    const first = await buildOn('gentle');
    await protocol.start(gentle.token);
    expectNoContent(await put(`${agentPath(gentle.uuid)}/stop`, {}));
    expect(await protocol.jobState(gentle.token, first.jobId)).toBe('running');
    await protocol.finish(gentle.token, first.jobId);
    expect(await protocol.v3('GET', '/ping', gentle.token)).toEqual({ action: 'disconnect' });

    const forced = await protocol.register({ name: 'forced', tags: ['queue=forced'] });
    const second = await buildOn('forced');
    await protocol.start(forced.token);
    expectNoContent(await put(`${agentPath(forced.uuid)}/stop`, { force: true }));
    expect(await protocol.jobState(forced.token, second.jobId)).toBe('canceling');
  });

  it.each([
    [{ force: 'yes' }, 'force must be true or false'],
    [{ force: 1 }, 'force must be true or false'],
  ])('answers 422 to the body %o, changing nothing', async (body, message) => {
    expectMessage(await put(`${agentPath(agents.gamma.uuid)}/stop`, body), 422, message);
    expect((await get(agentPath(agents.gamma.uuid))).body.connection_state).toBe('connected');
  });

  it('answers 400 to a body that is not JSON', async () => {
    const response = await world.call('PUT', `${agentPath(agents.gamma.uuid)}/stop`, {
      rawBody: '{nope',
      headers: { 'Content-Type': 'application/json' },
    });
    expectMessage(response, 400, 'Problems parsing JSON');
  });

  it.each([
    ['an unknown UUID', () => agentPath(UNKNOWN_UUID)],
    ["another organization's agent", () => agentPath(agents.foreign.uuid)],
  ])('answers 404 to %s, and stops nothing', async (_name, path) => {
    expectMessage(await put(`${path()}/stop`, { force: true }), 404, 'No agent found');
    expect(await elsewhere.v3('GET', '/ping', agents.foreign.token)).toEqual({ action: 'idle' });
  });

  itRefusesWhomItMust({
    world: () => world,
    scope: 'write_agents',
    organization: true,
    send: (token, organization) =>
      world.call('PUT', `${agentPath(agents.gamma.uuid, organization)}/stop`, { token, body: {} }),
  });
});

describe('PUT /v2/organizations/{org}/agents/{id}/pause and /resume', () => {
  it('keeps a paused agent from new jobs until it is resumed', async () => {
    const agent = await protocol.register({ name: 'pause-me', tags: ['queue=pause-me'] });
    const { jobId } = await buildOn('pause-me');
    expectNoContent(
      await put(`${agentPath(agent.uuid)}/pause`, { note: 'disk full', timeout_in_minutes: 30 }),
    );
    const paused = (await get(agentPath(agent.uuid))).body;
    expect(paused).toMatchObject({ connection_state: 'connected', paused: true, paused_note: 'disk full' });
    expect(Date.parse(paused.paused_until) - Date.parse(paused.paused_at)).toBe(30 * 60_000);
    expect(await protocol.v3('GET', '/ping', agent.token)).toEqual({ action: 'pause' });

    expectNoContent(await put(`${agentPath(agent.uuid)}/resume`));
    expect((await get(agentPath(agent.uuid))).body).toMatchObject({ paused: false, paused_note: null });
    const ping = await protocol.v3('GET', '/ping', agent.token);
    expect([ping.action, ping.job?.id]).toEqual(['idle', jobId]);
    expectMessage(await put(`${agentPath(agent.uuid)}/resume`), 422, 'The agent is not paused');
  });

  it('pauses for 5 minutes without a body', async () => {
    const agent = await protocol.register({ name: 'pause-default' });
    expectNoContent(await put(`${agentPath(agent.uuid)}/pause`));
    const { paused_at, paused_until, paused_note } = (await get(agentPath(agent.uuid))).body;
    expect(Date.parse(paused_until) - Date.parse(paused_at)).toBe(5 * 60_000);
    expect(paused_note).toBeNull();
  });

  it.each([
    [{ timeout_in_minutes: 0 }, 'timeout_in_minutes must be a whole number from 1 to 10080'],
    [{ timeout_in_minutes: '5' }, 'timeout_in_minutes must be a whole number from 1 to 10080'],
    [{ note: ['x'] }, 'note must be a string'],
  ])('answers 422 to the pause body %o', async (body, message) => {
    expectMessage(await put(`${agentPath(agents.gamma.uuid)}/pause`, body), 422, message);
    expect((await get(agentPath(agents.gamma.uuid))).body.paused).toBe(false);
  });

  it('answers 422 to pausing an agent that has gone', async () => {
    expectMessage(await put(`${agentPath(agents.gone.uuid)}/pause`), 422, 'The agent is not connected');
  });

  for (const action of ['pause', 'resume'] as const) {
    describe(action, () => {
      itRefusesWhomItMust({
        world: () => world,
        scope: 'write_agents',
        organization: true,
        send: (token, organization) =>
          world.call('PUT', `${agentPath(agents.gamma.uuid, organization)}/${action}`, { token }),
      });
    });
  }
});

describe('agents over tRPC', () => {
  it('lists, reads, pauses and resumes with the REST bodies', async () => {
    const trpc = world.trpc(world.tokens.admin);
    const list = await trpc.agents.list.query({
      organization: 'acme',
      version: '3.81.0',
      page: 1,
      per_page: 30,
    });
    expect(list).toEqual((await get(`${AGENTS}?version=3.81.0`)).body);
    const one = await trpc.agents.get.query({ organization: 'acme', agent: agents.gamma.uuid });
    expect(one).toEqual((await get(agentPath(agents.gamma.uuid))).body);
    await trpc.agents.pause.mutate({ organization: 'acme', agent: agents.gamma.uuid, note: 'over tRPC' });
    expect((await get(agentPath(agents.gamma.uuid))).body.paused_note).toBe('over tRPC');
    await trpc.agents.resume.mutate({ organization: 'acme', agent: agents.gamma.uuid });
    expect((await get(agentPath(agents.gamma.uuid))).body.paused).toBe(false);
  });

  it('fails with the REST message and status', async () => {
    const error = await trpcFailure(
      world.trpc(world.tokens.admin).agents.stop.mutate({ organization: 'acme', agent: UNKNOWN_UUID }),
    );
    expect(error.message).toBe('No agent found');
    expect(error.data?.httpStatus).toBe(404);
  });
});
