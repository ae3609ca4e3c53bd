import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentProcess, startAgentsWorld } from '../support/agents-world';
import { waitFor } from '../support/wait-for';
import { API_URL } from '../support/world';

/**
 * Where jobs go once clusters exist (issue 28), with real agent processes and a real server: agents
 * registered with a cluster's token belong to it and to one of its queues; a clustered pipeline's jobs go
 * only to its cluster's agents, in the queue the step names or the default one; a paused queue hands out
 * no new job; a deleted (revoked) cluster token registers no one and leaves its agents running.
 */

type World = Awaited<ReturnType<typeof startAgentsWorld>>;
type Json = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: the untyped JSON a client sees
type Job = any;

let world: World;
const ids = {} as Record<'linux' | 'mac' | 'linuxDefault' | 'linuxDeploy' | 'macDefault' | 'macIos', string>;
const tokens = {} as Record<'linux' | 'mac', string>;

async function rest(method: string, path: string, body?: Json, status = 200) {
  const response = await world.call(method, `/v2/organizations/acme${path}`, body ? { body } : {});
  expect(response.status, response.text).toBe(status);
  return response.body;
}

const cluster = async (name: string) => (await rest('POST', '/clusters', { name }, 201)).id as string;
const queue = async (clusterId: string, key: string) =>
  (await rest('POST', `/clusters/${clusterId}/queues`, { key }, 201)).id as string;
const clusterToken = async (clusterId: string, description = 'agents') =>
  (await rest('POST', `/clusters/${clusterId}/tokens`, { description }, 201)) as {
    id: string;
    token: string;
  };

/** A pipeline of `steps`, in `clusterId` (or none), made through REST. */
async function pipeline(name: string, steps: string, clusterId: string | null) {
  const created = await rest(
    'POST',
    '/pipelines',
    {
      name,
      repository: 'git@example.com:acme/app.git',
      configuration: steps,
      ...(clusterId ? { cluster_id: clusterId } : {}),
    },
    201,
  );
  return created.slug as string;
}

/** Waits until the agent named `name` is connected (it registered and connected). */
const connected = (name: string) =>
  waitFor(`agent ${name} connected`, async () => {
    const agents = (await rest('GET', `/agents?name=${name}`)) as { connection_state: string }[];
    return agents.find((agent) => agent.connection_state === 'connected');
  });

const clusterUrl = (clusterId: string) => `${API_URL}/v2/organizations/acme/clusters/${clusterId}`;

/** The job's place as REST shows it. */
const placeOf = (job: Job) => ({
  cluster_id: job.cluster_id,
  cluster_url: job.cluster_url,
  cluster_queue_id: job.cluster_queue_id,
  cluster_queue_url: job.cluster_queue_url,
});

const place = (clusterId: string, queueId: string) => ({
  cluster_id: clusterId,
  cluster_url: clusterUrl(clusterId),
  cluster_queue_id: queueId,
  cluster_queue_url: `${clusterUrl(clusterId)}/queues/${queueId}`,
});

beforeAll(async () => {
  world = await startAgentsWorld({ env: { PUBLIC_API_URL: API_URL } });
  ids.linux = await cluster('Linux');
  ids.linuxDefault = await queue(ids.linux, 'default');
  ids.linuxDeploy = await queue(ids.linux, 'deploy');
  ids.mac = await cluster('Mac');
  ids.macDefault = await queue(ids.mac, 'builds');
  ids.macIos = await queue(ids.mac, 'ios');
  tokens.linux = (await clusterToken(ids.linux)).token;
  tokens.mac = (await clusterToken(ids.mac)).token;
  // Every agent polls for work from the start: a job offered to the wrong one would be taken.
  world.startAgent({ name: 'linux-default', token: tokens.linux });
  world.startAgent({ name: 'linux-deploy', token: tokens.linux, tags: ['queue=deploy'] });
  world.startAgent({ name: 'mac-builds', token: tokens.mac, tags: ['os=macos'] });
  world.startAgent({ name: 'unclustered' });
  for (const name of ['linux-default', 'linux-deploy', 'mac-builds', 'unclustered']) await connected(name);
}, 120_000);
afterAll(() => world?.close());

