import {
  type BlockField,
  countLogHeaders,
  isFinishedJob,
  isUnblockable,
  isUuid,
  type Job,
  notFound,
  type Operation,
  type PipelineAction,
  reopensOnRetry,
  retryOf,
  unblockMetaData,
  unprocessable,
} from '@ci/domain';
import type { LogChunk } from '../agents/agent-ports';
import type { Actor } from '../auth/actor';
import { type BuildResult, requireBuild } from '../builds/build-result';
import type { BuildRef } from '../builds/get-build';
import type { Deps, JobView } from '../ports';
import { changeJob } from './change-job';

export interface JobRef extends BuildRef {
  job: string;
}

export interface JobInBuild {
  build: BuildResult;
  job: JobView;
}

/** The job in its build as the actor may see it; a job of another build answers like a missing one. */
export const loadJob =
  (deps: Deps) =>
  async (actor: Actor, ref: JobRef, operation: Operation, action: PipelineAction): Promise<JobInBuild> => {
    const { build } = await requireBuild(deps)(actor, operation, ref, action, { includeRetriedJobs: true });
    if (!isUuid(ref.job)) throw notFound('job');
    return jobIn(build, ref.job);
  };

/** One run among the build's jobs (retried runs included); any other id answers like a missing job. */
function jobIn(build: BuildResult, jobId: string): JobInBuild {
  const job = build.view.jobs.find((candidate) => candidate.job.id === jobId);
  if (!job) throw notFound('job');
  return { build, job };
}

/** The build read again after a change, as the actor saw it before. */
async function reload(deps: Deps, result: JobInBuild, jobId: string): Promise<JobInBuild> {
  const view = await deps.repos.builds.findByNumber({
    pipelineId: result.build.view.pipeline.id,
    pipeline: result.build.view.pipeline,
    number: result.build.view.build.number,
    includeRetriedJobs: true,
  });
  // Deleted since the change: it answers as what does not exist.
  if (!view) throw notFound('build');
  return jobIn({ ...result.build, view }, jobId);
}

export interface JobLog {
  content: string;
  size: number;
  /** Unix time in nanoseconds of each section header, in order. */
  headerTimes: number[];
}

function assembleLog(chunks: readonly LogChunk[]): JobLog {
  const sorted = [...chunks].sort((a, b) => a.sequence - b.sequence);
  const content = sorted.map((chunk) => chunk.content).join('');
  const headerTimes: number[] = [];
  for (const chunk of sorted) {
    const receivedAt = chunk.receivedAt.getTime() * 1_000_000;
    for (let headers = countLogHeaders(chunk.content); headers > 0; headers--) headerTimes.push(receivedAt);
  }
  return { content, size: Buffer.byteLength(content), headerTimes };
}

export const getJobLog =
  (deps: Deps) =>
  async (actor: Actor, ref: JobRef): Promise<JobInBuild & { log: JobLog }> => {
    const result = await loadJob(deps)(actor, ref, 'getJobLog', 'read');
    return { ...result, log: assembleLog(await deps.repos.jobs.logChunks(result.job.job.id)) };
  };

/** Deletes the job's log, as the public API's `DELETE …/log`: whoever may build the pipeline may. */
/** A page of a job's log after a chunk, and whether the job had finished before the page was read. */
export interface JobLogPage {
  chunks: LogChunk[];
  finished: boolean;
  /** the page is full: more chunks may follow at once */
  more: boolean;
}

/** The chunks a page of a followed log holds at most (≤ 1 MB each): a reader never gets more at once. */
const LOG_PAGE_CHUNKS = 2;

/**
 * Follows a job's log a page at a time (the web's live log, the CLI's watch): access is decided once, as
 * for `getJobLog`; each read then costs one look at the job's state and one page of chunks.
 */
export const followJobLog =
  (deps: Deps) =>
  async (
    actor: Actor,
    ref: JobRef,
  ): Promise<{ job: JobInBuild; read: (afterSequence: number) => Promise<JobLogPage> }> => {
    const job = await loadJob(deps)(actor, ref, 'getJobLog', 'read');
    const jobId = job.job.job.id;
    const read = async (afterSequence: number): Promise<JobLogPage> => {
      // The state first: a job seen finished has sent its last chunk, so the page read after it is the end.
      const location = await deps.repos.jobs.find(jobId);
      const finished = !location || isFinishedJob(location.job.state);
      const chunks = await deps.repos.jobs.logChunksAfter({ jobId, afterSequence, limit: LOG_PAGE_CHUNKS });
      const more = chunks.length === LOG_PAGE_CHUNKS;
      return { chunks, finished: finished && !more, more };
    };
    return { job, read };
  };

