import type { Agent, Job, JobState } from './entities';
import { unprocessable } from './errors';
import { err, ok, type Result } from './result';

/** States of a job that an agent holds: it counts against the agent's one job and must be heard from. */
export const ACTIVE_JOB_STATES = [
  'assigned',
  'accepted',
  'running',
  'canceling',
] as const satisfies readonly JobState[];

/** States a command job ends in. */
export const FINISHED_JOB_STATES = [
  'passed',
  'failed',
  'canceled',
  'skipped',
  'broken',
  'expired',
  'timed_out',
  'lost',
] as const satisfies readonly JobState[];

export type FinishedJobState = (typeof FINISHED_JOB_STATES)[number];

/** States a command job can be retried from: every end but a skip. */
export type RetryableJobState = Exclude<FinishedJobState, 'skipped'>;

export function isActiveJob(state: JobState): boolean {
  return (ACTIVE_JOB_STATES as readonly JobState[]).includes(state);
}

export function isFinishedJob(state: JobState): boolean {
  return (FINISHED_JOB_STATES as readonly JobState[]).includes(state);
}

/** Whether a new run of the job can be asked for: a command job, not yet retried, ended but not skipped. */
export function isRetryable(job: Pick<Job, 'type' | 'state' | 'retried'>): boolean {
  return job.type === 'script' && !job.retried && isFinishedJob(job.state) && job.state !== 'skipped';
}

/**
 * A failure that fails the build: soft-failed jobs do not. A command job canceled on its own fails its
 * build unless its step may soft-fail, as the public API's does ("manually cancel a step, which will
 * cause the build to fail"); a canceled build ends `canceled` whatever its jobs (`progressBuild`).
 */
export function isHardFailure(
  job: Pick<Job, 'type' | 'state' | 'softFailed' | 'softFail' | 'retried'>,
): boolean {
  if (job.retried || job.softFailed) return false;
  // A trigger job is canceled with the build it waited for, which fails its step as a failure would.
  if (job.state === 'canceled') return (job.type === 'script' || job.type === 'trigger') && !job.softFail;
  return (
    job.state === 'failed' || job.state === 'lost' || job.state === 'timed_out' || job.state === 'expired'
  );
}

/** Whether nothing more happens to the job by itself (the gate it stands for, if any, is decided). */
export function isSettledJob(job: Pick<Job, 'type' | 'state'>): boolean {
  switch (job.type) {
    case 'waiter':
      return job.state === 'passed' || job.state === 'waiting_failed' || job.state === 'canceled';
    case 'manual':
      return job.state === 'unblocked' || job.state === 'blocked_failed' || job.state === 'canceled';
    default:
      return isFinishedJob(job.state);
  }
}

/** Whether a job with a timeout ran to it: its agent stops it then, and the job ends `timed_out`. */
function ranOutOfTime(job: Job, at: Date): boolean {
  if (job.timeoutInMinutes === null || job.startedAt === null) return false;
  return at.getTime() - job.startedAt.getTime() >= job.timeoutInMinutes * 60_000;
}

/** How a trigger job ends: as the build it waited for ended, or passed once an `async` one's build is made. */
export type TriggeredOutcome = 'passed' | 'failed' | 'canceled';

export type JobTrigger =
  | { type: 'schedule' }
  | { type: 'assign'; agentId: string }
  | { type: 'accept' }
  | { type: 'start' }
  | { type: 'finish'; exitStatus: number | null; signal: string | null; signalReason: string | null }
  | { type: 'cancel' }
  | { type: 'lose' }
  | { type: 'release' }
  | { type: 'stop' }
  | { type: 'unblock'; userId: string | null }
  | { type: 'retried'; newJobId: string }
  | { type: 'restore' }
  | { type: 'trigger_build'; buildId: string }
  | { type: 'triggered'; outcome: TriggeredOutcome }
  | { type: 'trigger_refused' };
export type JobTriggerType = JobTrigger['type'];

const PHRASES: Record<JobTriggerType, string> = {
  schedule: 'be scheduled',
  assign: 'be assigned to an agent',
  accept: 'be accepted',
  start: 'be started',
  finish: 'be finished',
  cancel: 'be canceled',
  lose: 'be lost',
  release: 'be passed',
  stop: 'be stopped',
  unblock: 'be unblocked',
  retried: 'be retried',
  restore: 'be restored',
  trigger_build: 'trigger a build',
  triggered: 'be finished by its triggered build',
  trigger_refused: 'be refused its build',
};