describe('jobs go to their cluster and queue', () => {
  it("runs a clustered pipeline's jobs only on its cluster's agents, in the queue each step names", async () => {
    const linux = await pipeline(
      'Linux app',
      `steps:
  - label: plain
    command: echo plain
    parallelism: 4
  - label: ship
    command: echo ship
    parallelism: 3
    agents:
      queue: deploy
`,
      ids.linux,
    );
    const mac = await pipeline(
      'Mac app',
      `steps:
  - label: mac
    command: echo mac
    parallelism: 4
    agents:
      os: macos
`,
      ids.mac,
    );
    const plain = await pipeline(
      'Plain app',
      `steps:
  - label: anywhere
    command: echo anywhere
    parallelism: 4
`,
      null,
    );
    const builds = await Promise.all([linux, mac, plain].map((slug) => world.createBuild(slug)));
    const [linuxBuild, macBuild, plainBuild] = await Promise.all(
      [linux, mac, plain].map((slug, i) => world.waitForBuild(slug, builds[i]!.number, 'passed')),
    );

    const byLabel = (build: Job, label: string) => build.jobs.filter((job: Job) => job.name === label);
    for (const job of byLabel(linuxBuild, 'plain')) {
      expect(job.agent.name).toBe('linux-default');
      expect(placeOf(job)).toEqual(place(ids.linux, ids.linuxDefault));
    }
    for (const job of byLabel(linuxBuild, 'ship')) {
      expect(job.agent.name).toBe('linux-deploy');
      expect(placeOf(job)).toEqual(place(ids.linux, ids.linuxDeploy));
    }
    for (const job of macBuild.jobs) {
      expect(job.agent.name).toBe('mac-builds');
      expect(placeOf(job)).toEqual(place(ids.mac, ids.macDefault));
    }
    for (const job of plainBuild.jobs) {
      expect(job.agent.name).toBe('unclustered');
      expect(placeOf(job)).toEqual({
        cluster_id: null,
        cluster_url: null,
        cluster_queue_id: null,
        cluster_queue_url: null,
      });
    }
  });

  it('leaves a job for a queue its cluster does not have to no agent', async () => {
    const slug = await pipeline(
      'Nowhere app',
      `steps:
  - label: nowhere
    command: echo nowhere
    agents:
      queue: gpu
`,
      ids.linux,
    );
    const { number } = await world.createBuild(slug);
    // Every agent pings several times meanwhile (every 0.2 s); none may take it.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const build = await world.getBuild(slug, number);
    expect(build.jobs[0]).toMatchObject({
      state: 'scheduled',
      agent: null,
      cluster_id: ids.linux,
      cluster_queue_id: null,
      cluster_queue_url: null,
    });
    await rest('PUT', `/pipelines/${slug}/builds/${number}/cancel`);
  });
});

describe('registering with a cluster token', () => {
  it('puts an agent without a queue tag in the default queue, shown among its tags', async () => {
    const [agent] = (await rest('GET', '/agents?name=linux-default')) as { meta_data: string[] }[];
    expect(agent?.meta_data).toEqual(['queue=default']);
    const [mac] = (await rest('GET', '/agents?name=mac-builds')) as { meta_data: string[] }[];
    expect(mac?.meta_data).toEqual(['os=macos', 'queue=builds']);
  });

  it("lists each queue's agents through GraphQL", async () => {
    const response = await world.call('POST', '/graphql', {
      body: {
        query: `query($id: ID!) { organization(slug: "acme") { cluster(id: $id) { queues(first: 10) { edges { node {
          key agents(first: 10) { count edges { node { name } } } } } } } } }`,
        variables: { id: ids.linux },
      },
    });
    expect(response.body.errors).toBeUndefined();
    const queues = response.body.data.organization.cluster.queues.edges.map(
      (edge: { node: { key: string; agents: { count: number; edges: { node: { name: string } }[] } } }) => [
        edge.node.key,
        edge.node.agents.count,
        edge.node.agents.edges.map((agent) => agent.node.name),
      ],
    );
    expect(queues).toEqual(
      expect.arrayContaining([
        ['default', 1, ['linux-default']],
        ['deploy', 1, ['linux-deploy']],
      ]),
    );
  });

  it('refuses an agent whose queue tag names no queue of the cluster, saying why', async () => {
    const agent = world.startAgent({ name: 'lost-queue', token: tokens.linux, tags: ['queue=gpu'] });
    const { code } = await agent.exited;
    expect(code).toBe(1);
    expect(agent.output()).toContain('422');
    expect(agent.output()).toContain(
      'The queue \\"gpu\\" is not a queue of the cluster \\"Linux\\" (its queues: default, deploy)',
    );
  });
});

