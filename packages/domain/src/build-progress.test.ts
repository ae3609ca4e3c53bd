import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { factsOf } from './build.fixture';
import { progressBuild, reopenBuild } from './build-progress';
import { type BuildSnapshot, type BuildState, isFinished, newBuildSnapshot, transition } from './build-state';
import type { Job, JobState, StepDefinition } from './entities';
import { type JobTrigger, jobTransition, retryOf } from './job-state';
import { jobsForSteps } from './new-build-jobs';
import { testPatterns } from './step-condition.fixture';

const at = new Date('2026-11-21T10:05:00.000Z');
let counter = 0;
const newId = () => `new-${++counter}`;

function cmd(
  label: string,
  extra: Partial<Extract<StepDefinition, { type: 'command' }>> = {},
): StepDefinition {
  return {
    type: 'command',
    id: `step-${label}`,
    key: null,
    label,
    command: `echo ${label}`,
    env: {},
    agentQueryRules: [],
    softFail: false,
    parallelism: null,
    retry: null,
    artifactPaths: null,
    ...extra,
  };
}
const wait = (continueOnFailure = false): StepDefinition => ({
  type: 'wait',
  id: `wait-${++counter}`,
  key: null,
  continueOnFailure,
});
const block = (): StepDefinition => ({ type: 'block', id: `block-${++counter}`, key: null, label: 'Deploy' });

function newBuild(steps: StepDefinition[]) {
  const jobs = jobsForSteps({ steps, buildId: 'b', at, newId, facts: factsOf(), regex: testPatterns });
  return progressBuild({ build: newBuildSnapshot(), jobs, at, newId });
}

/** Runs a trigger on the named job (by label) and lets the build progress. */
function act(state: { build: BuildSnapshot; jobs: Job[] }, name: string, states: JobState[]) {
  let jobs = state.jobs;
  for (const target of states) {
    const trigger: JobTrigger =
      target === 'assigned'
        ? { type: 'assign', agentId: 'agent' }
        : target === 'running'
          ? { type: 'start' }
          : target === 'passed'
            ? { type: 'finish', exitStatus: 0, signal: null, signalReason: null }
            : target === 'failed'
              ? { type: 'finish', exitStatus: 1, signal: null, signalReason: null }
              : target === 'lost'
                ? { type: 'lose' }
                : { type: 'unblock', userId: 'u' };
    // The first run of the named step that can take the trigger.
    const index = jobs.findIndex((job) => job.name === name && jobTransition(job, trigger, at).ok);
    const next = jobTransition(jobs[index]!, trigger, at);
    if (!next.ok) throw next.error;
    jobs = jobs.map((j, i) => (i === index ? next.value : j));
  }
  return progressBuild({ build: state.build, jobs, at, newId });
}
const run = (state: { build: BuildSnapshot; jobs: Job[] }, name: string, outcome: 'passed' | 'failed') =>
  act(state, name, ['assigned', 'running', outcome]);
const stateOf = (state: { jobs: Job[] }, name: string) =>
  state.jobs.filter((job) => job.name === name).map((job) => job.state);

const trigger = (label: string): StepDefinition => ({
  type: 'trigger',
  id: `trigger-${++counter}`,
  key: null,
  label,
  pipeline: 'deploy',
  async: false,
  build: { message: null, commit: null, branch: null, metaData: {}, env: {} },
});

/** Moves the named trigger job on as the server does, and lets the build progress. */
function triggerAct(state: { build: BuildSnapshot; jobs: Job[] }, name: string, step: JobTrigger) {
  const jobs = state.jobs.map((job) => {
    if (job.name !== name) return job;
    const next = jobTransition(job, step, at);
    if (!next.ok) throw next.error;
    return next.value;
  });
  return progressBuild({ build: state.build, jobs, at, newId });
}

