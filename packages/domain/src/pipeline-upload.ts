import type { BuildState } from './build-state';
import type { Job, JobState, StepDefinition } from './entities';
import { type DomainError, unprocessable } from './errors';
import { interpolate } from './interpolation';
import { isJsonObject } from './json-object';
import { jobsForSteps } from './new-build-jobs';
import { err, ok, type Result } from './result';
import type { ConditionFacts, RegexEngine } from './step-condition';
import { MAX_JOBS_PER_BUILD, parsePipelineFile } from './steps';

/** The largest pipeline a job may upload (its YAML or JSON text): the server's default body limit. */
export const MAX_PIPELINE_UPLOAD_BYTES = 1024 * 1024;
/** A build holds at most this many jobs, counting every upload into it. */
export const MAX_JOBS_PER_BUILD_WITH_UPLOADS = 2 * MAX_JOBS_PER_BUILD;

function invalidUpload(message: string): DomainError {
  return unprocessable('invalid_pipeline', `The uploaded pipeline is invalid: ${message}`);
}

/**
 * Interpolates an uploaded pipeline document (parsed YAML or JSON) with the uploading job's
 * environment: first the values of its top-level `env`, then every other string of the document with
 * that env added (the file's own variables win). Keys are left as they are.
 */
export function interpolatePipeline(
  doc: unknown,
  jobEnv: Readonly<Record<string, string>>,
): Result<unknown, DomainError> {
  const problems: string[] = [];
  const text = (value: string, env: Readonly<Record<string, string>>) => {
    const result = interpolate(value, env);
    if (result.ok) return result.value;
    problems.push(result.error.message);
    return value;
  };
  let env: Readonly<Record<string, string>> = jobEnv;
  let fileEnv: unknown;
  if (isJsonObject(doc) && isJsonObject(doc.env)) {
    fileEnv = Object.fromEntries(
      Object.entries(doc.env).map(([name, value]) => [
        name,
        typeof value === 'string' ? text(value, jobEnv) : value,
      ]),
    );
    const scalars = Object.entries(fileEnv as Record<string, unknown>).filter(
      ([, value]) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean',
    );
    env = { ...jobEnv, ...Object.fromEntries(scalars.map(([name, value]) => [name, String(value)])) };
  }
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return text(value, env);
    if (Array.isArray(value)) return value.map(walk);
    if (isJsonObject(value)) {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, walk(inner)]));
    }
    return value;
  };
  const interpolated = isJsonObject(doc)
    ? Object.fromEntries(
        Object.entries(doc).map(([key, value]) => [key, key === 'env' && fileEnv ? fileEnv : walk(value)]),
      )
    : walk(doc);
  return problems.length > 0 ? err(invalidUpload(problems.join('; '))) : ok(interpolated);
}

/**
 * The steps of an uploaded pipeline document (already interpolated): its `steps` (or a bare list),
 * each command step with the file's top-level `env` under its own. Refused with one message naming
 * every problem, and before any step is read when the list is longer than a build may hold.
 */
export function uploadedSteps(
  doc: unknown,
  newStepId: () => string,
  regex: RegexEngine,
): Result<StepDefinition[], DomainError> {
  const list = isJsonObject(doc) ? doc.steps : doc;
  if (Array.isArray(list) && list.length > MAX_JOBS_PER_BUILD) {
    return err(invalidUpload(`${list.length} steps (an upload may hold at most ${MAX_JOBS_PER_BUILD})`));
  }
  const file = parsePipelineFile(doc, newStepId, regex);
  if (!file.ok) {
    const messages = (file.error.details?.errors ?? []).map((error) => error.message);
    return err(invalidUpload(messages.join('; ') || file.error.message));
  }
  const { steps, env } = file.value;
  if (Object.keys(env).length === 0) return ok(steps);
  return ok(
    steps.map((step) => (step.type === 'command' ? { ...step, env: { ...env, ...step.env } } : step)),
  );
}

/** Jobs `--replace` removes: after the uploader and not yet taken by an agent or finished. */
const REPLACEABLE: readonly JobState[] = [
  'pending',
  'waiting',
  'blocked',
  'scheduled',
  'limiting',
  'limited',
];

/**
 * Adds the uploaded steps' jobs to a build right after the uploading job: the jobs behind it move down
 * by as many places, and with `replace` the ones behind it that no agent has taken yet go. Only a
 * running job of a running (or failing) build may upload, and a build holds at most {@link MAX_JOBS_PER_BUILD_WITH_UPLOADS} jobs.
 */
export function insertUploadedJobs(input: {
  buildState: BuildState;
  jobs: readonly Job[];
  uploaderId: string;
  steps: readonly StepDefinition[];
  replace: boolean;
  at: Date;
  newId: () => string;
  /** the build's facts, for the steps' `if` and `branches` */
  facts: ConditionFacts;
  /** compiles the patterns of the steps' `if` */
  regex: RegexEngine;
}): Result<{ jobs: Job[]; added: Job[]; changed: Set<string>; removed: Set<string> }, DomainError> {
  const uploader = input.jobs.find((job) => job.id === input.uploaderId);
  if (!uploader) return err(unprocessable('job_not_found', 'The uploading job is not part of this build'));
  if (uploader.state !== 'running') {
    return err(
      unprocessable('job_not_running', `Only a running job may upload steps (this one is ${uploader.state})`),
    );
  }
  if (input.buildState !== 'running' && input.buildState !== 'failing') {
    return err(
      unprocessable('build_not_running', `Steps can't be added to a build that is ${input.buildState}`),
    );
  }
  const removed = new Set<string>();
  if (input.replace) {
    for (const job of input.jobs) {
      if (job.position > uploader.position && REPLACEABLE.includes(job.state)) removed.add(job.id);
    }
  }
  const kept = input.jobs.filter((job) => !removed.has(job.id));
  const fresh = jobsForSteps({
    steps: input.steps,
    buildId: uploader.buildId,
    at: input.at,
    newId: input.newId,
    facts: input.facts,
    regex: input.regex,
  });
  if (kept.length + fresh.length > MAX_JOBS_PER_BUILD_WITH_UPLOADS) {
    return err(
      invalidUpload(
        `the build would hold ${kept.length + fresh.length} jobs (at most ${MAX_JOBS_PER_BUILD_WITH_UPLOADS})`,
      ),
    );
  }
  const changed = new Set<string>();
  const added = fresh.map((job) => ({ ...job, position: uploader.position + 1 + job.position }));
  const jobs = kept.map((job) => {
    if (job.position <= uploader.position) return job;
    changed.add(job.id);
    return { ...job, position: job.position + added.length };
  });
  for (const job of added) changed.add(job.id);
  return ok({ jobs: [...jobs, ...added], added, changed, removed });
}