describe("a queue's paused dispatch", () => {
  it('lets the running job finish, assigns nothing new while paused, and dispatches again on resume', async () => {
    const slug = await pipeline(
      'Deploys',
      `steps:
  - label: slow
    command: sleep 2
    agents:
      queue: deploy
  - wait
  - label: after
    command: echo after
    agents:
      queue: deploy
`,
      ids.linux,
    );
    const { number } = await world.createBuild(slug);
    await waitFor('the slow job to run', async () => {
      const build = await world.getBuild(slug, number);
      return build.jobs[0].state === 'running';
    });
    const paused = await rest('POST', `/clusters/${ids.linux}/queues/${ids.linuxDeploy}/pause_dispatch`, {
      note: 'maintenance',
    });
    expect(paused.dispatch_paused).toBe(true);
    // The running job finishes; the next one becomes runnable but no agent takes it.
    const waiting = await waitFor('the next job to be runnable', async () => {
      const build = await world.getBuild(slug, number);
      return build.jobs[2].state === 'scheduled' ? build : null;
    });
    expect(waiting.jobs[0].state).toBe('passed');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const still = await world.getBuild(slug, number);
    expect(still.jobs[2]).toMatchObject({ state: 'scheduled', agent: null });
    // The other queue of the cluster still dispatches.
    const other = await pipeline('Elsewhere', 'steps:\n  - command: echo other\n', ids.linux);
    const otherBuild = await world.createBuild(other);
    await world.waitForBuild(other, otherBuild.number, 'passed');

    await rest('POST', `/clusters/${ids.linux}/queues/${ids.linuxDeploy}/resume_dispatch`);
    const passed = await world.waitForBuild(slug, number, 'passed');
    expect(passed.jobs[2].agent.name).toBe('linux-deploy');
  });
});

describe('a revoked cluster token', () => {
  it('registers no new agent and leaves the agents it registered running jobs', async () => {
    const token = await clusterToken(ids.mac, 'iOS agents');
    world.startAgent({ name: 'ios-1', token: token.token, tags: ['queue=ios'] });
    await connected('ios-1');
    await rest('DELETE', `/clusters/${ids.mac}/tokens/${token.id}`, undefined, 204);

    const refused = world.startAgent({ name: 'ios-2', token: token.token, tags: ['queue=ios'] });
    expect((await refused.exited).code).toBe(1);
    expect(refused.output()).toContain('401');

    const slug = await pipeline(
      'iOS app',
      'steps:\n  - command: echo ios\n    agents:\n      queue: ios\n',
      ids.mac,
    );
    const { number } = await world.createBuild(slug);
    const build = await world.waitForBuild(slug, number, 'passed');
    expect(build.jobs[0].agent.name).toBe('ios-1');
    expect(placeOf(build.jobs[0])).toEqual(place(ids.mac, ids.macIos));
  });
});

describe('deleting a cluster', () => {
  it('is refused while connected agents are in it, and done once they have gone', async () => {
    const id = await cluster('Short lived');
    await queue(id, 'default');
    const { token } = await clusterToken(id);
    const agent: AgentProcess = world.startAgent({ name: 'short-lived', token });
    await connected('short-lived');
    const refused = await world.call('DELETE', `/v2/organizations/acme/clusters/${id}`);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      message: "This cluster can't be deleted: 1 connected agent is in it. Stop it first.",
    });
    await agent.stop();
    await rest('DELETE', `/clusters/${id}`, undefined, 204);
  });

  it('names both the pipelines and the connected agents that keep it', async () => {
    const refused = await world.call('DELETE', `/v2/organizations/acme/clusters/${ids.linux}`);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toMatch(
      /^This cluster can't be deleted: \d+ pipelines use it and 2 connected agents are in it\./,
    );
  });
});
