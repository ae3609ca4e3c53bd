import { buildTag } from './build-input';
import type { Build, Job, Pipeline, User } from './entities';
import { webAddresses } from './web-addresses';

/**
 * The environment a job runs with: the pipeline's, the build's and the step's variables, then the
 * `BUILDKITE_*` variables the public agent sets (they win, as the public agent protects them).
 * `web` is the public web URL, which `BUILDKITE_BUILD_URL` is on.
 */
export function jobEnvironment(input: {
  job: Job;
  build: Build;
  pipeline: Pipeline;
  organizationSlug: string;
  creator: User | null;
  agentName: string | null;
  web: string;
  /** the build whose trigger step made this one; null or absent: none */
  triggeredFrom?: { buildId: string; buildNumber: number; pipelineSlug: string } | null;
}): Record<string, string> {
  const { job, build, pipeline } = input;
  const author =
    build.author ?? (input.creator ? { name: input.creator.name, email: input.creator.email } : null);
  const parallel: Record<string, string> =
    job.parallelGroupIndex !== null && job.parallelGroupTotal !== null
      ? {
          BUILDKITE_PARALLEL_JOB: String(job.parallelGroupIndex),
          BUILDKITE_PARALLEL_JOB_COUNT: String(job.parallelGroupTotal),
        }
      : {};
  return {
    ...pipeline.env,
    ...build.env,
    ...job.env,
    CI: 'true',
    BUILDKITE: 'true',
    BUILDKITE_TAG: buildTag(build.commit) ?? '',
    BUILDKITE_REPO: pipeline.repository,
    BUILDKITE_BRANCH: build.branch,
    BUILDKITE_COMMIT: build.commit,
    BUILDKITE_JOB_ID: job.id,
    BUILDKITE_COMMAND: job.command ?? '',
    BUILDKITE_MESSAGE: build.message ?? '',
    BUILDKITE_BUILD_ID: build.id,
    BUILDKITE_BUILD_URL: webAddresses.build(input.web, input.organizationSlug, pipeline.slug, build.number),
    ...(input.agentName ? { BUILDKITE_AGENT_NAME: input.agentName } : {}),
    BUILDKITE_BUILD_NUMBER: String(build.number),
    BUILDKITE_ORGANIZATION_SLUG: input.organizationSlug,
    BUILDKITE_PIPELINE_SLUG: pipeline.slug,
    BUILDKITE_PIPELINE_NAME: pipeline.name,
    BUILDKITE_PIPELINE_DEFAULT_BRANCH: pipeline.defaultBranch ?? '',
    BUILDKITE_PULL_REQUEST: build.pullRequest ? build.pullRequest.id : 'false',
    BUILDKITE_PULL_REQUEST_BASE_BRANCH: build.pullRequest?.base ?? '',
    BUILDKITE_BUILD_CREATOR: author?.name ?? '',
    BUILDKITE_BUILD_CREATOR_EMAIL: author?.email ?? '',
    BUILDKITE_BUILD_AUTHOR: author?.name ?? '',
    BUILDKITE_BUILD_AUTHOR_EMAIL: author?.email ?? '',
    BUILDKITE_SOURCE: build.source,
    // Empty outside a triggered build, as the public agent's.
    BUILDKITE_TRIGGERED_FROM_BUILD_ID: input.triggeredFrom?.buildId ?? '',
    BUILDKITE_TRIGGERED_FROM_BUILD_NUMBER: input.triggeredFrom ? String(input.triggeredFrom.buildNumber) : '',
    BUILDKITE_TRIGGERED_FROM_BUILD_PIPELINE_SLUG: input.triggeredFrom?.pipelineSlug ?? '',
    BUILDKITE_ARTIFACT_PATHS: job.artifactPaths ?? '',
    BUILDKITE_PIPELINE_PROVIDER: pipeline.provider.id,
    BUILDKITE_STEP_ID: job.stepId ?? '',
    BUILDKITE_STEP_KEY: job.stepKey ?? '',
    BUILDKITE_LABEL: job.name ?? '',
    BUILDKITE_RETRY_COUNT: String(job.retriesCount ?? 0),
    BUILDKITE_CLEAN_CHECKOUT: String(build.cleanCheckout),
    // The public agent's name for the job's timeout: minutes, or "false".
    BUILDKITE_TIMEOUT: job.timeoutInMinutes === null ? 'false' : String(job.timeoutInMinutes),
    ...parallel,
  };
}

/** Log section headers (`---`, `+++`, `~~~`), whose times the log endpoint reports. */
export function countLogHeaders(content: string): number {
  let count = 0;
  for (const line of content.split('\n')) if (/^(---|\+\+\+|~~~) /.test(line)) count++;
  return count;
}
