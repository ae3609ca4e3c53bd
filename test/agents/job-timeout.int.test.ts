import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsWorld } from '../support/agents-world';

type World = Awaited<ReturnType<typeof startAgentsWorld>>;

let world: World;
beforeAll(async () => {
  world = await startAgentsWorld();
  world.startAgent({ name: 'timeouts' });
});
afterAll(async () => {
  await world?.close();
});

// A minute is the shortest timeout the public format has: this file waits for one, beside the others.
describe("a step's timeout", () => {
  it('stops the job when it runs out and ends it timed out, failing the build', async () => {
    const pipeline = await world.createPipeline(`steps:
  - label: too slow
    command: echo started; sleep 300
    timeout_in_minutes: 1
  - label: quick
    command: echo "timeout $BUILDKITE_TIMEOUT"
`);
    const { number } = await world.createBuild(pipeline);
    const build = await world.waitForBuild(pipeline, number, 'failed', 120_000);
    const [slow, quick] = build.jobs;
    expect([slow.state, quick.state]).toEqual(['timed_out', 'passed']);
    const seconds = (Date.parse(slow.finished_at) - Date.parse(slow.started_at)) / 1000;
    expect(seconds).toBeGreaterThanOrEqual(60);
    expect(seconds).toBeLessThan(100);
    const log = (id: string) =>
      world.call('GET', `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/jobs/${id}/log.txt`);
    expect((await log(slow.id)).text).toContain('~~~ Timed out after 1 minute');
    expect((await log(quick.id)).text).toContain('timeout false');
  }, 150_000);
});
