// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipeline texts with variables, not templates
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsWorld } from '../support/agents-world';
import { localGitRepository } from '../support/git-repository';

/**
 * End to end with real agent processes and a local git repository: a one-step pipeline checks the
 * repository out and uploads the pipeline file it holds; the uploaded jobs set and read the build's
 * meta-data (a group's matrix jobs among them); REST and GraphQL show the uploaded jobs and the
 * meta-data.
 */

type World = Awaited<ReturnType<typeof startAgentsWorld>>;

let world: World;
let repository: ReturnType<typeof localGitRepository>;
beforeAll(async () => {
  repository = localGitRepository();
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
  - group: ":package: builds"
    steps:
      - label: "build {{matrix}}"
        command: buildkite-agent meta-data set "built-{{matrix}}" "$$BUILDKITE_JOB_ID"
        matrix: [linux, darwin]
  - wait
  - label: ":eyes: read"
    key: read
    command:
      - test "$(buildkite-agent meta-data get release)" = "$RELEASE"
      - echo "version $$(buildkite-agent meta-data get version) in $$BUILDKITE_BUILD_CHECKOUT_PATH"
      - buildkite-agent meta-data exists built-linux
      - buildkite-agent meta-data exists built-darwin
      - buildkite-agent meta-data set checked yes
`,
  });
  world = await startAgentsWorld();
  world.startAgent({ name: 'e2e-one' });
  world.startAgent({ name: 'e2e-two' });
});
afterAll(async () => {
  await world?.close();
  repository?.remove();
});

describe('a pipeline that uploads its steps from its repository', () => {
  it('runs the uploaded jobs, which share meta-data; REST and GraphQL show them', async () => {
    const pipeline = await world.createPipeline(
      'steps:\n  - label: ":pipeline: upload"\n    command: buildkite-agent pipeline upload\n',
      { repository: repository.url },
    );
    const { number } = await world.createBuild(pipeline, { commit: 'HEAD', branch: 'main' });
    const build = await world.waitForBuild(pipeline, number, 'passed', 60_000);

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
    ]);
    expect(build.meta_data).toEqual({
      release: `release-${number}`,
      version: '1.4.2\n',
      'built-linux': build.jobs[2].id,
      'built-darwin': build.jobs[3].id,
      checked: 'yes',
    });
    expect(build.jobs[2].matrix).toBe('linux');
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
          jobs(first: 10) { edges { node { ... on JobTypeCommand { label state step { key } } } } }
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
      { label: ':pipeline: upload', state: 'FINISHED', step: { key: null } },
      { label: ':pencil: set', state: 'FINISHED', step: { key: 'set' } },
      { label: 'build linux', state: 'FINISHED', step: { key: null } },
      { label: 'build darwin', state: 'FINISHED', step: { key: null } },
      { label: ':eyes: read', state: 'FINISHED', step: { key: 'read' } },
    ]);
  });
});
