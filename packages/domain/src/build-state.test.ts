import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BlockedState,
  BUILD_STATE_FILTERS,
  BUILD_STATES,
  type BuildSnapshot,
  type BuildState,
  type BuildTrigger,
  type BuildTriggerType,
  expandStateFilter,
  FINISHED_STATES,
  isCancelable,
  isFinished,
  newBuildSnapshot,
  presentBuildState,
  reopensOnRetry,
  transition,
} from './build-state';

const earlier = new Date('2026-11-21T10:00:00.000Z');
const at = new Date('2026-11-21T10:05:00.000Z');

/** A plausible stored build in each state, as the state machine would have left it. */
function buildIn(state: BuildState): BuildSnapshot {
  const started = state !== 'scheduled' && state !== 'skipped' && state !== 'not_run';
  return {
    state,
    blockedState: state === 'blocked' ? 'passed' : null,
    cancelReason: null,
    startedAt: started ? earlier : null,
    failingAt: state === 'failing' || state === 'failed' ? earlier : null,
    finishedAt: ['passed', 'failed', 'blocked', 'canceled', 'skipped', 'not_run'].includes(state)
      ? earlier
      : null,
  };
}

const triggers: Record<BuildTriggerType, BuildTrigger> = {
  cancel: { type: 'cancel' },
  begin_canceling: { type: 'begin_canceling' },
  canceled: { type: 'canceled' },
  job_started: { type: 'job_started' },
  job_failed: { type: 'job_failed' },
  jobs_finished: { type: 'jobs_finished', outcome: 'passed' },
  block: { type: 'block' },
  unblock: { type: 'unblock' },
  skip: { type: 'skip' },
  not_run: { type: 'not_run' },
  reopen: { type: 'reopen' },
};

type Outcome = { to: BuildState } | { refused: string };
const to = (state: BuildState): Outcome => ({ to: state });
const refused = (code: string): Outcome => ({ refused: code });
const invalid = refused('invalid_build_transition');
const alreadyFinished = refused('build_already_finished');

