// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipeline texts with variables, not templates
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsWorld } from '../support/agents-world';
import { localGitRepository } from '../support/git-repository';

/**
 * End to end with real agent processes and a local git repository (issue 29's "done when"): a one-step
 * pipeline checks the repository out and uploads the pipeline file it holds; the uploaded jobs (a
 * group's matrix jobs among them) set and read the build's meta-data, upload and download artifacts,
 * annotate the build and trigger a build of another pipeline, which an agent runs too; REST and GraphQL
 * show all of it.
 */

type World = Awaited<ReturnType<typeof startAgentsWorld>>;

let world: World;
let repository: ReturnType<typeof localGitRepository>;
let downstream: string;
beforeAll(async () => {
  world = await startAgentsWorld({
    env: { ARTIFACTS_DIR: mkdtempSync(join(tmpdir(), 'ci-e2e-artifacts-')) },
  });
  repository = localGitRepository();
  downstream = await world.createPipeline(
    `steps:
  - label: ":ship: downstream"
    command:
      - echo "downstream of $BUILDKITE_TRIGGERED_FROM_BUILD_PIPELINE_SLUG number $BUILDKITE_TRIGGERED_FROM_BUILD_NUMBER"
      - test "$(buildkite-agent meta-data get release)" = "$DEPLOYING"
      - cat version.txt
`,
    { repository: repository.url },
  );
  repository.commit({
    'version.txt': '1.4.2\n',
    '.buildkite/pipeline.yml': `env:
  RELEASE: "release-\${BUILDKITE_BUILD_NUMBER}"
steps:
  - label: ":pencil: set"
    key: set
    command:
      - buildkite-agent meta-data set release "$RELEASE"
      - cat version.txt | buildkite-agent meta-data set version
      - buildkite-agent annotate --style info --context release "Release **$RELEASE**"
  - group: ":package: builds"
    steps:
      - label: "build {{matrix}}"
        command:
          - buildkite-agent meta-data set "built-{{matrix}}" "$$BUILDKITE_JOB_ID"
          - mkdir -p out && echo "{{matrix}} binary" > out/{{matrix}}.bin
          - buildkite-agent artifact upload "out/{{matrix}}.bin"
        matrix: [linux, darwin]
  - wait
  - label: ":eyes: read"
    key: read
    command:
      - test "$(buildkite-agent meta-data get release)" = "$RELEASE"
      - echo "version $$(buildkite-agent meta-data get version) in $$BUILDKITE_BUILD_CHECKOUT_PATH"
      - buildkite-agent meta-data exists built-linux
      - buildkite-agent meta-data exists built-darwin
      - buildkite-agent artifact download "out/*.bin" fetched
      - cat fetched/out/linux.bin fetched/out/darwin.bin
      - buildkite-agent annotate --style success --context release --append " checked"
      - buildkite-agent meta-data set checked yes
  - trigger: ${downstream}
    label: ":rocket: deploy"
    build:
      message: "Deploy $RELEASE"
      commit: "HEAD"
      branch: main
      meta_data:
        release: "$RELEASE"
      env:
        DEPLOYING: "$RELEASE"
`,
  });
  world.startAgent({ name: 'e2e-one' });
  world.startAgent({ name: 'e2e-two' });
});
afterAll(async () => {
  await world?.close();
  repository?.remove();
});

