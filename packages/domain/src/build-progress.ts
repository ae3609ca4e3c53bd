import { type BuildSnapshot, type BuildTrigger, isFinished, transition } from './build-state';
import type { Job } from './entities';
import { isActiveJob, isHardFailure, isSettledJob, jobTransition, retryOf } from './job-state';
import type { Result } from './result';

export interface BuildProgress {
  build: BuildSnapshot;
  /** Every job of the build after the step: changed ones replaced, new ones (automatic retries) appended. */
  jobs: Job[];
  /** ids of the jobs that changed or are new, for the repository to write */
  changed: Set<string>;
}

function must(result: Result<Job>): Job {
  // Progress only fires triggers its own checks allow; a refusal here is a defect, not input.
  if (!result.ok) throw result.error;
  return result.value;
}

/**
 * What happens next in a build after any of its jobs changed: automatic retries, which waiting jobs a
 * wait or block step lets through, which ones will never run, and the build state the jobs now imply.
 * Pure and total; the build state only moves through `transition`.
 */
export function progressBuild(input: {
  build: BuildSnapshot;
  jobs: readonly Job[];
  at: Date;
  newId: () => string;
}): BuildProgress {
  const { at } = input;
  const jobs = [...input.jobs].sort((a, b) => a.position - b.position || +a.createdAt - +b.createdAt);
  const changed = new Set<string>();
  const replace = (index: number, next: Job) => {
    jobs[index] = next;
    changed.add(next.id);
  };
  let build = input.build;
  const fire = (trigger: BuildTrigger) => {
    const next = transition(build, trigger, at);
    if (next.ok) build = next.value;
    return next.ok;
  };

  // A build that is over does not move by itself (a retry reopens it first).
  if (isFinished(build.state) && build.state !== 'blocked') return { build, jobs, changed };

  if (build.state === 'canceling') {
    if (!jobs.some((job) => isActiveJob(job.state))) fire({ type: 'canceled' });
    return { build, jobs, changed };
  }

  // Automatic retries: a hard failure within its step's limit runs again.
  for (let i = 0; i < jobs.length; i++) {
    const job = jobs[i]!;
    const limit = job.retryAutomaticLimit;
    if (job.type !== 'script' || job.retried || limit === null) continue;
    if (!(job.state === 'failed' || job.state === 'lost') || job.softFailed) continue;
    if ((job.retriesCount ?? 0) >= limit) continue;
    const retry = retryOf(job, { id: input.newId(), at, retryType: 'automatic' });
    replace(i, must(jobTransition(job, { type: 'retried', newJobId: retry.id }, at)));
    jobs.push(retry);
    changed.add(retry.id);
  }
  jobs.sort((a, b) => a.position - b.position || +a.createdAt - +b.createdAt);

  // Gates: walk the steps in order; a gate opens once everything before it has settled.
  let open = true;
  let stopped = false;
  let allBeforeSettled = true;
  let failedBefore = false;
  let blockReached = false;
  for (let i = 0; i < jobs.length; i++) {
    const job = jobs[i]!;
    if (job.retried) continue;
    if (stopped) {
      const next = jobTransition(job, { type: 'stop' }, at);
      if (next.ok) replace(i, next.value);
      continue;
    }
    if (job.type === 'script' || job.type === 'trigger') {
      if (job.state === 'waiting' && open) replace(i, must(jobTransition(job, { type: 'schedule' }, at)));
    } else if (job.type === 'waiter') {
      if (job.state === 'waiting') {
        if (open && allBeforeSettled) {
          if (failedBefore && !job.continueOnFailure) {
            replace(i, must(jobTransition(job, { type: 'stop' }, at)));
            stopped = true;
          } else {
            replace(i, must(jobTransition(job, { type: 'release' }, at)));
          }
        } else {
          open = false;
        }
      } else if (job.state === 'waiting_failed') {
        stopped = true;
      }
    } else if (job.type === 'manual') {
      if (job.state === 'blocked') {
        if (open && allBeforeSettled) blockReached = true;
        open = false;
      } else if (job.state === 'blocked_failed') {
        stopped = true;
      }
    }
    const current = jobs[i]!;
    if (!isSettledJob(current)) allBeforeSettled = false;
    if (isHardFailure(current)) failedBefore = true;
  }

  // The build state the jobs imply, reached through the state machine.
  const current = jobs.filter((job) => !job.retried);
  const scripts = current.filter((job) => job.type === 'script');
  const failed = current.some(isHardFailure);
  // Retried runs count: a build whose first run failed and is being retried has started.
  const started = jobs.some(
    (job) => (job.type === 'script' || job.type === 'trigger') && job.startedAt !== null,
  );
  const busy = current.some((job) => job.state === 'scheduled' || isActiveJob(job.state));

  if (build.state === 'blocked') return { build, jobs, changed };
  if (current.length === 0) {
    fire({ type: 'not_run' });
    return { build, jobs, changed };
  }
  if (build.state === 'failing' && !failed) fire({ type: 'reopen' });
  if (started) fire({ type: 'job_started' });
  if (failed) fire({ type: 'job_failed' });
  if (blockReached && !busy) {
    fire({ type: 'block' });
  } else if (current.every(isSettledJob)) {
    if (!started && scripts.every((job) => job.state === 'broken' || job.state === 'skipped')) {
      fire({ type: 'skip' });
    }
    // A build whose jobs settled without starting (all soft-failed before start cannot happen) still ends.
    if (build.state === 'scheduled') fire({ type: 'job_started' });
    fire({ type: 'jobs_finished', outcome: failed ? 'failed' : 'passed' });
  }
  return { build, jobs, changed };
}

/**
 * A finished (or failing) build runs again because a job is retried: the build reopens through the state
 * machine and the steps a failure had stopped it before wait again, so they run if the retry passes.
 */
export function reopenBuild(input: {
  build: BuildSnapshot;
  jobs: readonly Job[];
  at: Date;
}): Result<BuildProgress> {
  const reopened = transition(input.build, { type: 'reopen' }, input.at);
  if (!reopened.ok) return reopened;
  const changed = new Set<string>();
  const jobs = input.jobs.map((job) => {
    if (job.retried) return job;
    const restored = jobTransition(job, { type: 'restore' }, input.at);
    if (!restored.ok) return job;
    changed.add(job.id);
    return restored.value;
  });
  return { ok: true, value: { build: reopened.value, jobs, changed } };
}

/**
 * A build stopped through the state machine (`cancel`, or `skip` for one that never started) with its
 * live jobs canceled: those not yet on an agent at once, those agents hold `canceling` until they stop.
 */
export function stopBuild(input: {
  build: BuildSnapshot;
  jobs: readonly Job[];
  at: Date;
  trigger: Extract<BuildTrigger, { type: 'cancel' | 'skip' }>;
}): Result<BuildProgress> {
  const stopped = transition(input.build, input.trigger, input.at);
  if (!stopped.ok) return stopped;
  const changed = new Set<string>();
  const jobs = input.jobs.map((job) => {
    if (job.retried) return job;
    const canceled = jobTransition(job, { type: 'cancel' }, input.at);
    if (!canceled.ok) return job;
    changed.add(job.id);
    return canceled.value;
  });
  return { ok: true, value: { build: stopped.value, jobs, changed } };
}