describe('progressBuild with trigger steps', () => {
  it('schedules a trigger job once the wait before it opens, for the server to run', () => {
    let state = newBuild([cmd('a'), wait(), trigger('deploy')]);
    expect(stateOf(state, 'deploy')).toEqual(['waiting']);
    state = run(state, 'a', 'passed');
    expect(stateOf(state, 'deploy')).toEqual(['scheduled']);
    state = triggerAct(state, 'deploy', { type: 'trigger_build', buildId: 'child' });
    expect(state.build.state).toBe('running');
    state = triggerAct(state, 'deploy', { type: 'triggered', outcome: 'passed' });
    expect(state.build.state).toBe('passed');
  });

  it('fails the build when its triggered build fails, is canceled or is refused', () => {
    for (const step of [
      { type: 'triggered', outcome: 'failed' },
      { type: 'triggered', outcome: 'canceled' },
      { type: 'trigger_refused' },
    ] as JobTrigger[]) {
      let state = newBuild([trigger('deploy'), wait(), cmd('after')]);
      expect(stateOf(state, 'deploy')).toEqual(['scheduled']);
      if (step.type !== 'trigger_refused') {
        state = triggerAct(state, 'deploy', { type: 'trigger_build', buildId: 'child' });
      }
      state = triggerAct(state, 'deploy', step);
      expect(state.build.state).toBe('failed');
      expect(stateOf(state, 'after')).toEqual(['broken']);
    }
  });

  it('holds a build whose trigger job waits for its build, until it ends', () => {
    let state = newBuild([trigger('deploy'), cmd('beside')]);
    state = triggerAct(state, 'deploy', { type: 'trigger_build', buildId: 'child' });
    state = run(state, 'beside', 'passed');
    expect(state.build.state).toBe('running');
    state = triggerAct(state, 'deploy', { type: 'triggered', outcome: 'passed' });
    expect(state.build.state).toBe('passed');
  });
});

