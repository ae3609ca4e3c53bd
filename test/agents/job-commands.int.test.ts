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
    const text = await world.logText(pipeline, number, build.jobs[0].id);
    expect(text).toMatch(/^\d+\.\d+/m);
    expect(text).toContain('Usage: ci-agent');
    expect(text).toMatch(/endpoint http:\/\/127\.0\.0\.1:\d+\/v3/);
  });

  it("an unknown command fails with `unknown command 'frobnicate'` in the log and a non-zero exit", async () => {
    const pipeline = await world.createPipeline(`steps:
  - command: buildkite-agent frobnicate
`);
    const { number } = await world.createBuild(pipeline);
    const build = await world.waitForBuild(pipeline, number, 'failed');
    expect(build.jobs[0].exit_status).not.toBe(0);
    expect(await world.logText(pipeline, number, build.jobs[0].id)).toContain("unknown command 'frobnicate'");
  });

  it('sets, reads, checks and lists meta-data, a value from stdin too', async () => {
    const pipeline = await world.createPipeline(`steps:
  - command: |
      set -e
      buildkite-agent meta-data set release v1.2.3
      printf 'line one\\nline two' | buildkite-agent meta-data set notes
      echo "release=$(buildkite-agent meta-data get release)"
      echo "missing=$(buildkite-agent meta-data get nope --default fallback)"
      buildkite-agent meta-data exists release && echo "release exists"
      buildkite-agent meta-data exists nope || echo "nope exits $?"
      buildkite-agent meta-data keys | tr '\\n' ' ' | sed 's/^/keys: /'
      echo
      buildkite-agent meta-data get nope || echo "get nope exits $?"
`);
    const { number } = await world.createBuild(pipeline);
    const build = await world.waitForBuild(pipeline, number, 'passed');
    const text = await world.logText(pipeline, number, build.jobs[0].id);
    expect(text).toMatch(/^release=v1\.2\.3$/m);
    expect(text).toMatch(/^missing=fallback$/m);
    expect(text).toMatch(/^release exists$/m);
    expect(text).toMatch(/^nope exits 100$/m);
    expect(text).toMatch(/^keys: notes release $/m);
    expect(text).toMatch(/No meta-data "nope"\n(.*\n)?get nope exits 1$/m);
    expect(build.meta_data).toEqual({ notes: 'line one\nline two', release: 'v1.2.3' });
  });

  it('uploads a pipeline from stdin and fails with the reason when the upload is bad', async () => {
    const pipeline = await world.createPipeline(`steps:
  - command: |
      echo 'steps: [ "echo uploaded from $$BUILDKITE_PIPELINE_SLUG" ]' | buildkite-agent pipeline upload
      buildkite-agent pipeline upload --dry-run - <<'YAML'
      steps: [ "echo $BUILDKITE_PIPELINE_SLUG" ]
      YAML
      printf 'steps: [ "unclosed' > bad.yml
      buildkite-agent pipeline upload bad.yml
`);
    const { number } = await world.createBuild(pipeline);
    const build = await world.waitForBuild(pipeline, number, 'failed');
    const text = await world.logText(pipeline, number, build.jobs[0].id);
    expect(text).toContain('Uploaded the pipeline from stdin: 1 jobs added');
    expect(text).toContain(`"echo ${pipeline}"`);
    expect(text).toMatch(/ci-agent: POST .*\/pipelines: 422 The uploaded pipeline is not valid YAML or JSON/);
    expect(build.jobs[0].exit_status).toBe(1);
    expect(build.jobs[1]).toMatchObject({
      command: 'echo uploaded from $BUILDKITE_PIPELINE_SLUG',
      state: 'passed',
    });
  });

  it('refuses to upload a file of 10 MB, with its size', async () => {
    const pipeline = await world.createPipeline(`steps:
  - command: |
      head -c 10485760 /dev/zero | tr '\\0' x | sed 's/^/steps: [ "/' > big.yml
      buildkite-agent pipeline upload big.yml
`);
    const { number } = await world.createBuild(pipeline);
    const build = await world.waitForBuild(pipeline, number, 'failed');
    const text = await world.logText(pipeline, number, build.jobs[0].id);
    expect(text).toMatch(/the pipeline from big\.yml is too large to upload \(\d+ bytes; at most 1048576\)/);
    expect(build.jobs).toHaveLength(1);
  });
});
