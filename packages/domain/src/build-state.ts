import { type DomainError, unprocessable } from './errors';
import { err, ok, type Result } from './result';

export const BUILD_STATES = [
  'running',
  'scheduled',
  'passed',
  'failing',
  'failed',
  'blocked',
  'canceled',
  'canceling',
  'skipped',
  'not_run',
] as const;
export type BuildState = (typeof BUILD_STATES)[number];

export const BUILD_STATE_FILTERS = [...BUILD_STATES, 'finished'] as const;
export type BuildStateFilter = (typeof BUILD_STATE_FILTERS)[number];

/** The set the spec's `finished` filter stands for. */
export const FINISHED_STATES = [
  'passed',
  'failed',
  'blocked',
  'canceled',
] as const satisfies readonly BuildState[];

/** The state a blocked build reports instead of `blocked` (rule B1). */
export type BlockedState = 'passed' | 'failed' | 'running';

export interface BuildSnapshot {
  state: BuildState;
  blockedState: BlockedState | null;
  cancelReason: string | null;
  startedAt: Date | null;
  failingAt: Date | null;
  finishedAt: Date | null;
}

export type BuildTrigger =
  | { type: 'cancel'; reason?: string }
  | { type: 'begin_canceling'; reason?: string }
  | { type: 'canceled' }
  | { type: 'job_started' }
  | { type: 'job_failed' }
  | { type: 'jobs_finished'; outcome: 'passed' | 'failed' }
  | { type: 'block' }
  | { type: 'unblock' }
  | { type: 'skip' }
  | { type: 'not_run' }
  | { type: 'reopen' };
export type BuildTriggerType = BuildTrigger['type'];

const TRIGGER_PHRASES: Record<BuildTriggerType, string> = {
  cancel: 'be canceled',
  begin_canceling: 'begin canceling',
  canceled: 'finish canceling',
  job_started: 'start a job',
  job_failed: 'fail a job',
  jobs_finished: 'finish its jobs',
  block: 'block',
  unblock: 'unblock',
  skip: 'be skipped',
  not_run: 'be marked not run',
  reopen: 'run again',
};

export function newBuildSnapshot(): BuildSnapshot {
  return {
    state: 'scheduled',
    blockedState: null,
    cancelReason: null,
    startedAt: null,
    failingAt: null,
    finishedAt: null,
  };
}

export function expandStateFilter(values: readonly BuildStateFilter[]): BuildState[] {
  return [...new Set(values.flatMap((value) => (value === 'finished' ? FINISHED_STATES : [value])))];
}

export function isCancelable(state: BuildState): boolean {
  return state === 'scheduled' || state === 'running' || state === 'failing';
}

/** Whether the build has stopped; wider than FINISHED_STATES, which is only the spec's filter set. */
export function isFinished(state: BuildState): boolean {
  return (
    state === 'passed' ||
    state === 'failed' ||
    state === 'blocked' ||
    state === 'canceled' ||
    state === 'skipped' ||
    state === 'not_run'
  );
}

/**
 * Whether retrying one of its jobs runs the build again: it has finished, it is failing (it may pass
 * after all), or it waits at a block step after a failure.
 */
export function reopensOnRetry(build: Pick<BuildSnapshot, 'state' | 'blockedState'>): boolean {
  const { state } = build;
  if (state === 'blocked') return build.blockedState === 'failed';
  return state === 'passed' || state === 'failed' || state === 'canceled' || state === 'failing';
}

/** Total over every state × trigger: a pair that is not a transition is an error, never a throw. */
export function transition(build: BuildSnapshot, trigger: BuildTrigger, at: Date): Result<BuildSnapshot> {
  const { state } = build;
  switch (trigger.type) {
    case 'cancel':
      if (!isCancelable(state)) return err(cancelRefusal(state));
      return ok({ ...build, state: 'canceled', cancelReason: trigger.reason ?? null, finishedAt: at });
    case 'begin_canceling':
      if (state === 'running' || state === 'failing') {
        return ok({ ...build, state: 'canceling', cancelReason: trigger.reason ?? null });
      }
      break;
    case 'canceled':
      if (state === 'canceling') return ok({ ...build, state: 'canceled', finishedAt: at });
      break;
    case 'job_started':
      if (state === 'scheduled' || state === 'running' || state === 'failing') {
        // startedAt may still be unset on a build that was blocked before any job ran.
        const next = state === 'scheduled' ? 'running' : state;
        return ok({ ...build, state: next, startedAt: build.startedAt ?? at });
      }
      break;
    case 'job_failed':
      if (state === 'scheduled' || state === 'running' || state === 'failing') {
        return ok({
          ...build,
          state: 'failing',
          startedAt: build.startedAt ?? at,
          failingAt: build.failingAt ?? at,
        });
      }
      break;
    case 'jobs_finished':
      if (state === 'running') return ok({ ...build, state: trigger.outcome, finishedAt: at });
      // A build that had a failing job fails whatever the last jobs did.
      if (state === 'failing') return ok({ ...build, state: 'failed', finishedAt: at });
      break;
    case 'block':
      if (state === 'scheduled' || state === 'running' || state === 'failing') {
        const blockedState = state === 'failing' ? 'failed' : 'passed';
        return ok({ ...build, state: 'blocked', blockedState, finishedAt: at });
      }
      break;
    case 'unblock':
      if (state === 'blocked') {
        // A build blocked after a failure keeps failing, so it cannot pass later.
        const resumed = build.blockedState === 'failed' ? 'failing' : 'running';
        return ok({ ...build, state: resumed, blockedState: null, finishedAt: null });
      }
      break;
    case 'skip':
      if (state === 'scheduled') return ok({ ...build, state: 'skipped', finishedAt: at });
      break;
    case 'not_run':
      if (state === 'scheduled') return ok({ ...build, state: 'not_run', finishedAt: at });
      break;
    case 'reopen':
      // A retried job runs the build again; its jobs decide afresh whether it is failing (the first
      // failure stays recorded in failingAt).
      if (state === 'failing' || state === 'passed' || state === 'failed' || state === 'canceled') {
        return ok({ ...build, state: 'running', finishedAt: null });
      }
      // Blocked after a failure: the retry may pass, and the block step then blocks it again as passed.
      if (state === 'blocked' && build.blockedState === 'failed') {
        return ok({ ...build, state: 'running', blockedState: null, finishedAt: null });
      }
      break;
  }
  return err(
    unprocessable(
      'invalid_build_transition',
      `A build cannot ${TRIGGER_PHRASES[trigger.type]} when it is ${state.replace('_', ' ')}`,
    ),
  );
}

function cancelRefusal(state: BuildState): DomainError {
  if (state === 'canceling') {
    return unprocessable('build_already_canceling', 'This build is already being canceled');
  }
  if (state === 'canceled') {
    return unprocessable('build_already_canceled', 'This build has already been canceled');
  }
  return unprocessable('build_already_finished', 'This build has already finished');
}

/** Rule B1: a blocked build reports the state it was in and `blocked: true`. */
export function presentBuildState(build: Pick<BuildSnapshot, 'state' | 'blockedState'>): {
  state: Exclude<BuildState, 'blocked'>;
  blocked: boolean;
  /** the wire's `blocked_state`: '' unless blocked, then the state the build kept */
  blockedState: '' | BlockedState;
} {
  if (build.state === 'blocked') {
    const kept = build.blockedState ?? 'passed';
    return { state: kept, blocked: true, blockedState: kept };
  }
  return { state: build.state, blocked: false, blockedState: '' };
}
