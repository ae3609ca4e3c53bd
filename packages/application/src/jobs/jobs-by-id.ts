import { distinctUuids, notFound } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireScope } from '../auth/authorize';
import { addressInBuild, type JobResult, jobsInBuilds } from '../builds/builds-by-id';
import type { Deps } from '../ports';
import { cancelJob, type JobInBuild, type JobRef, retryJob, unblockJob } from './job-actions';

/**
 * The job use cases for a transport that names jobs by UUID (GraphQL): the changes find the job's REST
 * address and call the REST use case, so every rule, refusal and message is REST's. A job of an
 * organization the actor may not use answers as one that does not exist.
 */

/** The run each of these jobs retried (its `retrySource`), as the actor may see it; null for first runs. */
export const getRetrySourcesOf =
  (deps: Deps) =>
  async (actor: Actor, jobIds: readonly string[]): Promise<Array<JobResult | null>> => {
    requireScope(actor, 'getBuild');
    const wanted = distinctUuids(jobIds);
    const pairs = await deps.repos.lookups.retrySources(wanted);
    const sources = await jobsInBuilds(
      deps,
      actor,
      pairs.map((pair) => ({ jobId: pair.sourceId, buildId: pair.buildId })),
    );
    const sourceOf = new Map(pairs.map((pair) => [pair.jobId, sources.get(pair.sourceId) ?? null]));
    return jobIds.map((id) => sourceOf.get(id.toLowerCase()) ?? null);
  };

/** The REST address of a job the actor's organizations hold (whether the actor may act on it is the use case's question). */
async function addressJob(deps: Deps, actor: Actor, jobId: string | null): Promise<JobRef> {
  const { found, ref } = await addressInBuild(deps, actor, {
    id: jobId,
    read: async (id) => (await deps.repos.lookups.jobBuilds([id]))[0],
    resource: 'job',
  });
  return { ...ref, job: found.jobId };
}

const asResult = ({ build, job }: JobInBuild): JobResult => ({ ...job, build });

/**
 * Retries the job with this UUID (null: the id named no job) as `PUT …/jobs/{id}/retry` does; answers
 * the job, now retried, and its new run.
 */
export const retryJobById =
  (deps: Deps) =>
  async (actor: Actor, jobId: string | null): Promise<{ job: JobResult; retry: JobResult }> => {
    requireScope(actor, 'retryJob');
    const ref = await addressJob(deps, actor, jobId);
    const retry = await retryJob(deps)(actor, ref);
    // The answer's build holds every run, the retried one included.
    const job = retry.build.view.jobs.find((candidate) => candidate.job.id === ref.job);
    if (!job) throw notFound('job');
    return { job: asResult({ build: retry.build, job }), retry: asResult(retry) };
  };

/**
 * A change of one job, named by UUID, made by its REST use case `act` under `operation`'s scope: the job
 * as it is after.
 */
const changeJobById =
  (operation: 'unblockJob' | 'cancelJob', act: typeof unblockJob) =>
  (deps: Deps) =>
  async (
    actor: Actor,
    jobId: string | null,
    values?: Readonly<Record<string, string>>,
  ): Promise<JobResult> => {
    requireScope(actor, operation);
    const ref = await addressJob(deps, actor, jobId);
    return asResult(await act(deps)(actor, ref, values));
  };

/** Unblocks the block step with this UUID as `PUT …/jobs/{id}/unblock` does. */
export const unblockJobById = changeJobById('unblockJob', unblockJob);

/** Cancels the command job with this UUID on its own (`jobTypeCommandCancel`): REST's rules, {@link cancelJob}. */
export const cancelJobById = changeJobById('cancelJob', cancelJob);