describe('progressBuild', () => {
  it('schedules the first group and holds the rest behind the wait', () => {
    const state = newBuild([cmd('a'), cmd('b'), wait(), cmd('c')]);
    expect(state.build.state).toBe('scheduled');
    expect(state.jobs.map((job) => job.state)).toEqual(['scheduled', 'scheduled', 'waiting', 'waiting']);
  });

  it('runs command, wait, command to passed', () => {
    let state = newBuild([cmd('a'), wait(), cmd('b')]);
    state = act(state, 'a', ['assigned', 'running']);
    expect(state.build.state).toBe('running');
    state = act(state, 'a', ['passed']);
    expect(stateOf(state, 'b')).toEqual(['scheduled']);
    expect(state.jobs[1]!.state).toBe('passed');
    state = run(state, 'b', 'passed');
    expect(state.build.state).toBe('passed');
    expect(state.build.finishedAt).toEqual(at);
  });

  it('goes failing while others still run, then failed, and breaks the jobs behind the wait', () => {
    let state = newBuild([cmd('a'), cmd('b'), wait(), cmd('c')]);
    state = act(state, 'b', ['assigned', 'running']);
    state = run(state, 'a', 'failed');
    expect(state.build.state).toBe('failing');
    state = act(state, 'b', ['passed']);
    expect(state.build.state).toBe('failed');
    expect(stateOf(state, 'c')).toEqual(['broken']);
    expect(state.jobs[2]!.state).toBe('waiting_failed');
  });

  it('goes on past a failure when the wait continues on failure, and still fails', () => {
    let state = newBuild([cmd('a'), wait(true), cmd('b')]);
    state = run(state, 'a', 'failed');
    expect(stateOf(state, 'b')).toEqual(['scheduled']);
    expect(state.build.state).toBe('failing');
    state = run(state, 'b', 'passed');
    expect(state.build.state).toBe('failed');
  });

  it('passes with a soft-failed job', () => {
    let state = newBuild([cmd('a', { softFail: true }), wait(), cmd('b')]);
    state = run(state, 'a', 'failed');
    expect(state.jobs[0]!.softFailed).toBe(true);
    expect(state.build.state).toBe('running');
    state = run(state, 'b', 'passed');
    expect(state.build.state).toBe('passed');
  });

  it('retries automatically up to the limit, then fails', () => {
    let state = newBuild([cmd('a', { retry: { automatic: 2 } })]);
    state = run(state, 'a', 'failed');
    expect(stateOf(state, 'a')).toEqual(['failed', 'scheduled']);
    expect(state.build.state).toBe('running');
    state = run(state, 'a', 'failed');
    expect(stateOf(state, 'a')).toEqual(['failed', 'failed', 'scheduled']);
    state = run(state, 'a', 'failed');
    expect(stateOf(state, 'a')).toEqual(['failed', 'failed', 'failed']);
    expect(state.jobs.map((job) => job.retriesCount)).toEqual([null, 1, 2]);
    expect(state.jobs.map((job) => job.retryType)).toEqual([null, 'automatic', 'automatic']);
    expect(state.build.state).toBe('failed');
  });

  it('passes when an automatic retry passes', () => {
    let state = newBuild([cmd('a', { retry: { automatic: 1 } })]);
    state = run(state, 'a', 'failed');
    state = run(state, 'a', 'passed');
    expect(state.build.state).toBe('passed');
  });

  it('retries a lost job automatically too', () => {
    let state = newBuild([cmd('a', { retry: { automatic: 1 } })]);
    state = act(state, 'a', ['assigned', 'lost']);
    expect(stateOf(state, 'a')).toEqual(['lost', 'scheduled']);
  });

  it('runs every parallel copy before the wait opens', () => {
    let state = newBuild([cmd('p', { parallelism: 3 }), wait(), cmd('z')]);
    expect(stateOf(state, 'p')).toEqual(['scheduled', 'scheduled', 'scheduled']);
    state = run(state, 'p', 'passed');
    state = run(state, 'p', 'passed');
    expect(stateOf(state, 'z')).toEqual(['waiting']);
    state = run(state, 'p', 'passed');
    expect(stateOf(state, 'z')).toEqual(['scheduled']);
  });

  it('blocks once the jobs before the block settle, keeping the state (rule B1), and unblock continues', () => {
    let state = newBuild([cmd('a'), block(), cmd('b')]);
    state = act(state, 'a', ['assigned', 'running']);
    expect(state.build.state).toBe('running');
    state = act(state, 'a', ['passed']);
    expect(state.build).toMatchObject({ state: 'blocked', blockedState: 'passed' });
    const unblocked = transition(state.build, { type: 'unblock' }, at);
    if (!unblocked.ok) throw unblocked.error;
    state = act({ build: unblocked.value, jobs: state.jobs }, 'Deploy', ['unblocked']);
    expect(state.build.state).toBe('running');
    expect(stateOf(state, 'b')).toEqual(['scheduled']);
    state = run(state, 'b', 'passed');
    expect(state.build.state).toBe('passed');
  });

  it('blocks a build that starts with a block step at once', () => {
    const state = newBuild([block(), cmd('b')]);
    expect(state.build).toMatchObject({ state: 'blocked', blockedState: 'passed' });
  });

  it('blocks as failed after a failure', () => {
    let state = newBuild([cmd('a'), block(), cmd('b')]);
    state = run(state, 'a', 'failed');
    expect(state.build).toMatchObject({ state: 'blocked', blockedState: 'failed' });
  });

  it('marks a build without jobs not run, and one with nothing to run skipped', () => {
    expect(newBuild([]).build.state).toBe('not_run');
    expect(newBuild([wait()]).build.state).toBe('skipped');
  });

  it('cancels a canceling build once no job is held by an agent', () => {
    let state = newBuild([cmd('a')]);
    state = act(state, 'a', ['assigned', 'running']);
    const canceling = transition(state.build, { type: 'begin_canceling' }, at);
    if (!canceling.ok) throw canceling.error;
    const jobs = state.jobs.map((job) => {
      const next = jobTransition(job, { type: 'cancel' }, at);
      return next.ok ? next.value : job;
    });
    const still = progressBuild({ build: canceling.value, jobs, at, newId });
    expect(still.build.state).toBe('canceling');
    const finished = jobs.map((job) => {
      const next = jobTransition(
        job,
        { type: 'finish', exitStatus: -1, signal: 'SIGTERM', signalReason: null },
        at,
      );
      return next.ok ? next.value : job;
    });
    expect(progressBuild({ build: canceling.value, jobs: finished, at, newId }).build.state).toBe('canceled');
  });

  /** Cancels the named job on its own (the build is not canceled) and lets the build progress. */
  const cancelJob = (state: { build: BuildSnapshot; jobs: Job[] }, name: string) => {
    const jobs = state.jobs.map((job) => {
      if (job.name !== name) return job;
      const next = jobTransition(job, { type: 'cancel' }, at);
      if (!next.ok) throw next.error;
      return next.value;
    });
    return progressBuild({ build: state.build, jobs, at, newId });
  };

  it('fails a build whose command job was canceled on its own, once the others finish', () => {
    let state = newBuild([cmd('a'), cmd('b')]);
    state = cancelJob(state, 'a');
    expect(stateOf(state, 'a')).toEqual(['canceled']);
    state = run(state, 'b', 'passed');
    expect(state.build.state).toBe('failed');
  });

  it('lets a running job canceled on its own finish on its agent, then fails the build', () => {
    let state = newBuild([cmd('a')]);
    state = act(state, 'a', ['assigned', 'running']);
    state = cancelJob(state, 'a');
    expect(stateOf(state, 'a')).toEqual(['canceling']);
    expect(state.build.state).toBe('running');
    const jobs = state.jobs.map((job) => {
      const next = jobTransition(
        job,
        { type: 'finish', exitStatus: -1, signal: 'SIGTERM', signalReason: null },
        at,
      );
      return next.ok ? next.value : job;
    });
    const finished = progressBuild({ build: state.build, jobs, at, newId });
    expect(stateOf(finished, 'a')).toEqual(['canceled']);
    expect(finished.build.state).toBe('failed');
  });

  it('passes a build whose canceled job belongs to a step that may soft-fail', () => {
    let state = newBuild([cmd('a', { softFail: true }), cmd('b')]);
    state = cancelJob(state, 'a');
    state = run(state, 'b', 'passed');
    expect(state.build.state).toBe('passed');
  });

  it('stops at a wait after a job canceled on its own, as after a failure', () => {
    let state = newBuild([cmd('a'), wait(), cmd('c')]);
    state = cancelJob(state, 'a');
    expect(stateOf(state, 'c')).toEqual(['broken']);
    expect(state.build.state).toBe('failed');
  });

  it('reopens a failed build whose failed job is retried, and the retry decides', () => {
    let state = newBuild([cmd('a'), cmd('b')]);
    state = run(state, 'a', 'failed');
    state = run(state, 'b', 'passed');
    expect(state.build.state).toBe('failed');
    const reopened = transition(state.build, { type: 'reopen' }, at);
    if (!reopened.ok) throw reopened.error;
    const index = state.jobs.findIndex((job) => job.name === 'a');
    const retried = jobTransition(state.jobs[index]!, { type: 'retried', newJobId: 'r' }, at);
    if (!retried.ok) throw retried.error;
    const retry = { ...state.jobs[index]!, id: 'r', state: 'scheduled' as const, exitStatus: null };
    state = progressBuild({
      build: reopened.value,
      jobs: [...state.jobs.map((job, i) => (i === index ? retried.value : job)), retry],
      at,
      newId,
    });
    expect(state.build.state).toBe('running');
    state = run(state, 'a', 'passed');
    expect(state.build.state).toBe('passed');
  });

  it('fails a canceled build reopened by a retry while another of its jobs stays canceled', () => {
    let state = newBuild([cmd('a'), cmd('b')]);
    const canceled = transition(state.build, { type: 'cancel' }, at);
    if (!canceled.ok) throw canceled.error;
    state = {
      ...state,
      build: canceled.value,
      jobs: state.jobs.map((job) => {
        const next = jobTransition(job, { type: 'cancel' }, at);
        return next.ok ? next.value : job;
      }),
    };
    expect(state.jobs.map((job) => job.state)).toEqual(['canceled', 'canceled']);
    const reopened = reopenBuild({ build: state.build, jobs: state.jobs, at });
    if (!reopened.ok) throw reopened.error;
    const index = reopened.value.jobs.findIndex((job) => job.name === 'a');
    const original = reopened.value.jobs[index]!;
    const retried = jobTransition(original, { type: 'retried', newJobId: 'ra' }, at);
    if (!retried.ok) throw retried.error;
    const retry = retryOf(original, { id: 'ra', at, retryType: 'manual' });
    state = progressBuild({
      build: reopened.value.build,
      jobs: [...reopened.value.jobs.map((job, i) => (i === index ? retried.value : job)), retry],
      at,
      newId,
    });
    state = run(state, 'a', 'passed');
    // `b` was canceled and not retried: the build fails, as a build with a job canceled on its own does.
    expect(state.build.state).toBe('failed');
  });

  it('reopens the steps a failure stopped when the failed job is retried, and runs them if it passes', () => {
    let state = newBuild([cmd('a'), wait(), cmd('b'), block()]);
    state = run(state, 'a', 'failed');
    expect(state.build.state).toBe('failed');
    expect(state.jobs.map((job) => job.state)).toEqual([
      'failed',
      'waiting_failed',
      'broken',
      'blocked_failed',
    ]);
    const reopened = reopenBuild({ build: state.build, jobs: state.jobs, at });
    if (!reopened.ok) throw reopened.error;
    expect(reopened.value.build.state).toBe('running');
    expect(reopened.value.jobs.map((job) => job.state)).toEqual(['failed', 'waiting', 'waiting', 'blocked']);
    expect(reopened.value.changed.size).toBe(3);
    const failed = reopened.value.jobs[0]!;
    const marked = jobTransition(failed, { type: 'retried', newJobId: 'again' }, at);
    if (!marked.ok) throw marked.error;
    const retry = retryOf(failed, { id: 'again', at, retryType: 'manual' });
    state = progressBuild({
      build: reopened.value.build,
      jobs: [marked.value, ...reopened.value.jobs.slice(1), retry],
      at,
      newId,
    });
    state = run(state, 'a', 'passed');
    expect(stateOf(state, 'b')).toEqual(['scheduled']);
    state = run(state, 'b', 'passed');
    expect(state.build).toMatchObject({ state: 'blocked', blockedState: 'passed' });
  });

  it('does not reopen a build that is still scheduled or blocked', () => {
    for (const build of [newBuild([cmd('a')]).build, newBuild([block()]).build]) {
      expect(reopenBuild({ build, jobs: [], at }).ok).toBe(false);
    }
  });

  it('reports only the jobs it changed', () => {
    const state = newBuild([cmd('a'), wait(), cmd('b')]);
    const again = progressBuild({ build: state.build, jobs: state.jobs, at, newId });
    expect(again.changed.size).toBe(0);
  });

  const anyStep: fc.Arbitrary<StepDefinition> = fc.oneof(
    fc
      .record({ soft: fc.boolean(), retry: fc.option(fc.integer({ min: 1, max: 2 }), { nil: null }) })
      .map(({ soft, retry }) =>
        cmd(`c${++counter}`, { softFail: soft, retry: retry ? { automatic: retry } : null }),
      ),
    fc.boolean().map(wait),
    fc.constant(null).map(block),
  );

  it('always ends, through the state machine, whatever the jobs do', () => {
    fc.assert(
      fc.property(
        fc.array(anyStep, { maxLength: 6 }),
        fc.array(fc.constantFrom('passed', 'failed', 'lost'), { minLength: 40, maxLength: 40 }),
        (steps, outcomes) => {
          let state = newBuild(steps);
          for (let step = 0; step < 60 && !isFinished(state.build.state); step++) {
            const runnable = state.jobs.find((job) => job.state === 'scheduled');
            const outcome = outcomes[step % outcomes.length]!;
            if (runnable) {
              state = act(
                { build: state.build, jobs: state.jobs },
                runnable.name!,
                outcome === 'lost' ? ['assigned', 'lost'] : ['assigned', 'running', outcome],
              );
              continue;
            }
            expect(state.build.state).toBe('blocked');
          }
          const final: BuildState = state.build.state;
          expect(isFinished(final)).toBe(true);
          expect(state.build.finishedAt).not.toBeNull();
          if (final === 'passed')
            expect(state.jobs.some((job) => job.state === 'failed' && !job.retried && !job.softFailed)).toBe(
              false,
            );
        },
      ),
    );
  });
});
