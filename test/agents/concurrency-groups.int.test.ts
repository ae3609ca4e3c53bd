import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsWorld } from '../support/agents-world';

/**
 * `concurrency` with `concurrency_group` under real concurrency: three agent processes on two server
 * processes, jobs of one group from two pipelines. Agents never hold more of the group's jobs than its
 * limit (seen in the jobs' start and finish times), take them in creation order, and run other jobs
 * beside them.
 */

type World = Awaited<ReturnType<typeof startAgentsWorld>>;
type JobTimes = { name: string; started_at: string; finished_at: string; state: string };

let world: World;
beforeAll(async () => {
  world = await startAgentsWorld({ servers: 2 });
  for (let i = 0; i < 3; i++) world.startAgent({ server: world.servers[i % 2]!, name: `group-${i}` });
});
afterAll(async () => world?.close());

const grouped = (label: string, limit: number, copies: number) => `steps:
  - label: ${label}
    command: sleep 0.4
    parallelism: ${copies}
    concurrency: ${limit}
    concurrency_group: acme/deploy-${limit}
  - label: free
    command: sleep 0.4
    parallelism: 2
`;

/** The most jobs running at any moment, from their start and finish times. */
function mostAtOnce(jobs: JobTimes[]): number {
  const events = jobs.flatMap((job) => [
    { at: Date.parse(job.started_at), step: 1 },
    { at: Date.parse(job.finished_at), step: -1 },
  ]);
  // A finish and a start at the same millisecond: the finish came first (the next job waited for it).
  events.sort((a, b) => a.at - b.at || a.step - b.step);
  let running = 0;
  let most = 0;
  for (const event of events) {
    running += event.step;
    most = Math.max(most, running);
  }
  return most;
}

describe('concurrency groups', () => {
  it('runs one job of a group of 1 at a time, across builds and agents, in creation order', async () => {
    const first = await world.createPipeline(grouped('deploy-a', 1, 3));
    const second = await world.createPipeline(grouped('deploy-b', 1, 2));
    const a = await world.createBuild(first);
    const b = await world.createBuild(second);
    const builds = [
      await world.waitForBuild(first, a.number, 'passed', 60_000),
      await world.waitForBuild(second, b.number, 'passed', 60_000),
    ];
    const jobs: JobTimes[] = builds.flatMap((build) => build.jobs);
    const group = jobs.filter((job) => job.name.startsWith('deploy'));
    expect(group).toHaveLength(5);
    expect(mostAtOnce(group)).toBe(1);
    // Taken in the order they were made: the first build's three, then the second's two.
    const byStart = [...group].sort((x, y) => Date.parse(x.started_at) - Date.parse(y.started_at));
    expect(byStart.map((job) => job.name)).toEqual([
      'deploy-a',
      'deploy-a',
      'deploy-a',
      'deploy-b',
      'deploy-b',
    ]);
    // Jobs outside the group ran beside it.
    expect(mostAtOnce(jobs)).toBeGreaterThan(1);

    // GraphQL shows a job's group and limit as the public `JobTypeCommand.concurrency`.
    const graphql = await world.call('POST', '/graphql', {
      body: {
        query: `query($slug: ID!) { build(slug: $slug) { jobs(first: 10) { edges { node {
          ... on JobTypeCommand { label concurrency { group limit } }
        } } } } }`,
        variables: { slug: `acme/${first}/${a.number}` },
      },
    });
    expect(graphql.body.errors).toBeUndefined();
    const shown = graphql.body.data.build.jobs.edges.map(
      (edge: { node: { label: string; concurrency: unknown } }) => [edge.node.label, edge.node.concurrency],
    );
    expect(shown).toEqual([
      ...Array(3).fill(['deploy-a', { group: 'acme/deploy-1', limit: 1 }]),
      ...Array(2).fill(['free', null]),
    ]);
  }, 90_000);

  it('runs at most two at a time with a limit of 2', async () => {
    const pipeline = await world.createPipeline(grouped('pair', 2, 6));
    const { number } = await world.createBuild(pipeline);
    const build = await world.waitForBuild(pipeline, number, 'passed', 60_000);
    const group = (build.jobs as JobTimes[]).filter((job) => job.name === 'pair');
    expect(group).toHaveLength(6);
    expect(mostAtOnce(group)).toBe(2);
  }, 90_000);
});
