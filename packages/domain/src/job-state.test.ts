import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JOB_STATES, JOB_TYPES, type JobState, type JobType } from './entities';
import { jobIn } from './job.fixture';
import {
  agentMatches,
  agentMayRun,
  isFinishedJob,
  isRetryable,
  isUnblockable,
  type JobTrigger,
  type JobTriggerType,
  jobTransition,
  retryOf,
} from './job-state';

const at = new Date('2026-11-21T10:05:00.000Z');

const triggers: Record<JobTriggerType, JobTrigger> = {
  schedule: { type: 'schedule' },
  assign: { type: 'assign', agentId: 'agent-1' },
  accept: { type: 'accept' },
  start: { type: 'start' },
  finish: { type: 'finish', exitStatus: 0, signal: null, signalReason: null },
  cancel: { type: 'cancel' },
  lose: { type: 'lose' },
  release: { type: 'release' },
  stop: { type: 'stop' },
  unblock: { type: 'unblock', userId: 'user-1' },
  retried: { type: 'retried', newJobId: 'job-2' },
  restore: { type: 'restore' },
  trigger_build: { type: 'trigger_build', buildId: 'build-2' },
  triggered: { type: 'triggered', outcome: 'failed' },
  trigger_refused: { type: 'trigger_refused' },
};

/** Every allowed (type, state, trigger) and where it leads; every other combination is refused. */
const allowed: [JobType, JobState, JobTriggerType, JobState][] = [
  ['script', 'waiting', 'schedule', 'scheduled'],
  ['script', 'scheduled', 'assign', 'assigned'],
  ['script', 'assigned', 'accept', 'accepted'],
  ['script', 'assigned', 'start', 'running'],
  ['script', 'accepted', 'start', 'running'],
  ['script', 'assigned', 'finish', 'passed'],
  ['script', 'accepted', 'finish', 'passed'],
  ['script', 'running', 'finish', 'passed'],
  ['script', 'canceling', 'finish', 'canceled'],
  ['script', 'assigned', 'cancel', 'canceling'],
  ['script', 'accepted', 'cancel', 'canceling'],
  ['script', 'running', 'cancel', 'canceling'],
  ['script', 'waiting', 'cancel', 'canceled'],
  ['script', 'scheduled', 'cancel', 'canceled'],
  ['script', 'assigned', 'lose', 'lost'],
  ['script', 'accepted', 'lose', 'lost'],
  ['script', 'running', 'lose', 'lost'],
  ['script', 'canceling', 'lose', 'lost'],
  ['script', 'waiting', 'stop', 'broken'],
  ['waiter', 'waiting', 'cancel', 'canceled'],
  ['waiter', 'waiting', 'release', 'passed'],
  ['waiter', 'waiting', 'stop', 'waiting_failed'],
  ['manual', 'blocked', 'cancel', 'canceled'],
  ['manual', 'blocked', 'stop', 'blocked_failed'],
  ['manual', 'blocked', 'unblock', 'unblocked'],
  ['script', 'broken', 'restore', 'waiting'],
  ['waiter', 'waiting_failed', 'restore', 'waiting'],
  ['manual', 'blocked_failed', 'restore', 'blocked'],
  ['trigger', 'waiting', 'schedule', 'scheduled'],
  ['trigger', 'scheduled', 'trigger_build', 'running'],
  ['trigger', 'running', 'triggered', 'failed'],
  ['trigger', 'scheduled', 'trigger_refused', 'failed'],
  ['trigger', 'running', 'trigger_refused', 'failed'],
  ['trigger', 'waiting', 'cancel', 'canceled'],
  ['trigger', 'scheduled', 'cancel', 'canceled'],
  ['trigger', 'running', 'cancel', 'canceled'],
  ['trigger', 'waiting', 'stop', 'broken'],
  ['trigger', 'broken', 'restore', 'waiting'],
  ...(['passed', 'failed', 'canceled', 'broken', 'expired', 'timed_out', 'lost'] as const).map(
    (state) => ['script', state, 'retried', state] as [JobType, JobState, JobTriggerType, JobState],
  ),
];

const everyCombination = JOB_TYPES.flatMap((type) =>
  JOB_STATES.flatMap((state) =>
    (Object.keys(triggers) as JobTriggerType[]).map((trigger) => {
      const row = allowed.find(([t, s, tr]) => t === type && s === state && tr === trigger);
      return [type, state, trigger, row ? row[3] : null] as const;
    }),
  ),
);