function refuse(job: Job, trigger: JobTrigger): Result<Job> {
  const what = job.type === 'manual' ? 'block step' : job.type === 'waiter' ? 'wait step' : 'job';
  const code = trigger.type === 'unblock' ? 'job_not_blocked' : 'invalid_job_transition';
  const message =
    trigger.type === 'unblock'
      ? `This ${what} cannot be unblocked when it is ${job.state.replace('_', ' ')}`
      : trigger.type === 'retried'
        ? job.retried
          ? 'This job has already been retried'
          : `This ${what} cannot be retried when it is ${job.state.replace('_', ' ')}`
        : `A ${what} cannot ${PHRASES[trigger.type]} when it is ${job.state.replace('_', ' ')}`;
  return err(unprocessable(code, message));
}

/** Total over every job state × trigger: a pair that is not a transition is an error value, never a throw. */
export function jobTransition(job: Job, trigger: JobTrigger, at: Date): Result<Job> {
  const { state, type } = job;
  const script = type === 'script';
  const triggers = type === 'trigger';
  switch (trigger.type) {
    case 'schedule':
      if ((script || triggers) && state === 'waiting')
        return ok({ ...job, state: 'scheduled', runnableAt: at });
      break;
    case 'trigger_build':
      if (triggers && state === 'scheduled') {
        return ok({ ...job, state: 'running', startedAt: at, triggeredBuildId: trigger.buildId });
      }
      break;
    case 'triggered':
      if (triggers && state === 'running') return ok({ ...job, state: trigger.outcome, finishedAt: at });
      break;
    case 'trigger_refused':
      // Refused before its build was written (no access, no such pipeline, too deep): it fails.
      if (triggers && (state === 'scheduled' || state === 'running')) {
        return ok({ ...job, state: 'failed', startedAt: job.startedAt ?? at, finishedAt: at });
      }
      break;
    case 'assign':
      if (script && state === 'scheduled') return ok({ ...job, state: 'assigned', agentId: trigger.agentId });
      break;
    case 'accept':
      if (script && state === 'assigned') return ok({ ...job, state: 'accepted' });
      break;
    case 'start':
      if (script && (state === 'assigned' || state === 'accepted')) {
        return ok({ ...job, state: 'running', startedAt: at });
      }
      break;
    case 'finish':
      if (script && (isActiveJob(state) || state === 'canceling')) {
        const passed = trigger.exitStatus === 0 && trigger.signal === null;
        const next: JobState =
          state === 'canceling'
            ? 'canceled'
            : ranOutOfTime(job, at)
              ? 'timed_out'
              : passed
                ? 'passed'
                : 'failed';
        return ok({
          ...job,
          state: next,
          exitStatus: trigger.exitStatus,
          signal: trigger.signal,
          signalReason: trigger.signalReason,
          softFailed: next === 'failed' && job.softFail,
          startedAt: job.startedAt ?? at,
          finishedAt: at,
        });
      }
      break;
    case 'cancel':
      if (script && (state === 'assigned' || state === 'accepted' || state === 'running')) {
        return ok({ ...job, state: 'canceling' });
      }
      // A trigger job stops waiting for its build; the build itself goes on.
      if (triggers && (state === 'waiting' || state === 'scheduled' || state === 'running')) {
        return ok({ ...job, state: 'canceled', finishedAt: at });
      }
      if (
        (script && (state === 'waiting' || state === 'scheduled')) ||
        (type === 'waiter' && state === 'waiting') ||
        (type === 'manual' && state === 'blocked')
      ) {
        return ok({ ...job, state: 'canceled', finishedAt: at });
      }
      break;
    case 'lose':
      if (script && isActiveJob(state)) return ok({ ...job, state: 'lost', finishedAt: at });
      break;
    case 'release':
      if (type === 'waiter' && state === 'waiting') return ok({ ...job, state: 'passed', finishedAt: at });
      break;
    case 'stop':
      // The build stopped before reaching the job: it will never run.
      if (state === 'waiting' && type !== 'manual') {
        return ok({ ...job, state: type === 'waiter' ? 'waiting_failed' : 'broken', finishedAt: at });
      }
      if (type === 'manual' && state === 'blocked') return ok({ ...job, state: 'blocked_failed' });
      break;
    case 'unblock':
      if (type === 'manual' && state === 'blocked') {
        return ok({ ...job, state: 'unblocked', unblockedById: trigger.userId, unblockedAt: at });
      }
      break;
    case 'restore':
      // A reopened build may reach the steps a failure had stopped it before.
      if ((script || triggers) && state === 'broken')
        return ok({ ...job, state: 'waiting', finishedAt: null });
      if (type === 'waiter' && state === 'waiting_failed')
        return ok({ ...job, state: 'waiting', finishedAt: null });
      if (type === 'manual' && state === 'blocked_failed') return ok({ ...job, state: 'blocked' });
      break;
    case 'retried':
      if (isRetryable(job)) {
        return ok({ ...job, retried: true, retriedInJobId: trigger.newJobId });
      }
      break;
  }
  return refuse(job, trigger);
}