export const deleteJobLog =
  (deps: Deps) =>
  async (actor: Actor, ref: JobRef): Promise<void> => {
    const result = await loadJob(deps)(actor, ref, 'deleteJobLog', 'build');
    await deps.repos.jobs.deleteLog(result.job.job.id);
  };

export const getJobEnv =
  (deps: Deps) =>
  async (actor: Actor, ref: JobRef): Promise<JobInBuild> =>
    loadJob(deps)(actor, ref, 'getJobEnv', 'read');

/** A new run of the job; the old one shows `retried: true` and points at it. A finished build runs again. */
export const retryJob =
  (deps: Deps) =>
  async (actor: Actor, ref: JobRef): Promise<JobInBuild> => {
    const result = await loadJob(deps)(actor, ref, 'retryJob', 'build');
    if (result.build.view.build.state === 'canceling') {
      throw unprocessable('build_canceling', 'This build is being canceled');
    }
    const newId = deps.newId();
    await changeJob(deps)({
      buildId: result.build.view.build.id,
      jobId: result.job.job.id,
      trigger: { type: 'retried', newJobId: newId },
      before: (build) => (reopensOnRetry(build) ? { type: 'reopen' } : null),
      add: (job: Job) => [retryOf(job, { id: newId, at: deps.clock.now(), retryType: 'manual' })],
    });
    return reload(deps, result, newId);
  };

/** What unblocking a block job asks for (its step's fields); none for a step without and other jobs. */
export const getBlockFields =
  (deps: Deps) =>
  async (actor: Actor, ref: JobRef): Promise<BlockField[]> => {
    const result = await loadJob(deps)(actor, ref, 'getBuild', 'read');
    return result.job.job.blockFields ?? [];
  };

/**
 * Unblocks a block step: the build resumes the state it was in (rule B1) and the next steps run. The
 * step's field values become the build's meta-data in the same transaction, so the steps it lets run can
 * read them, and a refused unblock or meta-data write keeps neither.
 */
export const unblockJob =
  (deps: Deps) =>
  async (actor: Actor, ref: JobRef, values?: Readonly<Record<string, string>>): Promise<JobInBuild> => {
    const result = await loadJob(deps)(actor, ref, 'unblockJob', 'build');
    const { job } = result.job;
    let metaData: Record<string, string> | undefined;
    // A job that cannot be unblocked is refused below as such, whatever the values.
    if (isUnblockable(job) && job.blockFields) {
      const checked = unblockMetaData(job.blockFields, values);
      if (!checked.ok) throw checked.error;
      metaData = checked.value;
    }
    await changeJob(deps)({
      buildId: result.build.view.build.id,
      jobId: result.job.job.id,
      trigger: { type: 'unblock', userId: actor.user.id },
      before: (build) => (build.state === 'blocked' ? { type: 'unblock' } : null),
      ...(metaData ? { metaData } : {}),
    });
    return reload(deps, result, result.job.job.id);
  };

/**
 * Cancels a command job on its own: one an agent holds becomes `canceling` (its agent stops it at its next
 * job-state poll and reports it `canceled`), one no agent holds yet is `canceled` at once. The build goes
 * on with its other jobs and fails at the end, unless the job's step may soft-fail (`isHardFailure`).
 */
export const cancelJob =
  (deps: Deps) =>
  async (actor: Actor, ref: JobRef): Promise<JobInBuild> => {
    const result = await loadJob(deps)(actor, ref, 'cancelJob', 'build');
    if (result.job.job.type !== 'script') {
      throw unprocessable('invalid_job_type', 'Only command jobs can be canceled');
    }
    await changeJob(deps)({
      buildId: result.build.view.build.id,
      jobId: result.job.job.id,
      trigger: { type: 'cancel' },
    });
    return reload(deps, result, result.job.job.id);
  };