describe('a pipeline that uploads its steps from its repository', () => {
  it('runs the uploaded jobs, which share meta-data and artifacts, annotate and trigger; REST and GraphQL show them', async () => {
    const pipeline = await world.createPipeline(
      'steps:\n  - label: ":pipeline: upload"\n    command: buildkite-agent pipeline upload\n',
      { repository: repository.url },
    );
    const { number } = await world.createBuild(pipeline, { commit: 'HEAD', branch: 'main' });
    const build = await world.waitForBuild(pipeline, number, 'passed', 80_000);

    expect(
      build.jobs.map((job: { name: string | null; type: string; state: string }) => [
        job.name ?? job.type,
        job.state,
      ]),
    ).toEqual([
      [':pipeline: upload', 'passed'],
      [':pencil: set', 'passed'],
      ['build linux', 'passed'],
      ['build darwin', 'passed'],
      ['waiter', 'passed'],
      [':eyes: read', 'passed'],
      [':rocket: deploy', 'passed'],
    ]);
    expect(build.meta_data).toEqual({
      release: `release-${number}`,
      version: '1.4.2\n',
      'built-linux': build.jobs[2].id,
      'built-darwin': build.jobs[3].id,
      checked: 'yes',
    });
    expect(build.jobs[2].matrix).toBe('linux');
    expect(build.jobs[3].matrix).toBe('darwin');
    const read = build.jobs[5];
    expect(read.step_key).toBe('read');
    expect(read.command).toContain(`= "release-${number}"`);
    const log = await world.call(
      'GET',
      `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/jobs/${read.id}/log.txt`,
    );
    expect(log.text).toMatch(
      new RegExp(`^version 1\\.4\\.2 in ${world.buildPath}/\\S+/acme/${pipeline}$`, 'm'),
    );

    expect(log.text).toContain('linux binary\ndarwin binary\n');

    const artifacts = await world.call(
      'GET',
      `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/artifacts`,
    );
    expect(
      artifacts.body
        .map((a: { path: string; state: string; job_id: string; file_size: number }) => [
          a.path,
          a.state,
          a.job_id,
          a.file_size,
        ])
        .sort(),
    ).toEqual([
      ['out/darwin.bin', 'finished', build.jobs[3].id, 'darwin binary\n'.length],
      ['out/linux.bin', 'finished', build.jobs[2].id, 'linux binary\n'.length],
    ]);
    const annotations = await world.call(
      'GET',
      `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/annotations`,
    );
    expect(
      annotations.body.map((a: { context: string; style: string; body_html: string }) => [
        a.context,
        a.style,
        a.body_html,
      ]),
    ).toEqual([['release', 'success', `<p>Release <strong>release-${number}</strong> checked</p>\n`]]);

    // The trigger step's build: made by the server, run by an agent, waited for.
    const deploy = build.jobs[6];
    expect(deploy).toMatchObject({ type: 'trigger', async: false });
    const triggered = await world.getBuild(downstream, deploy.triggered_build.number);
    expect(triggered).toMatchObject({
      id: deploy.triggered_build.id,
      state: 'passed',
      source: 'trigger_job',
      message: `Deploy release-${number}`,
      branch: 'main',
      meta_data: { release: `release-${number}` },
      env: { DEPLOYING: `release-${number}` },
      triggered_from: { build_id: build.id, build_number: number, build_pipeline_slug: pipeline },
    });
    expect(Date.parse(deploy.finished_at)).toBeGreaterThanOrEqual(Date.parse(triggered.finished_at));
    const downstreamLog = await world.call(
      'GET',
      `/v2/organizations/acme/pipelines/${downstream}/builds/${triggered.number}/jobs/${triggered.jobs[0].id}/log.txt`,
    );
    expect(downstreamLog.text).toContain(`downstream of ${pipeline} number ${number}`);
    expect(downstreamLog.text).toContain('1.4.2');

    const found = await world.call(
      'GET',
      `/v2/builds?meta_data[release]=release-${number}&meta_data[checked]=yes`,
    );
    expect(
      found.body.map((b: { pipeline: { slug: string }; number: number }) => [b.pipeline.slug, b.number]),
    ).toEqual([[pipeline, number]]);

    const graphql = await world.call('POST', '/graphql', {
      body: {
        query: `query ($slug: ID!) { build(slug: $slug) {
          state
          metaData(first: 10) { edges { node { key value } } }
          jobs(first: 10) { edges { node {
            ... on JobTypeCommand { label state step { key } matrix artifacts(first: 5) { edges { node { path } } } }
            ... on JobTypeTrigger { label state async triggered { number pipeline { slug } triggeredFrom { uuid } } }
          } } }
          artifacts(first: 10) { count }
          annotations(first: 5) { edges { node { context style body { text } } } }
        } }`,
        variables: { slug: `acme/${pipeline}/${number}` },
      },
    });
    expect(graphql.body.errors).toBeUndefined();
    const node = graphql.body.data.build;
    expect(node.state).toBe('PASSED');
    expect(node.metaData.edges.map((edge: { node: unknown }) => edge.node)).toEqual(
      expect.arrayContaining([
        { key: 'release', value: `release-${number}` },
        { key: 'checked', value: 'yes' },
      ]),
    );
    expect(
      node.jobs.edges
        .map((edge: { node: { label?: string; state?: string } }) => edge.node)
        .filter((job: { label?: string }) => job.label),
    ).toEqual([
      {
        label: ':pipeline: upload',
        state: 'FINISHED',
        step: { key: null },
        matrix: null,
        artifacts: { edges: [] },
      },
      {
        label: ':pencil: set',
        state: 'FINISHED',
        step: { key: 'set' },
        matrix: null,
        artifacts: { edges: [] },
      },
      {
        label: 'build linux',
        state: 'FINISHED',
        step: { key: null },
        matrix: '"linux"',
        artifacts: { edges: [{ node: { path: 'out/linux.bin' } }] },
      },
      {
        label: 'build darwin',
        state: 'FINISHED',
        step: { key: null },
        matrix: '"darwin"',
        artifacts: { edges: [{ node: { path: 'out/darwin.bin' } }] },
      },
      {
        label: ':eyes: read',
        state: 'FINISHED',
        step: { key: 'read' },
        matrix: null,
        artifacts: { edges: [] },
      },
      {
        label: ':rocket: deploy',
        state: 'FINISHED',
        async: false,
        triggered: {
          number: deploy.triggered_build.number,
          pipeline: { slug: downstream },
          triggeredFrom: { uuid: deploy.id },
        },
      },
    ]);
    expect(node.artifacts.count).toBe(2);
    expect(node.annotations.edges.map((edge: { node: unknown }) => edge.node)).toEqual([
      { context: 'release', style: 'SUCCESS', body: { text: `Release **release-${number}** checked` } },
    ]);
  }, 120_000);
});