const table: [BuildState, BuildTriggerType, Outcome][] = [
  ['scheduled', 'cancel', to('canceled')],
  ['scheduled', 'begin_canceling', invalid],
  ['scheduled', 'canceled', invalid],
  ['scheduled', 'job_started', to('running')],
  ['scheduled', 'job_failed', to('failing')],
  ['scheduled', 'jobs_finished', invalid],
  ['scheduled', 'block', to('blocked')],
  ['scheduled', 'unblock', invalid],
  ['scheduled', 'skip', to('skipped')],
  ['scheduled', 'not_run', to('not_run')],
  ['scheduled', 'reopen', invalid],

  ['running', 'cancel', to('canceled')],
  ['running', 'begin_canceling', to('canceling')],
  ['running', 'canceled', invalid],
  ['running', 'job_started', to('running')],
  ['running', 'job_failed', to('failing')],
  ['running', 'jobs_finished', to('passed')],
  ['running', 'block', to('blocked')],
  ['running', 'unblock', invalid],
  ['running', 'skip', invalid],
  ['running', 'not_run', invalid],
  ['running', 'reopen', invalid],

  ['failing', 'cancel', to('canceled')],
  ['failing', 'begin_canceling', to('canceling')],
  ['failing', 'canceled', invalid],
  ['failing', 'job_started', to('failing')],
  ['failing', 'job_failed', to('failing')],
  ['failing', 'jobs_finished', to('failed')],
  ['failing', 'block', to('blocked')],
  ['failing', 'unblock', invalid],
  ['failing', 'skip', invalid],
  ['failing', 'not_run', invalid],
  ['failing', 'reopen', to('running')],

  ['passed', 'cancel', alreadyFinished],
  ['passed', 'begin_canceling', invalid],
  ['passed', 'canceled', invalid],
  ['passed', 'job_started', invalid],
  ['passed', 'job_failed', invalid],
  ['passed', 'jobs_finished', invalid],
  ['passed', 'block', invalid],
  ['passed', 'unblock', invalid],
  ['passed', 'skip', invalid],
  ['passed', 'not_run', invalid],
  ['passed', 'reopen', to('running')],

  ['failed', 'cancel', alreadyFinished],
  ['failed', 'begin_canceling', invalid],
  ['failed', 'canceled', invalid],
  ['failed', 'job_started', invalid],
  ['failed', 'job_failed', invalid],
  ['failed', 'jobs_finished', invalid],
  ['failed', 'block', invalid],
  ['failed', 'unblock', invalid],
  ['failed', 'skip', invalid],
  ['failed', 'not_run', invalid],
  ['failed', 'reopen', to('running')],

  ['blocked', 'cancel', alreadyFinished],
  ['blocked', 'begin_canceling', invalid],
  ['blocked', 'canceled', invalid],
  ['blocked', 'job_started', invalid],
  ['blocked', 'job_failed', invalid],
  ['blocked', 'jobs_finished', invalid],
  ['blocked', 'block', invalid],
  ['blocked', 'unblock', to('running')],
  ['blocked', 'skip', invalid],
  ['blocked', 'not_run', invalid],
  ['blocked', 'reopen', invalid],

  ['canceled', 'cancel', refused('build_already_canceled')],
  ['canceled', 'begin_canceling', invalid],
  ['canceled', 'canceled', invalid],
  ['canceled', 'job_started', invalid],
  ['canceled', 'job_failed', invalid],
  ['canceled', 'jobs_finished', invalid],
  ['canceled', 'block', invalid],
  ['canceled', 'unblock', invalid],
  ['canceled', 'skip', invalid],
  ['canceled', 'not_run', invalid],
  ['canceled', 'reopen', to('running')],

  ['canceling', 'cancel', refused('build_already_canceling')],
  ['canceling', 'begin_canceling', invalid],
  ['canceling', 'canceled', to('canceled')],
  ['canceling', 'job_started', invalid],
  ['canceling', 'job_failed', invalid],
  ['canceling', 'jobs_finished', invalid],
  ['canceling', 'block', invalid],
  ['canceling', 'unblock', invalid],
  ['canceling', 'skip', invalid],
  ['canceling', 'not_run', invalid],
  ['canceling', 'reopen', invalid],

  ['skipped', 'cancel', alreadyFinished],
  ['skipped', 'begin_canceling', invalid],
  ['skipped', 'canceled', invalid],
  ['skipped', 'job_started', invalid],
  ['skipped', 'job_failed', invalid],
  ['skipped', 'jobs_finished', invalid],
  ['skipped', 'block', invalid],
  ['skipped', 'unblock', invalid],
  ['skipped', 'skip', invalid],
  ['skipped', 'not_run', invalid],
  ['skipped', 'reopen', invalid],

  ['not_run', 'cancel', alreadyFinished],
  ['not_run', 'begin_canceling', invalid],
  ['not_run', 'canceled', invalid],
  ['not_run', 'job_started', invalid],
  ['not_run', 'job_failed', invalid],
  ['not_run', 'jobs_finished', invalid],
  ['not_run', 'block', invalid],
  ['not_run', 'unblock', invalid],
  ['not_run', 'skip', invalid],
  ['not_run', 'not_run', invalid],
  ['not_run', 'reopen', invalid],
];

