import {
  conditionFacts,
  type DomainError,
  insertUploadedJobs,
  interpolatePipeline,
  isJsonObject,
  jobEnvironment,
  MAX_PIPELINE_UPLOAD_BYTES,
  payloadTooLarge,
  progressBuild,
  type Result,
  unprocessable,
  uploadedSteps,
} from '@ci/domain';
import { parse as parseYaml } from 'yaml';
import { stepPatterns } from '../pipelines/step-patterns';
import type { Deps } from '../ports';
import { authenticateAgent, dispatched, ownJob } from './agent-protocol';

export interface PipelineUploadRequest {
  /**
   * The pipeline: YAML or JSON text (what `ci-agent pipeline upload` sends), interpolated here with the
   * job's environment; or a parsed object (what the public agent sends), already interpolated by it.
   */
  pipeline: unknown;
  /** replace the steps behind the uploader that no agent has taken yet */
  replace: boolean;
  /** answer what would be added, add nothing */
  dryRun: boolean;
  /** interpolate text with the job's environment (`--no-interpolation` turns it off) */
  interpolate: boolean;
  /** the public web URL, which the job environment's build URL is on */
  web: string;
}

export interface PipelineUploadResult {
  /** the pipeline as it was read and interpolated */
  pipeline: unknown;
  /** the ids of the jobs added, in order (none on a dry run) */
  jobIds: string[];
}

const must = <T>(result: Result<T, DomainError>): T => {
  if (!result.ok) throw result.error;
  return result.value;
};

function parsePipelineText(text: string): unknown {
  if (new TextEncoder().encode(text).length > MAX_PIPELINE_UPLOAD_BYTES) throw payloadTooLarge();
  // JSON is YAML, and JSON.parse reads it ~20 times faster than the YAML parser.
  if (/^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {}
  }
  try {
    // The default alias limit refuses YAML that expands to far more than it says ("billion laughs").
    return parseYaml(text);
  } catch (error) {
    const first = String((error as Error).message).split('\n')[0];
    throw unprocessable('invalid_pipeline', `The uploaded pipeline is not valid YAML or JSON: ${first}`);
  }
}

/**
 * A running job adds steps to its build (`buildkite-agent pipeline upload`): read, interpolated and
 * checked whole before anything is written; then, under the build's lock, the jobs go in right after
 * the uploader and the build progresses. Two uploads into one build queue on that lock.
 */
export const uploadPipeline =
  (deps: Deps) =>
  async (
    authorization: string | undefined,
    jobId: string,
    request: PipelineUploadRequest,
  ): Promise<PipelineUploadResult> => {
    const agent = await authenticateAgent(deps)(authorization);
    const location = await ownJob(deps, agent, jobId);
    const view = (await dispatched(deps, location, agent)).view;
    let doc: unknown;
    if (typeof request.pipeline === 'string') {
      doc = parsePipelineText(request.pipeline);
      if (request.interpolate) {
        const env = jobEnvironment({ ...view, job: location.job, agentName: agent.name, web: request.web });
        doc = must(interpolatePipeline(doc, env));
      }
    } else if (isJsonObject(request.pipeline) || Array.isArray(request.pipeline)) {
      doc = request.pipeline;
    } else {
      throw unprocessable('invalid_pipeline', 'pipeline must be YAML or JSON text, or a JSON object');
    }
    const steps = must(uploadedSteps(doc, deps.newId, stepPatterns));
    if (request.dryRun) return { pipeline: doc, jobIds: [] };
    const jobIds = await deps.repos.jobs.changeBuild(location.buildId, (work) => {
      const at = deps.clock.now();
      const inserted = must(
        insertUploadedJobs({
          buildState: work.build.state,
          jobs: work.jobs,
          uploaderId: jobId,
          steps,
          replace: request.replace,
          at,
          newId: deps.newId,
          facts: conditionFacts(view.build, view.pipeline, view.organizationSlug),
          regex: stepPatterns,
        }),
      );
      const progress = progressBuild({ build: work.build, jobs: inserted.jobs, at, newId: deps.newId });
      return {
        build: progress.build,
        jobs: progress.jobs,
        changed: new Set([...inserted.changed, ...progress.changed]),
        removed: inserted.removed,
        result: inserted.added.map((job) => job.id),
      };
    });
    return { pipeline: doc, jobIds: jobIds ?? [] };
  };
