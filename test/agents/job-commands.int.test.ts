import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsWorld } from '../support/agents-world';

type World = Awaited<ReturnType<typeof startAgentsWorld>>;

let world: World;
beforeAll(async () => {
  world = await startAgentsWorld();
  world.startAgent({ name: 'job-commands' });
});
afterAll(async () => {
  await world?.close();
});

const logText = async (pipeline: string, number: number, jobId: string) =>
  (
    await world.call(
      'GET',
      `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/jobs/${jobId}/log.txt`,
    )
  ).text;

describe("a job's own commands", () => {
  it('finds ci-agent and buildkite-agent on its PATH, with the endpoint and its token', async () => {
    const pipeline = await world.createPipeline(`steps:
  - command: |
      ci-agent --version
      buildkite-agent --help
      test -n "$BUILDKITE_AGENT_ACCESS_TOKEN" && echo "endpoint $BUILDKITE_AGENT_ENDPOINT"
`);
    const { number } = await world.createBuild(pipeline);
    const build = await world.waitForBuild(pipeline, number, 'passed');
    const text = await logText(pipeline, number, build.jobs[0].id);
    expect(text).toMatch(/^\d+\.\d+/m);
    expect(text).toContain('Usage: ci-agent');
    expect(text).toMatch(/endpoint http:\/\/127\.0\.0\.1:\d+\/v3/);
  });
});