describe('transition', () => {
  it('has exactly one table row for every state and trigger', () => {
    const pairs = new Set(table.map(([state, trigger]) => `${state}:${trigger}`));
    expect(pairs.size).toBe(table.length);
    expect(table).toHaveLength(BUILD_STATES.length * Object.keys(triggers).length);
  });

  it.each(table)('from %s on %s gives %j', (state, triggerType, outcome) => {
    const result = transition(buildIn(state), triggers[triggerType], at);
    if ('to' in outcome) {
      expect(result.ok && result.value.state).toBe(outcome.to);
    } else {
      expect(result.ok).toBe(false);
      expect(!result.ok && { kind: result.error.kind, code: result.error.code }).toEqual({
        kind: 'unprocessable',
        code: outcome.refused,
      });
    }
  });

  it('does not change the snapshot it is given', () => {
    const build = buildIn('running');
    const copy = structuredClone(build);
    transition(build, { type: 'cancel', reason: 'stop' }, at);
    expect(build).toEqual(copy);
  });

  describe('cancel', () => {
    it.each<BuildState>(['scheduled', 'running', 'failing'])(
      'finishes a %s build with the reason given',
      (state) => {
        const result = transition(buildIn(state), { type: 'cancel', reason: 'superseded' }, at);
        expect(result).toEqual({
          ok: true,
          value: { ...buildIn(state), state: 'canceled', cancelReason: 'superseded', finishedAt: at },
        });
      },
    );

    it('records no reason when none is given', () => {
      const result = transition(newBuildSnapshot(), { type: 'cancel' }, at);
      expect(result.ok && result.value.cancelReason).toBeNull();
    });

    it.each<[BuildState, string]>([
      ['passed', 'This build has already finished'],
      ['failed', 'This build has already finished'],
      ['blocked', 'This build has already finished'],
      ['skipped', 'This build has already finished'],
      ['not_run', 'This build has already finished'],
      ['canceling', 'This build is already being canceled'],
      ['canceled', 'This build has already been canceled'],
    ])('refuses a %s build saying "%s"', (state, message) => {
      const result = transition(buildIn(state), { type: 'cancel' }, at);
      expect(!result.ok && result.error.message).toBe(message);
    });
  });

  it('records the reason when canceling begins and keeps it until the build is canceled', () => {
    const canceling = transition(
      buildIn('running'),
      { type: 'begin_canceling', reason: 'deploy aborted' },
      at,
    );
    expect(canceling).toEqual({
      ok: true,
      value: { ...buildIn('running'), state: 'canceling', cancelReason: 'deploy aborted' },
    });
    if (!canceling.ok) return;
    const later = new Date(at.getTime() + 1000);
    const canceled = transition(canceling.value, { type: 'canceled' }, later);
    expect(canceled.ok && canceled.value).toMatchObject({
      state: 'canceled',
      cancelReason: 'deploy aborted',
      finishedAt: later,
    });
  });

  it('sets startedAt when the first job starts and keeps it for later jobs', () => {
    const started = transition(newBuildSnapshot(), { type: 'job_started' }, at);
    expect(started.ok && started.value.startedAt).toEqual(at);
    const again = transition(buildIn('running'), { type: 'job_started' }, at);
    expect(again).toEqual({ ok: true, value: buildIn('running') });
  });

  it('sets startedAt when a job starts on a build that was blocked before any job ran', () => {
    const unblocked = { ...buildIn('running'), startedAt: null };
    const started = transition(unblocked, { type: 'job_started' }, at);
    expect(started.ok && started.value).toMatchObject({ state: 'running', startedAt: at });
  });

  it('sets failingAt at the first failure and keeps it at later ones', () => {
    const failing = transition(buildIn('running'), { type: 'job_failed' }, at);
    expect(failing.ok && failing.value).toMatchObject({
      state: 'failing',
      startedAt: earlier,
      failingAt: at,
    });
    const again = transition(buildIn('failing'), { type: 'job_failed' }, at);
    expect(again).toEqual({ ok: true, value: buildIn('failing') });
  });

  it('sets startedAt too when a scheduled build fails first', () => {
    const failing = transition(newBuildSnapshot(), { type: 'job_failed' }, at);
    expect(failing.ok && failing.value).toMatchObject({ state: 'failing', startedAt: at, failingAt: at });
  });

  it.each<[BuildState, 'passed' | 'failed', BuildState]>([
    ['running', 'passed', 'passed'],
    ['running', 'failed', 'failed'],
    ['failing', 'passed', 'failed'],
    ['failing', 'failed', 'failed'],
  ])('finishes a %s build whose jobs %s as %s', (state, outcome, expected) => {
    const result = transition(buildIn(state), { type: 'jobs_finished', outcome }, at);
    expect(result.ok && result.value).toMatchObject({ state: expected, finishedAt: at });
  });

  it.each<[BuildState, 'passed' | 'failed']>([
    ['scheduled', 'passed'],
    ['running', 'passed'],
    ['failing', 'failed'],
  ])('blocks a %s build so that it reports %s', (state, blockedState) => {
    const result = transition(buildIn(state), { type: 'block' }, at);
    expect(result.ok && result.value).toMatchObject({ state: 'blocked', blockedState, finishedAt: at });
  });

  it.each<['passed' | 'failed', BuildState]>([
    ['passed', 'running'],
    ['failed', 'failing'],
  ])('unblocks a build blocked as %s back to %s, clearing finishedAt', (blockedState, expected) => {
    const result = transition({ ...buildIn('blocked'), blockedState }, { type: 'unblock' }, at);
    expect(result.ok && result.value).toMatchObject({
      state: expected,
      blockedState: null,
      finishedAt: null,
    });
  });

  it.each<['skip' | 'not_run', BuildState]>([
    ['skip', 'skipped'],
    ['not_run', 'not_run'],
  ])('on %s finishes a scheduled build as %s', (type, expected) => {
    const result = transition(newBuildSnapshot(), { type }, at);
    expect(result.ok && result.value).toMatchObject({ state: expected, finishedAt: at, startedAt: null });
  });

  it.each<[BuildState, BuildTrigger, string]>([
    ['running', { type: 'skip' }, 'A build cannot be skipped when it is running'],
    ['not_run', { type: 'unblock' }, 'A build cannot unblock when it is not run'],
    ['passed', { type: 'job_started' }, 'A build cannot start a job when it is passed'],
    ['scheduled', { type: 'canceled' }, 'A build cannot finish canceling when it is scheduled'],
  ])('explains why a %s build refuses %j', (state, trigger, message) => {
    const result = transition(buildIn(state), trigger, at);
    expect(!result.ok && result.error.message).toBe(message);
  });

  const anyTrigger: fc.Arbitrary<BuildTrigger> = fc.oneof(
    fc.constantFrom(...Object.values(triggers)),
    fc.constantFrom('passed', 'failed').map((outcome) => ({ type: 'jobs_finished', outcome }) as const),
    fc.option(fc.string(), { nil: undefined }).map((reason) => ({ type: 'cancel', reason }) as const),
  );

  it('keeps every reachable build consistent, whatever happens to it', () => {
    fc.assert(
      fc.property(fc.array(anyTrigger, { maxLength: 30 }), (sequence) => {
        let build = newBuildSnapshot();
        sequence.forEach((trigger, i) => {
          const result = transition(build, trigger, new Date(at.getTime() + i));
          if (!result.ok) return;
          const before = build;
          build = result.value;
          expect(BUILD_STATES).toContain(build.state);
          expect(build.finishedAt !== null).toBe(isFinished(build.state));
          expect(build.blockedState !== null).toBe(build.state === 'blocked');
          expect(presentBuildState(build).state).not.toBe('blocked');
          // The first start and the first failure are facts that later events cannot undo.
          if (before.startedAt) expect(build.startedAt).toBe(before.startedAt);
          if (before.failingAt) expect(build.failingAt).toBe(before.failingAt);
        });
      }),
    );
  });

  it('never throws on any state and trigger', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BUILD_STATES), anyTrigger, (state, trigger) => {
        const result = transition(buildIn(state), trigger, at);
        expect(typeof result.ok).toBe('boolean');
      }),
    );
  });
});

