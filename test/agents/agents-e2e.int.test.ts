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
  world = await startAgentsWorld();
  scratch = await mkdtemp(join(tmpdir(), 'ci-e2e-'));
  // Two agents: jobs of one build run side by side.
  world.startAgent({ name: 'e2e-1' });
  world.startAgent({ name: 'e2e-2' });
});
afterAll(async () => {
  await world?.close();
  await rm(scratch, { recursive: true, force: true });
});

const log = async (pipeline: string, number: number, jobId: string, suffix = '') =>
  world.call(
    'GET',
    `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/jobs/${jobId}/log${suffix}`,
  );

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('agents running builds end to end', () => {
  it('runs command, wait, command to passed, with both logs readable', async () => {
    const pipeline = await world.createPipeline(`steps:
  - label: first
    command: echo "hello from $BUILDKITE_PIPELINE_SLUG build $BUILDKITE_BUILD_NUMBER"
  - wait
  - label: second
    command: echo "second step of $BUILDKITE_BRANCH"; pwd
`);
    const { number } = await world.createBuild(pipeline);
    const build = await world.waitForBuild(pipeline, number, 'passed');
    expect(build.started_at).not.toBeNull();
    expect(build.finished_at).not.toBeNull();
    const [first, waiter, second] = build.jobs;
    expect([first.state, waiter.state, second.state]).toEqual(['passed', 'passed', 'passed']);
    for (const job of [first, second]) {
      expect(job.exit_status).toBe(0);
      expect(job.agent?.name).toMatch(/^e2e-/);
      expect(job.started_at).not.toBeNull();
      expect(job.finished_at).not.toBeNull();
      expect(job.runnable_at).not.toBeNull();
    }
    // The second step became runnable only after the first finished.
    expect(Date.parse(second.runnable_at)).toBeGreaterThanOrEqual(Date.parse(first.finished_at));

    const firstLog = await log(pipeline, number, first.id);
    expect(firstLog.status).toBe(200);
    expect(Object.keys(firstLog.body)).toEqual(['url', 'content', 'size', 'header_times']);
    expect(firstLog.body.content).toContain(`hello from ${pipeline} build ${number}`);
    expect(firstLog.body.size).toBe(Buffer.byteLength(firstLog.body.content));
    expect(firstLog.body.header_times.length).toBeGreaterThanOrEqual(1);
    const secondLog = await log(pipeline, number, second.id, '.txt');
    expect(secondLog.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(secondLog.text).toContain('second step of main');
    // A fresh temporary directory per job, not the agent's own.
    expect(secondLog.text).toMatch(/ci-agent-job-/);
  });

  it('goes failing while another job still runs, then failed, and never runs past the wait', async () => {
    const pipeline = await world.createPipeline(`steps:
  - label: broken
    command: exit 3
  - label: slow
    command: sleep 2
  - wait
  - label: never
    command: echo never
`);
    const { number } = await world.createBuild(pipeline);
    const failing = await world.waitForBuild(pipeline, number, 'failing');
    expect(failing.failing_at).not.toBeNull();
    const broken = failing.jobs.find((job: { name: string }) => job.name === 'broken');
    expect(broken).toMatchObject({ state: 'failed', exit_status: 3 });
    const failed = await world.waitForBuild(pipeline, number, 'failed');
    expect(failed.jobs.map((job: { state: string }) => job.state)).toEqual([
      'failed',
      'passed',
      'waiting_failed',
      'broken',
    ]);
  });

  it('blocks at a block step keeping its state, and continues once unblocked', async () => {
    const pipeline = await world.createPipeline(`steps:
  - label: before
    command: echo before
  - block: Deploy
  - label: after
    command: echo after
`);
    const { number } = await world.createBuild(pipeline);
    const blocked = await waitFor('blocked', async () => {
      const build = await world.getBuild(pipeline, number);
      return build.blocked ? build : null;
    });
    expect(blocked.state).toBe('passed');
    const block = blocked.jobs.find((job: { type: string }) => job.type === 'manual');
    expect(block.state).toBe('blocked');
    const unblock = await world.call(
      'PUT',
      `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/jobs/${block.id}/unblock`,
    );
    expect(unblock.status).toBe(200);
    expect(unblock.body).toMatchObject({
      id: block.id,
      type: 'manual',
      state: 'unblocked',
      unblockable: false,
    });
    expect(unblock.body.unblocked_by.email).toBe('admin@acme.test');
    const passed = await world.waitForBuild(pipeline, number, 'passed');
    expect(passed.blocked).toBe(false);
    expect(passed.jobs.map((job: { state: string }) => job.state)).toEqual(['passed', 'unblocked', 'passed']);
  });

  it('retries a failed job: both runs with include_retried_jobs, only the new one without', async () => {
    const marker = join(scratch, 'retry-marker');
    // Fails the first time, passes once the marker exists.
    const pipeline = await world.createPipeline(`steps:
  - label: flaky
    command: test -f ${marker} || { touch ${marker}; exit 1; }
`);
    const { number } = await world.createBuild(pipeline);
    const failed = await world.waitForBuild(pipeline, number, 'failed');
    const [original] = failed.jobs;
    const retry = await world.call(
      'PUT',
      `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/jobs/${original.id}/retry`,
    );
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({
      state: 'scheduled',
      retries_count: 1,
      retry_type: 'manual',
      retried: false,
    });
    expect(retry.body.id).not.toBe(original.id);
    const passed = await world.waitForBuild(pipeline, number, 'passed');
    expect(passed.jobs.map((job: { id: string }) => job.id)).toEqual([retry.body.id]);
    const all = await world.getBuild(pipeline, number, '?include_retried_jobs=true');
    expect(all.jobs.map((job: { id: string }) => job.id)).toEqual([original.id, retry.body.id]);
    expect(all.jobs[0]).toMatchObject({ retried: true, retried_in_job_id: retry.body.id, state: 'failed' });
    expect(all.jobs[1]).toMatchObject({ state: 'passed', exit_status: 0 });
  });

  it('retries the failed job of a build blocked after the failure: it blocks again as passed', async () => {
    const marker = join(scratch, 'blocked-retry-marker');
    const pipeline = await world.createPipeline(`steps:
  - label: flaky
    command: test -f ${marker} || { touch ${marker}; exit 1; }
  - block: Deploy
  - label: after
    command: echo after
`);
    const { number } = await world.createBuild(pipeline);
    const blockedFailed = await waitFor('blocked as failed', async () => {
      const build = await world.getBuild(pipeline, number);
      return build.blocked ? build : null;
    });
    expect(blockedFailed.state).toBe('failed');
    const [flaky] = blockedFailed.jobs;
    const retry = await world.call(
      'PUT',
      `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/jobs/${flaky.id}/retry`,
    );
    expect(retry.status, retry.text).toBe(200);
    const blockedPassed = await waitFor('blocked as passed', async () => {
      const build = await world.getBuild(pipeline, number);
      return build.blocked && build.state === 'passed' ? build : null;
    });
    const block = blockedPassed.jobs.find((job: { type: string }) => job.type === 'manual');
    const unblock = await world.call(
      'PUT',
      `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/jobs/${block.id}/unblock`,
    );
    expect(unblock.status, unblock.text).toBe(200);
    const passed = await world.waitForBuild(pipeline, number, 'passed');
    expect(passed.jobs.map((job: { state: string }) => job.state)).toEqual(['passed', 'unblocked', 'passed']);
  });

  it('cancels a running build: the agent stops the job process', async () => {
    const pidFile = join(scratch, 'cancel-pid');
    const pipeline = await world.createPipeline(`steps:
  - label: long
    command: echo $$ > ${pidFile}; exec sleep 30
`);
    const { number } = await world.createBuild(pipeline);
    const pid = await waitFor('the job to start', async () =>
      Number((await readFile(pidFile, 'utf8')).trim()),
    );
    expect(isAlive(pid)).toBe(true);
    const counts = (await world.call('GET', `/v2/organizations/acme/pipelines/${pipeline}`)).body;
    expect(counts).toMatchObject({
      scheduled_builds_count: 0,
      running_builds_count: 1,
      scheduled_jobs_count: 0,
      running_jobs_count: 1,
      waiting_jobs_count: 0,
    });
    const canceled = await world.call(
      'PUT',
      `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/cancel`,
    );
    expect(canceled.status).toBe(200);
    expect(canceled.body.state).toBe('canceled');
    expect(canceled.body.jobs[0].state).toBe('canceling');
    await waitFor('the job process to stop', async () => !isAlive(pid), 10_000);
    const build = await waitFor('the job to be canceled', async () => {
      const current = await world.getBuild(pipeline, number);
      return current.jobs[0].state === 'canceled' ? current : null;
    });
    expect(build.state).toBe('canceled');
    expect(build.jobs[0].finished_at).not.toBeNull();
    const after = (await world.call('GET', `/v2/organizations/acme/pipelines/${pipeline}`)).body;
    expect(after).toMatchObject({ running_builds_count: 0, running_jobs_count: 0 });
  });

  it('stops on SIGTERM: the running job is stopped and reported, the agent disconnects and exits 0', async () => {
    const pidFile = join(scratch, 'sigterm-pid');
    const pipeline = await world.createPipeline(`steps:
  - label: interrupted
    command: echo $$ > ${pidFile}; exec sleep 30
    agents:
      queue: sigterm
`);
    const agent = world.startAgent({ tags: ['queue=sigterm'], name: 'sigterm' });
    const { number } = await world.createBuild(pipeline);
    const pid = await waitFor('the job to start', async () =>
      Number((await readFile(pidFile, 'utf8')).trim()),
    );
    const exit = await agent.stop();
    expect(exit, agent.output()).toEqual({ code: 0, signal: null });
    expect(isAlive(pid)).toBe(false);
    expect(agent.output()).toContain('disconnected');
    const build = await world.getBuild(pipeline, number);
    expect(build.jobs[0]).toMatchObject({ state: 'failed', exit_status: -1 });
    expect(build.state).toBe('failed');
  });

  it('passes with a soft-failed step and an automatic retry that passes, across parallel copies', async () => {
    const marker = join(scratch, 'automatic-marker');
    const pipeline = await world.createPipeline(`steps:
  - label: soft
    command: exit 2
    soft_fail: true
  - label: flaky
    command: test -f ${marker} || { touch ${marker}; exit 1; }
    retry:
      automatic:
        limit: 1
  - label: copies
    command: echo "copy $BUILDKITE_PARALLEL_JOB of $BUILDKITE_PARALLEL_JOB_COUNT"
    parallelism: 3
  - wait
  - label: after
    command: echo after
`);
    const { number } = await world.createBuild(pipeline);
    await world.waitForBuild(pipeline, number, 'passed');
    const build = await world.getBuild(pipeline, number, '?include_retried_jobs=true');
    const byName = (name: string) => build.jobs.filter((job: { name: string }) => job.name === name);
    expect(byName('soft')[0]).toMatchObject({ state: 'failed', soft_failed: true, exit_status: 2 });
    expect(
      byName('flaky').map((job: { state: string; retry_type: string | null }) => [job.state, job.retry_type]),
    ).toEqual([
      ['failed', null],
      ['passed', 'automatic'],
    ]);
    expect(byName('copies').map((job: { state: string }) => job.state)).toEqual([
      'passed',
      'passed',
      'passed',
    ]);
    expect(byName('after')[0].state).toBe('passed');
  });
});
