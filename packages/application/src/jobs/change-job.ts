import {
  type BuildSnapshot,
  type BuildTrigger,
  type Job,
  type JobTrigger,
  jobTransition,
  META_DATA_LIMITS,
  notFound,
  progressBuild,
  reopenBuild,
  transition,
} from '@ci/domain';
import type { BuildChange, BuildWork } from '../agents/agent-ports';
import type { Deps } from '../ports';

/**
 * Fires `trigger` on one job of a build and lets the build progress, all under the build's lock.
 * `before` may move the build first (unblock, reopen). Throws the domain's refusal as is.
 */
export const changeJob =
  (deps: Deps) =>
  async (input: {
    buildId: string;
    jobId: string;
    trigger: JobTrigger | ((job: Job) => JobTrigger);
    /** Moves the build first, decided on the locked build (unblock, reopen); null: leave it. */
    before?: (build: BuildSnapshot) => BuildTrigger | null;
    /** Jobs to add alongside (a retry's new run). */
    add?: (job: Job) => Job[];
    /** Refuses before any change, e.g. a job held by another agent. */
    check?: (job: Job) => void;
    /** Merged into the build's meta-data with the change, or neither is kept (an unblock's fields). */
    metaData?: Readonly<Record<string, string>>;
  }): Promise<Job> => {
    const result = await deps.repos.jobs.changeBuild(input.buildId, (work: BuildWork): BuildChange<Job> => {
      const at = deps.clock.now();
      let build: BuildSnapshot = work.build;
      let current = work.jobs;
      const restored = new Set<string>();
      const before = input.before?.(work.build) ?? null;
      if (before?.type === 'reopen') {
        const reopened = reopenBuild({ build, jobs: current, at });
        if (!reopened.ok) throw reopened.error;
        build = reopened.value.build;
        current = reopened.value.jobs;
        for (const id of reopened.value.changed) restored.add(id);
      } else if (before) {
        const moved = transition(build, before, at);
        if (!moved.ok) throw moved.error;
        build = moved.value;
      }
      const job = current.find((candidate) => candidate.id === input.jobId);
      if (!job) throw notFound('job');
      input.check?.(job);
      const trigger = typeof input.trigger === 'function' ? input.trigger(job) : input.trigger;
      const next = jobTransition(job, trigger, at);
      if (!next.ok) throw next.error;
      const added = input.add?.(next.value) ?? [];
      const jobs = [
        ...current.map((candidate) => (candidate.id === job.id ? next.value : candidate)),
        ...added,
      ];
      const progress = progressBuild({ build, jobs, at, newId: deps.newId });
      const changed = new Set([job.id, ...restored, ...added.map((extra) => extra.id), ...progress.changed]);
      const final = progress.jobs.find((candidate) => candidate.id === job.id) ?? next.value;
      const metaData =
        input.metaData && Object.keys(input.metaData).length > 0
          ? { metaData: { values: input.metaData, maxKeys: META_DATA_LIMITS.keysPerBuild } }
          : {};
      return { build: progress.build, jobs: progress.jobs, changed, result: final, ...metaData };
    });
    if (!result) throw notFound('job');
    return result;
  };