/** Whether the job can be unblocked now: exactly when the unblock trigger would be accepted. */
export function isUnblockable(job: Job): boolean {
  return jobTransition(job, { type: 'unblock', userId: null }, new Date(0)).ok;
}

/** The new run of a retried job: same step, fresh state, counted in `retries_count`. */
export function retryOf(
  job: Job,
  input: { id: string; at: Date; retryType: 'manual' | 'automatic'; position?: number },
): Job {
  return {
    ...job,
    id: input.id,
    state: 'scheduled',
    agentId: null,
    exitStatus: null,
    softFailed: false,
    retried: false,
    retriedInJobId: null,
    retriesCount: (job.retriesCount ?? 0) + 1,
    retryType: input.retryType,
    createdAt: input.at,
    runnableAt: input.at,
    startedAt: null,
    finishedAt: null,
    signal: null,
    signalReason: null,
  };
}

/** The queue of an agent without a `queue=` tag, and of a job without agent query rules. */
export const DEFAULT_QUEUE = 'default';

/** Agent query rules (`key=value`, `key=*`, `*`) satisfied by an agent's tags (`key=value`). */
export function agentMatches(rules: readonly string[], tags: readonly string[]): boolean {
  const tagValues = tagValuesOf(tags);
  const effective = rules.length ? rules : [`queue=${DEFAULT_QUEUE}`];
  if (!tagValues.has('queue')) tagValues.set('queue', DEFAULT_QUEUE);
  return rulesMet(effective, tagValues);
}

/**
 * Whether the agent may run the job: an unclustered job goes to unclustered agents whose tags meet its
 * rules ({@link agentMatches}); a clustered one to the agents of its cluster's queue whose tags meet its
 * other rules (the queue was decided when the job was made, by id).
 */
export function agentMayRun(
  job: Pick<Job, 'agentQueryRules' | 'clusterId' | 'clusterQueueId'>,
  agent: Pick<Agent, 'tags' | 'clusterId' | 'clusterQueueId'>,
): boolean {
  if (job.clusterId !== agent.clusterId) return false;
  if (job.clusterId === null) return agentMatches(job.agentQueryRules, agent.tags);
  if (job.clusterQueueId === null || job.clusterQueueId !== agent.clusterQueueId) return false;
  const others = job.agentQueryRules.filter((rule) => !rule.startsWith('queue='));
  return rulesMet(others, tagValuesOf(agent.tags));
}

function tagValuesOf(tags: readonly string[]): Map<string, string> {
  const tagValues = new Map<string, string>();
  for (const tag of tags) {
    const at = tag.indexOf('=');
    if (at > 0) tagValues.set(tag.slice(0, at), tag.slice(at + 1));
  }
  return tagValues;
}

function rulesMet(rules: readonly string[], tagValues: ReadonlyMap<string, string>): boolean {
  return rules.every((rule) => {
    if (rule === '*') return true;
    const at = rule.indexOf('=');
    if (at <= 0) return false;
    const value = tagValues.get(rule.slice(0, at));
    const wanted = rule.slice(at + 1);
    return value !== undefined && (wanted === '*' || value === wanted);
  });
}