describe('jobTransition', () => {
  it.each(everyCombination)('a %s job in %s on %s → %s', (type, state, trigger, expected) => {
    const result = jobTransition(jobIn(state, type), triggers[trigger], at);
    if (expected === null) {
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error.kind).toBe('unprocessable');
    } else {
      expect(result.ok && result.value.state).toBe(expected);
    }
  });

  it.each<[number | null, string | null, boolean, JobState, boolean]>([
    [0, null, false, 'passed', false],
    [1, null, false, 'failed', false],
    [1, null, true, 'failed', true],
    [0, null, true, 'passed', false],
    [null, 'SIGKILL', false, 'failed', false],
    [0, 'SIGTERM', false, 'failed', false],
  ])(
    'finishing with exit %s and signal %s (soft_fail %s) → %s, soft failed %s',
    (exit, signal, soft, state, softFailed) => {
      const result = jobTransition(
        jobIn('running', 'script', { softFail: soft }),
        { type: 'finish', exitStatus: exit, signal, signalReason: null },
        at,
      );
      expect(result.ok && result.value).toMatchObject({
        state,
        softFailed,
        exitStatus: exit,
        signal,
        finishedAt: at,
      });
    },
  );

  it('ends a job that ran to its timeout timed out, failing, and one that finished sooner by its exit', () => {
    const started = new Date(at.getTime() - 5 * 60_000);
    const finish = (
      exitStatus: number | null,
      timeoutInMinutes: number | null,
      signal: string | null = null,
    ) =>
      jobTransition(
        jobIn('running', 'script', { startedAt: started, timeoutInMinutes }),
        { type: 'finish', exitStatus, signal, signalReason: null },
        at,
      );
    const state = (result: ReturnType<typeof finish>) => (result.ok ? result.value.state : null);
    expect(state(finish(null, 5, 'SIGTERM'))).toBe('timed_out');
    expect(state(finish(0, 5))).toBe('timed_out');
    expect(state(finish(0, 6))).toBe('passed');
    expect(state(finish(1, 6))).toBe('failed');
    expect(state(finish(0, null))).toBe('passed');
    // A job canceled while it ran ends canceled, whatever its timeout.
    const canceling = jobTransition(
      jobIn('canceling', 'script', { startedAt: started, timeoutInMinutes: 1 }),
      { type: 'finish', exitStatus: null, signal: 'SIGTERM', signalReason: 'cancel' },
      at,
    );
    expect(canceling.ok && canceling.value.state).toBe('canceled');
  });

  it('records the build a trigger job made, and ends it as that build ended', () => {
    const running = jobTransition(
      jobIn('scheduled', 'trigger'),
      { type: 'trigger_build', buildId: 'build-9' },
      at,
    );
    expect(running.ok && running.value).toMatchObject({
      state: 'running',
      triggeredBuildId: 'build-9',
      startedAt: at,
    });
    if (!running.ok) throw running.error;
    for (const outcome of ['passed', 'failed', 'canceled'] as const) {
      const ended = jobTransition(running.value, { type: 'triggered', outcome }, at);
      expect(ended.ok ? ended.value : null).toMatchObject({ state: outcome, finishedAt: at });
    }
  });

  it('records who unblocked and when', () => {
    const result = jobTransition(jobIn('blocked', 'manual'), { type: 'unblock', userId: 'user-9' }, at);
    expect(result.ok && result.value).toMatchObject({ unblockedById: 'user-9', unblockedAt: at });
  });

  it('refuses to retry a job twice, saying so', () => {
    const result = jobTransition(jobIn('failed', 'script', { retried: true }), triggers.retried, at);
    expect(!result.ok && result.error.message).toBe('This job has already been retried');
  });

  it('starts a retry afresh and counts it', () => {
    const old = jobIn('failed', 'script', { exitStatus: 1, agentId: 'a', retriesCount: 1, startedAt: at });
    const retry = retryOf(old, { id: 'job-2', at, retryType: 'manual' });
    expect(retry).toMatchObject({
      id: 'job-2',
      state: 'scheduled',
      exitStatus: null,
      agentId: null,
      retriesCount: 2,
      retryType: 'manual',
      runnableAt: at,
      startedAt: null,
    });
  });

  it('never throws and only finished jobs have finished_at set by a transition', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...JOB_STATES),
        fc.constantFrom('script', 'waiter', 'manual' as const),
        fc.constantFrom(...Object.values(triggers)),
        (state, type, trigger) => {
          const result = jobTransition(jobIn(state, type), trigger, at);
          if (result.ok && type === 'script' && result.value.finishedAt) {
            expect(isFinishedJob(result.value.state)).toBe(true);
          }
        },
      ),
    );
  });
});