describe('isCancelable', () => {
  it.each(BUILD_STATES.map((state) => [state, ['scheduled', 'running', 'failing'].includes(state)] as const))(
    'says a %s build can be canceled: %s',
    (state, expected) => {
      expect(isCancelable(state)).toBe(expected);
    },
  );
});

describe('isFinished', () => {
  it.each<[BuildState, boolean]>([
    ['running', false],
    ['scheduled', false],
    ['passed', true],
    ['failing', false],
    ['failed', true],
    ['blocked', true],
    ['canceled', true],
    ['canceling', false],
    ['skipped', true],
    ['not_run', true],
  ])('says a %s build has finished: %s', (state, expected) => {
    expect(isFinished(state)).toBe(expected);
  });
});

describe('expandStateFilter', () => {
  it.each<[(typeof BUILD_STATE_FILTERS)[number][], BuildState[]]>([
    [[], []],
    [['running'], ['running']],
    [['finished'], ['passed', 'failed', 'blocked', 'canceled']],
    [
      ['running', 'finished'],
      ['running', 'passed', 'failed', 'blocked', 'canceled'],
    ],
    [
      ['passed', 'finished', 'passed'],
      ['passed', 'failed', 'blocked', 'canceled'],
    ],
    [
      ['skipped', 'not_run'],
      ['skipped', 'not_run'],
    ],
  ])('expands %j to %j', (filter, expected) => {
    expect(expandStateFilter(filter)).toEqual(expected);
  });

  it('accepts every state and finished as a filter value', () => {
    expect(BUILD_STATE_FILTERS).toEqual([...BUILD_STATES, 'finished']);
    expect(FINISHED_STATES).toEqual(['passed', 'failed', 'blocked', 'canceled']);
  });
});

