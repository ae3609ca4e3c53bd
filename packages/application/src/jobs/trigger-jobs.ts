import {
  DomainError,
  type Job,
  type JobTrigger,
  jobTransition,
  MAX_TRIGGER_DEPTH,
  mayTriggerBuild,
  newBuildRefusal,
  type Pipeline,
  type PipelineAccess,
  pipelineAccess,
  progressBuild,
  TRIGGER_REFUSALS,
  triggeredBuildRequest,
  triggeredOutcome,
} from '@ci/domain';
import type { TriggerJobDue } from '../agents/agent-ports';
import { insertBuild } from '../builds/create-build';
import type { Deps } from '../ports';

/** How many trigger jobs one pass takes on; the rest wait for the next pass. */
const TRIGGER_PASS_SIZE = 50;

/**
 * The server's part of trigger steps, one pass: each scheduled trigger job gets its build (or fails with
 * the reason in its log), each waiting one ends as its build ended, an `async` one passes once its build
 * is written. Safe in any number of processes at once: every job changes under its build's lock, and the
 * build's id is chosen in that change before the build is written, so a pass that finds a trigger job
 * running without its build writes that very build (a second writer fails on the id), never another.
 */
export const runTriggerJobs = (deps: Deps) => async (): Promise<number> => {
  const due = await deps.repos.jobs.triggerJobsDue(TRIGGER_PASS_SIZE);
  let moved = 0;
  for (const item of due) {
    if (await runTriggerJob(deps, item)) moved++;
  }
  return moved;
};

async function runTriggerJob(deps: Deps, due: TriggerJobDue): Promise<boolean> {
  const { job } = due;
  if (job.state === 'running' && due.triggeredBuildState !== null) {
    const outcome = job.trigger?.async ? 'passed' : triggeredOutcome(due.triggeredBuildState);
    return outcome ? moveJob(deps, job, { type: 'triggered', outcome }) : false;
  }
  const decided = await decideTarget(deps, due);
  if ('refusal' in decided) return refuse(deps, job, decided.refusal);
  let buildId = job.triggeredBuildId;
  if (job.state === 'scheduled' || buildId === null) {
    buildId = deps.newId();
    if (!(await moveJob(deps, job, { type: 'trigger_build', buildId }))) return false;
  }
  try {
    await writeTriggeredBuild(deps, due, decided.target, buildId);
  } catch (error) {
    // Another process wrote it first (the same id): it is there, which is all that was wanted.
    const [written] = await deps.repos.lookups.builds({ ids: [buildId], includeRetriedJobs: false });
    if (!written) {
      if (!(error instanceof DomainError)) throw error;
      // The target pipeline went meanwhile.
      return refuse(deps, { ...job, state: 'running' }, error.message);
    }
  }
  if (job.trigger?.async) {
    await moveJob(deps, { ...job, state: 'running' }, { type: 'triggered', outcome: 'passed' });
  } else {
    // The trigger job shows its build's number now: a write to the triggering build gives its pipeline a
    // new content revision (ADR 0016), so no answer kept from before the build existed is given again.
    await deps.repos.jobs.changeBuild(job.buildId, (work) => ({
      build: work.build,
      jobs: work.jobs,
      changed: new Set<string>(),
      result: true,
    }));
  }
  return true;
}

/** The pipeline the job may trigger a build of, or why it may not. */
async function decideTarget(
  deps: Deps,
  due: TriggerJobDue,
): Promise<{ target: Pipeline } | { refusal: string }> {
  const slug = due.job.trigger?.pipeline ?? '';
  const target = await deps.repos.pipelines.findBySlug(due.organization.id, slug);
  if (!target) return { refusal: TRIGGER_REFUSALS.noPipeline(slug) };
  const archived = newBuildRefusal(target, { branch: '', ignorePipelineBranchFilters: true });
  if (archived) return { refusal: archived.message };
  const chain = await deps.repos.jobs.triggerChainLength(due.job.buildId, MAX_TRIGGER_DEPTH);
  if (chain >= MAX_TRIGGER_DEPTH) return { refusal: TRIGGER_REFUSALS.tooDeep() };
  const creatorAccess = await creatorAccessTo(deps, due, slug);
  const rules =
    creatorAccess === 'admin' || creatorAccess === 'build_and_read'
      ? []
      : await deps.repos.rules.list({
          organizationId: due.organization.id,
          types: ['pipeline.trigger_build.pipeline'],
          sourcePipelineId: due.sourcePipelineId,
          targetPipelineId: target.id,
          offset: 0,
          limit: 100,
        });
  const allowed = mayTriggerBuild({
    sourcePipelineId: due.sourcePipelineId,
    targetPipelineId: target.id,
    rules,
    creatorAccess,
  });
  return allowed ? { target } : { refusal: TRIGGER_REFUSALS.notAllowed(slug) };
}

/** What the triggering build's creator may do on the target (null: the build has no creator). */
async function creatorAccessTo(deps: Deps, due: TriggerJobDue, slug: string): Promise<PipelineAccess | null> {
  const userId = due.parent.creatorId;
  if (!userId) return null;
  const facts = await deps.repos.access.pipeline({
    userId,
    organizationSlug: due.organization.slug,
    pipelineSlug: slug,
  });
  return facts?.pipeline ? pipelineAccess(facts) : 'none';
}

async function writeTriggeredBuild(deps: Deps, due: TriggerJobDue, target: Pipeline, buildId: string) {
  const now = deps.clock.now();
  await insertBuild(deps)({
    pipeline: target,
    organization: due.organization,
    build: {
      ...triggeredBuildRequest({
        job: due.job,
        parent: due.parent,
        targetDefaultBranch: target.defaultBranch,
      }),
      id: buildId,
      pipelineId: target.id,
      source: 'trigger_job',
      creatorId: due.parent.creatorId,
      rebuiltFromId: null,
      pullRequest: null,
      cleanCheckout: false,
      createdAt: now,
      scheduledAt: now,
    },
  });
}

/** Fails the job and says why in its log. */
async function refuse(deps: Deps, job: Job, reason: string): Promise<boolean> {
  const moved = await moveJob(deps, job, { type: 'trigger_refused' });
  if (moved) {
    await deps.repos.jobs.appendLogChunk(job.id, {
      sequence: 0,
      offset: 0,
      content: `${reason}\n`,
      receivedAt: deps.clock.now(),
    });
  }
  return moved;
}

/**
 * Fires `trigger` on the job, under its build's lock, if it is still in the state this pass saw (else
 * another process or a cancel moved it: nothing to do), and lets the build progress.
 */
async function moveJob(deps: Deps, seen: Job, trigger: JobTrigger): Promise<boolean> {
  const moved = await deps.repos.jobs.changeBuild(seen.buildId, (work) => {
    const at = deps.clock.now();
    const current = work.jobs.find((job) => job.id === seen.id);
    if (!current || current.state !== seen.state) return null;
    const next = jobTransition(current, trigger, at);
    if (!next.ok) return null;
    const jobs = work.jobs.map((job) => (job.id === current.id ? next.value : job));
    const progress = progressBuild({ build: work.build, jobs, at, newId: deps.newId });
    return {
      build: progress.build,
      jobs: progress.jobs,
      changed: new Set([current.id, ...progress.changed]),
      result: true,
    };
  });
  return moved === true;
}
