import { describe, expect, it } from 'vitest';
import {
  buildRows,
  drawBuilds,
  drawPipelineHexes,
  jobRows,
  referencePrng,
  type SeedPipeline,
} from './dataset';

const pipelines: SeedPipeline[] = Array.from({ length: 10 }, (_, i) => ({
  id: `pipeline-${i}`,
  repository: `git@github.com:acme/pipeline-${i}.git`,
}));
const users = Array.from({ length: 20 }, (_, i) => ({
  id: `user-${i}`,
  name: `User ${i}`,
  email: `user${i}@acme.example`,
}));
let counter = 0;
const newId = () => `id-${counter++}`;

function draw(count: number) {
  const prng = referencePrng();
  drawPipelineHexes(prng, pipelines.length);
  const builds = drawBuilds(prng, count, pipelines, 1_700_000_000_000, newId);
  const rows = [...buildRows(prng, builds, users, 'organization')];
  return { builds, rows };
}

describe('the reference data set', () => {
  it('is the same on every draw (the PRNG is seeded), ids aside', () => {
    const strip = (rows: unknown[][]) => rows.map((row) => row.slice(2));
    expect(strip(draw(2_000).rows)).toEqual(strip(draw(2_000).rows));
  });

  it('numbers each pipeline’s builds 1…n in creation order', () => {
    const { builds } = draw(5_000);
    for (const pipeline of pipelines) {
      const mine = builds.filter((build) => build.pipeline === pipeline);
      expect(mine.map((build) => build.number)).toEqual(mine.map((_, i) => i + 1));
      const created = mine.map((build) => build.created);
      expect([...created].sort((a, b) => a - b)).toEqual(created);
    }
  });

  it('has the reference’s mix: about half on main, about 68% passed, the last 200 still moving', () => {
    const { builds } = draw(20_000);
    const share = (test: (build: (typeof builds)[number]) => boolean, among = builds) =>
      among.filter(test).length / among.length;
    expect(share((build) => build.branch === 'main')).toBeCloseTo(0.5, 1);
    expect(share((build) => build.branch === 'develop')).toBeCloseTo(0.1, 1);
    const settled = builds.slice(0, -200);
    expect(share((build) => build.state === 'passed', settled)).toBeCloseTo(0.68, 1);
    expect(settled.some((build) => build.state === 'running')).toBe(false);
    expect(builds.slice(-199).some((build) => build.state === 'running')).toBe(true);
  });

  it('gives every build five jobs in step order, failed builds a failed third job', () => {
    const { builds } = draw(1_000);
    const jobs = [...jobRows(builds, newId)];
    expect(jobs).toHaveLength(5_000);
    const failed = builds.findIndex((build) => build.state === 'failed');
    const its = jobs.slice(failed * 5, failed * 5 + 5);
    expect(its.map((job) => job[6])).toEqual(['upload', 'build', 'test-1', 'test-2', 'deploy']);
    expect(its.map((job) => job[8])).toEqual(['passed', 'passed', 'failed', 'broken', 'broken']);
  });
});