describe('presentBuildState', () => {
  it('reopens a build blocked after a failure when a job is retried, and only that blocked build', () => {
    const blockedFailed = { ...buildIn('blocked'), blockedState: 'failed' as const };
    const result = transition(blockedFailed, { type: 'reopen' }, at);
    expect(result.ok && result.value).toMatchObject({
      state: 'running',
      blockedState: null,
      finishedAt: null,
    });
    expect(transition(buildIn('blocked'), { type: 'reopen' }, at).ok).toBe(false);
  });

  it.each<[BuildState, BlockedState | null, boolean]>([
    ['scheduled', null, false],
    ['running', null, false],
    ['failing', null, true],
    ['passed', null, true],
    ['failed', null, true],
    ['blocked', 'passed', false],
    ['blocked', 'running', false],
    ['blocked', 'failed', true],
    ['canceled', null, true],
    ['canceling', null, false],
    ['skipped', null, false],
    ['not_run', null, false],
  ])('a %s build (blocked as %s) reopens when a job is retried: %s', (state, blockedState, expected) => {
    expect(reopensOnRetry({ state, blockedState })).toBe(expected);
    // Whenever it says so, the state machine agrees.
    expect(transition({ ...buildIn(state), blockedState }, { type: 'reopen' }, at).ok).toBe(expected);
  });

  it.each<[Pick<BuildSnapshot, 'state' | 'blockedState'>, ReturnType<typeof presentBuildState>]>([
    [
      { state: 'blocked', blockedState: 'passed' },
      { state: 'passed', blocked: true, blockedState: 'passed' },
    ],
    [
      { state: 'blocked', blockedState: 'failed' },
      { state: 'failed', blocked: true, blockedState: 'failed' },
    ],
    [
      { state: 'blocked', blockedState: 'running' },
      { state: 'running', blocked: true, blockedState: 'running' },
    ],
    [
      { state: 'blocked', blockedState: null },
      { state: 'passed', blocked: true, blockedState: 'passed' },
    ],
    [
      { state: 'running', blockedState: null },
      { state: 'running', blocked: false, blockedState: '' },
    ],
    [
      { state: 'canceled', blockedState: null },
      { state: 'canceled', blocked: false, blockedState: '' },
    ],
  ])('presents %j as %j (rule B1)', (build, expected) => {
    expect(presentBuildState(build)).toEqual(expected);
  });
});
