import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsWorld } from '../support/agents-world';
import { waitFor } from '../support/wait-for';

/**
 * REST's stop, pause and resume against real agent processes (apps/agent) and two server processes: the
 * agents ping one server while the API calls go to the other, so whatever the agents are told comes
 * from the database, not from a process's memory.
 */

type World = Awaited<ReturnType<typeof startAgentsWorld>>;

let world: World;
beforeAll(async () => {
  world = await startAgentsWorld({ servers: 2 });
});
afterAll(async () => {
  await world?.close();
});

const agentsPath = '/v2/organizations/acme/agents';

/** The agent of this name once it is connected, as REST lists it. */
const connected = (name: string) =>
  waitFor(`agent ${name} connected`, async () => {
    const response = await world.call('GET', `${agentsPath}?name=${name}`);
    const [agent] = response.body as Array<{ id: string; connection_state: string }>;
    return agent?.connection_state === 'connected' ? agent : null;
  });

const agentState = async (id: string) => (await world.call('GET', `${agentsPath}/${id}`)).body;

/** Waits until the agent has pinged twice after `since`: it has been offered whatever was there by then. */
const pingedSince = (id: string, since: Date, interval = 0.2) =>
  waitFor('two more pings', async () => {
    const [row] = await world.db.database.sql.query<{ last_seen_at: Date | string }>(
      'select last_seen_at from agents where id = $1',
      [id],
    );
    return row && new Date(row.last_seen_at).getTime() > since.getTime() + 2 * interval * 1000;
  });

const jobState = async (pipeline: string, number: number) =>
  (await world.getBuild(pipeline, number)).jobs[0].state as string;

const onQueue = (queue: string, command: string) =>
  world.createPipeline(`steps:
  - label: ${queue}
    command: ${command}
    agents:
      queue: ${queue}
`);

describe('stopping, pausing and resuming real agents', () => {
  it('gives a paused agent no job while a build waits, and the job once it is resumed', async () => {
    const process = world.startAgent({ server: world.servers[1]!, tags: ['queue=pausing'], name: 'pausing' });
    const agent = await connected('pausing');
    expect(
      (await world.call('PUT', `${agentsPath}/${agent.id}/pause`, { body: { note: 'maintenance' } })).status,
    ).toBe(204);
    await waitFor('the agent to pause', async () => process.output().includes('paused'));

    const pipeline = await onQueue('pausing', 'echo ran on $BUILDKITE_AGENT_NAME');
    const { number } = await world.createBuild(pipeline);
    await pingedSince(agent.id, new Date());
    expect(await jobState(pipeline, number)).toBe('scheduled');
    expect((await agentState(agent.id)).paused).toBe(true);

    expect((await world.call('PUT', `${agentsPath}/${agent.id}/resume`)).status).toBe(204);
    const build = await world.waitForBuild(pipeline, number, 'passed');
    expect(build.jobs[0].agent.name).toBe('pausing');
    expect(process.output()).toContain('resumed');
  });

  it('lets a stopped agent finish its job, take no other, disconnect and exit', async () => {
    const process = world.startAgent({ server: world.servers[1]!, tags: ['queue=gentle'], name: 'gentle' });
    const agent = await connected('gentle');
    const pipeline = await onQueue('gentle', 'sleep 1; echo finished');
    const first = await world.createBuild(pipeline);
    await world.waitForBuild(pipeline, first.number, 'running');

    expect(
      (await world.call('PUT', `${agentsPath}/${agent.id}/stop`, { body: { force: false } })).status,
    ).toBe(204);
    expect((await agentState(agent.id)).connection_state).toBe('stopping');
    const second = await world.createBuild(pipeline);

    expect((await world.waitForBuild(pipeline, first.number, 'passed')).jobs[0].exit_status).toBe(0);
    expect(await process.exited).toEqual({ code: 0, signal: null });
    expect(process.output()).toContain('told to stop');
    expect((await agentState(agent.id)).connection_state).toBe('stopped');
    expect(await jobState(pipeline, second.number)).toBe('scheduled');

    // The waiting job was runnable all along: another agent takes it.
    world.startAgent({ tags: ['queue=gentle'], name: 'gentle-2' });
    expect((await world.waitForBuild(pipeline, second.number, 'passed')).jobs[0].agent.name).toBe('gentle-2');
  });

  it('cancels the job of an agent stopped with force, which then exits', async () => {
    const process = world.startAgent({ server: world.servers[1]!, tags: ['queue=forced'], name: 'forced' });
    const agent = await connected('forced');
    const pipeline = await onQueue('forced', 'exec sleep 30');
    const { number } = await world.createBuild(pipeline);
    await waitFor('the job to run', async () => (await jobState(pipeline, number)) === 'running');

    expect(
      (await world.call('PUT', `${agentsPath}/${agent.id}/stop`, { body: { force: true } })).status,
    ).toBe(204);
    await waitFor('the job to be canceled', async () => (await jobState(pipeline, number)) === 'canceled');
    expect(await process.exited).toEqual({ code: 0, signal: null });
    expect((await agentState(agent.id)).connection_state).toBe('stopped');
  });
});
