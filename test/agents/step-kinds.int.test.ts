import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsWorld } from '../support/agents-world';

type World = Awaited<ReturnType<typeof startAgentsWorld>>;

let world: World;
beforeAll(async () => {
  world = await startAgentsWorld();
  world.startAgent({ name: 'steps-linux', tags: ['queue=linux'] });
  world.startAgent({ name: 'steps-default' });
});
afterAll(async () => {
  await world?.close();
});

describe('groups, matrices and step filters run on real agents', () => {
  it('runs a group and a matrix, leaves out filtered steps, and shows each job its combination', async () => {
    const pipeline = await world.createPipeline(`steps:
  - group: Checks
    key: checks
    steps:
      - label: lint
        command: echo "lint on $BUILDKITE_BRANCH"
      - label: never on main
        command: exit 1
        branches: "!main"
  - wait
  - label: "test {{matrix.os}} {{matrix.size}}"
    command: echo "testing {{matrix.os}}/{{matrix.size}}"
    agents:
      queue: "{{matrix.os}}"
    matrix:
      setup:
        os: [linux, default]
        size: [small]
      adjustments:
        - with: { os: default, size: small }
          skip: true
        - with: { os: default, size: large }
  - label: only for tags
    command: exit 1
    if: build.tag != null
`);
    const { number } = await world.createBuild(pipeline);
    const build = await world.waitForBuild(pipeline, number, 'passed');
    const scripts = build.jobs.filter((job: { type: string }) => job.type === 'script');
    expect(scripts.map((job: { name: string; matrix: unknown }) => [job.name, job.matrix])).toEqual([
      ['lint', null],
      ['test linux small', { os: 'linux', size: 'small' }],
      ['test default large', { os: 'default', size: 'large' }],
    ]);
    // The group shows on its jobs: REST `group_key`, GraphQL `groupKey` (below).
    expect(scripts.map((job: { group_key: string | null }) => job.group_key)).toEqual(['checks', null, null]);
    const [, linux, other] = scripts;
    expect(linux.agent.name).toBe('steps-linux');
    expect(linux.agent_query_rules).toEqual(['queue=linux']);
    expect(other.agent.name).toBe('steps-default');
    const log = await world.call(
      'GET',
      `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/jobs/${other.id}/log.txt`,
    );
    expect(log.text).toContain('testing default/large');

    const graphql = await world.call('POST', '/graphql', {
      body: {
        query: `query($slug: ID!) { build(slug: $slug) { jobs(first: 10) { edges { node {
          ... on JobTypeCommand { label matrix groupKey }
        } } } } }`,
        variables: { slug: `acme/${pipeline}/${number}` },
      },
    });
    expect(graphql.body.errors).toBeUndefined();
    // The public JSON scalar is a JSON text.
    const labelled = graphql.body.data.build.jobs.edges
      .map((edge: { node: { label?: string; matrix?: string } }) => edge.node)
      .filter((node: { label?: string }) => node.label?.startsWith('test'))
      .map((node: { label: string; matrix: string }) => ({ ...node, matrix: JSON.parse(node.matrix) }));
    expect(labelled).toEqual([
      { label: 'test linux small', matrix: { os: 'linux', size: 'small' }, groupKey: null },
      { label: 'test default large', matrix: { os: 'default', size: 'large' }, groupKey: null },
    ]);
    const lint = graphql.body.data.build.jobs.edges.find(
      (edge: { node: { label?: string } }) => edge.node.label === 'lint',
    );
    expect(lint.node.groupKey).toBe('checks');
  });

  it('refuses a pipeline whose matrix gives more jobs than a build may have, saying so', async () => {
    const values = Array.from({ length: 20 }, (_, i) => `v${i}`).join(', ');
    const response = await world.call('POST', '/v2/organizations/acme/pipelines', {
      body: {
        name: 'huge-matrix',
        repository: 'git@example.com:acme/app.git',
        configuration: `steps:\n  - command: x\n    matrix:\n      setup:\n        a: [${values}]\n        b: [${values}]\n        c: [${values}]\n`,
      },
    });
    expect(response.status).toBe(422);
    expect(JSON.stringify(response.body)).toContain('steps give 8000 jobs per build (maximum is 1000)');
  });
});