describe('isUnblockable', () => {
  it('holds for a blocked block step only, in every type and state', () => {
    for (const type of JOB_TYPES) {
      for (const state of JOB_STATES) {
        expect(isUnblockable(jobIn(state, type)), `${type} ${state}`).toBe(
          type === 'manual' && state === 'blocked',
        );
      }
    }
  });
});

describe('isRetryable', () => {
  const retryableStates = ['passed', 'failed', 'canceled', 'broken', 'expired', 'timed_out', 'lost'];

  it('holds for a command job that ended other than skipped, in every type and state', () => {
    for (const type of JOB_TYPES) {
      for (const state of JOB_STATES) {
        expect(isRetryable(jobIn(state, type)), `${type} ${state}`).toBe(
          type === 'script' && retryableStates.includes(state),
        );
      }
    }
  });

  it('is what the retried trigger accepts, and never twice', () => {
    for (const state of JOB_STATES) {
      const job = jobIn(state, 'script');
      expect(jobTransition(job, triggers.retried, at).ok, state).toBe(isRetryable(job));
      expect(isRetryable({ ...job, retried: true })).toBe(false);
    }
  });
});

describe('agentMatches', () => {
  it.each<[string[], string[], boolean]>([
    [['queue=default'], [], true],
    [['queue=default'], ['os=linux'], true],
    [['queue=default'], ['queue=deploy'], false],
    [['queue=deploy'], ['queue=deploy', 'os=linux'], true],
    [['queue=deploy', 'os=linux'], ['queue=deploy'], false],
    [['os=*'], ['os=mac'], true],
    [['os=*'], [], false],
    [['*'], ['queue=anything'], true],
    [[], [], true],
    [['broken'], ['broken'], false],
  ])('rules %j with tags %j → %s', (rules, tags, expected) => {
    expect(agentMatches(rules, tags)).toBe(expected);
  });
});

describe('agentMayRun', () => {
  const unclustered = { clusterId: null, clusterQueueId: null };
  const inQueue = (queue: string | null) => ({ clusterId: 'c1', clusterQueueId: queue });
  it.each<[string, Parameters<typeof agentMayRun>[0], Parameters<typeof agentMayRun>[1], boolean]>([
    [
      'an unclustered job to an unclustered agent by its tags',
      { agentQueryRules: ['queue=default'], ...unclustered },
      { tags: [], ...unclustered },
      true,
    ],
    [
      'an unclustered job not to a clustered agent',
      { agentQueryRules: ['queue=default'], ...unclustered },
      { tags: ['queue=default'], ...inQueue('q1') },
      false,
    ],
    [
      'a clustered job not to an unclustered agent',
      { agentQueryRules: ['queue=default'], ...inQueue('q1') },
      { tags: ['queue=default'], ...unclustered },
      false,
    ],
    [
      "a clustered job to its queue's agent, whatever its queue rule says",
      { agentQueryRules: ['queue=default'], ...inQueue('q1') },
      { tags: ['queue=linux'], ...inQueue('q1') },
      true,
    ],
    [
      "a clustered job not to another queue's agent",
      { agentQueryRules: ['queue=linux'], ...inQueue('q1') },
      { tags: ['queue=linux'], ...inQueue('q2') },
      false,
    ],
    [
      'a clustered job not to an agent of another cluster with the same queue id',
      { agentQueryRules: [], ...inQueue('q1') },
      { tags: [], clusterId: 'c2', clusterQueueId: 'q1' },
      false,
    ],
    [
      'a clustered job without a queue to no agent',
      { agentQueryRules: ['queue=gone'], ...inQueue(null) },
      { tags: [], ...inQueue(null) },
      false,
    ],
    [
      "a clustered job's other rules against the agent's tags",
      { agentQueryRules: ['queue=linux', 'os=linux'], ...inQueue('q1') },
      { tags: ['queue=linux', 'os=mac'], ...inQueue('q1') },
      false,
    ],
  ])('%s', (_name, job, agent, expected) => {
    expect(agentMayRun(job, agent)).toBe(expected);
  });
});
