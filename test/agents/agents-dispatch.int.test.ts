import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsWorld } from '../support/agents-world';
import { waitFor } from '../support/wait-for';

type World = Awaited<ReturnType<typeof startAgentsWorld>>;

let world: World;
let scratch: string;
beforeAll(async () => {
  world = await startAgentsWorld({ servers: 2 });
  scratch = await mkdtemp(join(tmpdir(), 'ci-dispatch-'));
});
afterAll(async () => {
  await world?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('dispatch across agents and server processes', () => {
  it('runs each of 100 jobs exactly once with 4 agents on 2 server processes', async () => {
    const ran = join(scratch, 'ran');
    const pipeline = await world.createPipeline(`steps:
  - label: many
    command: echo "$BUILDKITE_JOB_ID $BUILDKITE_AGENT_NAME" >> ${ran}
    parallelism: 100
`);
    for (let i = 0; i < 4; i++) world.startAgent({ server: world.servers[i % 2]!, name: `fleet-${i}` });
    const { number } = await world.createBuild(pipeline);
    const build = await world.waitForBuild(pipeline, number, 'passed', 90_000);
    expect(build.jobs).toHaveLength(100);
    const lines = (await readFile(ran, 'utf8')).trim().split('\n');
    const ids = lines.map((line) => line.split(' ')[0]);
    expect(ids).toHaveLength(100);
    expect(new Set(ids).size).toBe(100);
    expect(new Set(ids)).toEqual(new Set(build.jobs.map((job: { id: string }) => job.id)));
    // Every job reports the agent that ran it, and the work was shared.
    const agentOf = new Map(lines.map((line) => [line.split(' ')[0], line.split(' ')[1]]));
    for (const job of build.jobs) expect(job.agent.name).toBe(agentOf.get(job.id));
    expect(new Set(agentOf.values()).size).toBeGreaterThan(1);
    expect(
      build.jobs
        .map((job: { parallel_group_index: number }) => job.parallel_group_index)
        .sort((a: number, b: number) => a - b),
    ).toEqual(Array.from({ length: 100 }, (_, i) => i));
  }, 120_000);

  it('marks lost the job of an agent that was killed, and the build fails', async () => {
    const pidFile = join(scratch, 'lost-pid');
    const pipeline = await world.createPipeline(`steps:
  - label: doomed
    command: echo $$ > ${pidFile}; exec sleep 20
    agents:
      queue: doomed
`);
    const agent = world.startAgent({ tags: ['queue=doomed'], name: 'doomed' });
    const { number } = await world.createBuild(pipeline);
    const pid = await waitFor('the job to start', async () =>
      Number((await readFile(pidFile, 'utf8')).trim()),
    );
    const running = await world.getBuild(pipeline, number);
    expect(running.jobs[0]).toMatchObject({ state: 'running', agent: { name: 'doomed' } });
    await agent.kill();
    try {
      const failed = await world.waitForBuild(pipeline, number, 'failed', 20_000);
      expect(failed.jobs[0].state).toBe('lost');
      expect(failed.jobs[0].finished_at).not.toBeNull();
    } finally {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
  });
});
