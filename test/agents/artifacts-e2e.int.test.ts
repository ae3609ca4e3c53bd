import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsWorld } from '../support/agents-world';

type World = Awaited<ReturnType<typeof startAgentsWorld>>;

let world: World;
beforeAll(async () => {
  world = await startAgentsWorld({
    env: { ARTIFACTS_DIR: mkdtempSync(join(tmpdir(), 'ci-e2e-artifacts-')) },
  });
  world.startAgent({ name: 'artifacts-1' });
  world.startAgent({ name: 'artifacts-2' });
});
afterAll(async () => {
  await world?.close();
});

describe('artifacts between the jobs of a build, with real agents', () => {
  it("uploads a job's files (command and artifact_paths), downloads them in a later job", async () => {
    const pipeline = await world.createPipeline(`steps:
  - key: make
    command: |
      mkdir -p out/deep && echo one > out/one.txt && echo two > out/deep/two.txt && echo report > report.md
      buildkite-agent artifact upload "out/**/*.txt"
    artifact_paths: "report.md"
  - wait
  - key: use
    command: |
      buildkite-agent artifact search "**/*.txt" --format "%p\\n"
      buildkite-agent artifact download "out/**" fetched --step make
      buildkite-agent artifact download report.md .
      cat fetched/out/one.txt fetched/out/deep/two.txt report.md
`);
    const { number } = await world.createBuild(pipeline);
    const build = await world.waitForBuild(pipeline, number, 'passed', 60_000);
    const [make, , use] = build.jobs;
    const makeLog = await world.logText(pipeline, number, make.id);
    expect(makeLog).toContain('uploaded out/deep/two.txt');
    expect(makeLog).toContain('uploaded report.md');
    const useLog = await world.logText(pipeline, number, use.id);
    expect(useLog).toMatch(/^out\/deep\/two\.txt$/m);
    expect(useLog).toMatch(/^out\/one\.txt$/m);
    expect(useLog).toContain('one\ntwo\nreport\n');

    const listed = await world.call(
      'GET',
      `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/artifacts`,
    );
    expect(listed.body.map((artifact: { path: string }) => artifact.path).sort()).toEqual([
      'out/deep/two.txt',
      'out/one.txt',
      'report.md',
    ]);
    expect(
      listed.body.every((artifact: { state: string; job_id: string }) => artifact.state === 'finished'),
    ).toBe(true);

    const graphql = await world.call('POST', '/graphql', {
      body: {
        query: `query($slug: ID!) { build(slug: $slug) {
          artifacts(first: 10) { count edges { node { path size state sha1sum } } }
          jobs(first: 5) { edges { node { ... on JobTypeCommand { label artifacts(first: 10, path: "out/**") {
            edges { node { path mimeType downloadURL job { uuid } } } } } } } } } }`,
        variables: { slug: `acme/${pipeline}/${number}` },
      },
    });
    expect(graphql.body.errors).toBeUndefined();
    const data = graphql.body.data.build;
    expect(data.artifacts.count).toBe(3);
    const jobArtifacts = data.jobs.edges.map(
      (edge: { node: { artifacts?: { edges: unknown[] } } }) => edge.node.artifacts?.edges.length ?? 0,
    );
    expect(jobArtifacts).toContain(2);
    const served = await fetch(
      data.jobs.edges.flatMap(
        (edge: { node: { artifacts?: { edges: { node: { downloadURL: string } }[] } } }) =>
          (edge.node.artifacts?.edges ?? []).map((artifact) => artifact.node.downloadURL),
      )[0],
    );
    expect(served.status).toBe(200);
  });

  it('fails the command, with a message, for a path outside the working directory', async () => {
    const pipeline = await world.createPipeline(`steps:
  - command: |
      buildkite-agent artifact upload "../*"
`);
    const { number } = await world.createBuild(pipeline);
    const build = await world.waitForBuild(pipeline, number, 'failed', 60_000);
    expect(await world.logText(pipeline, number, build.jobs[0].id)).toMatch(
      /outside the job's working directory/,
    );
  });
});
