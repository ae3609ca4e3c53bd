import type { BuildResult, JobView } from '@ci/application';
import {
  type Agent,
  encodeGraphqlId,
  formatPipelineCreatedAt,
  formatTimestamp,
  type Pipeline,
  presentBuildState,
  type User,
  webAddresses,
} from '@ci/domain';
import { presentJobAgent } from '../agents/agent.presenter';
import { apiAddresses } from '../api-addresses';
import { presentUser } from '../users/user.presenter';
import type {
  AgentShortWire,
  AgentWire,
  BuildWire,
  JobWire,
  PipelineWire,
  ProviderSettingsWire,
} from './build.wire';

/**
 * The wire form of a build (REST and tRPC), keys in the order of the public API's examples.
 *
 * `form` picks the variant the examples show: `single` (get, create, cancel, rebuild: the embedded
 * pipeline's `created_at` in the older `YYYY-MM-DD HH:MM:SS UTC` form), `list` (all builds, an
 * organization's builds) and `pipeline-list` (a pipeline's builds: short agents, and the pipeline's
 * `web_url`, `branch_configuration`, `default_branch` and `provider.settings`).
 */
export type BuildForm = 'single' | 'list' | 'pipeline-list';

export interface PresentBuildOptions {
  /** Public base URLs without a trailing slash, e.g. `https://api.example.com` and `https://ci.example.com`. */
  urls: { api: string; web: string };
  form: BuildForm;
  /** false leaves `graphql_id` out of every job, as the create-build response does; default true. */
  jobGraphqlIds?: boolean;
  /** `exclude_jobs=true`: no `jobs` key */
  excludeJobs?: boolean;
  /** `exclude_pipeline=true`: no `pipeline` key */
  excludePipeline?: boolean;
  /** the get-build response's `job_state_counts` */
  jobStateCounts?: boolean;
}

/** What one call shares between its builds: options read once, avatar addresses computed once per user. */
interface Context {
  api: string;
  web: string;
  form: BuildForm;
  jobGraphqlIds: boolean;
  excludeJobs: boolean;
  excludePipeline: boolean;
  jobStateCounts: boolean;
  avatars: Map<string, string>;
}

function contextFor(options: PresentBuildOptions): Context {
  return {
    api: options.urls.api,
    web: options.urls.web,
    form: options.form,
    jobGraphqlIds: options.jobGraphqlIds !== false,
    excludeJobs: options.excludeJobs === true,
    excludePipeline: options.excludePipeline === true,
    jobStateCounts: options.jobStateCounts === true,
    avatars: new Map(),
  };
}

export function presentBuild(result: BuildResult, options: PresentBuildOptions): BuildWire {
  return buildWire(result, contextFor(options));
}

export function presentBuilds(results: readonly BuildResult[], options: PresentBuildOptions): BuildWire[] {
  const ctx = contextFor(options);
  const out = new Array<BuildWire>(results.length);
  for (let i = 0; i < results.length; i++) out[i] = buildWire(results[i]!, ctx);
  return out;
}

function buildWire(result: BuildResult, ctx: Context): BuildWire {
  const { view } = result;
  const { build, pipeline } = view;
  const orgSlug = view.organizationSlug;
  const urls = buildUrlsFor(result, ctx);
  const { state, blocked } = presentBuildState(build);

  let jobs: JobWire[] | undefined;
  if (!ctx.excludeJobs) {
    const jobViews = view.jobs;
    jobs = new Array<JobWire>(jobViews.length);
    for (let i = 0; i < jobViews.length; i++) jobs[i] = jobWire(jobViews[i]!, urls, ctx);
  }

  const pr = build.pullRequest;
  const rebuiltFrom = view.rebuiltFrom;

  return {
    id: build.id,
    graphql_id: encodeGraphqlId('Build', build.id),
    url: urls.buildUrl,
    web_url: urls.buildWebUrl,
    number: build.number,
    state,
    cancel_reason: build.cancelReason,
    blocked,
    message: build.message,
    commit: build.commit,
    branch: build.branch,
    env: build.env,
    source: build.source,
    creator: view.creator ? presentUser(view.creator, ctx.avatars) : null,
    ...(jobs ? { jobs } : undefined),
    ...(ctx.jobStateCounts ? { job_state_counts: jobStateCounts(view.jobs) } : undefined),
    created_at: formatTimestamp(build.createdAt),
    scheduled_at: formatTimestamp(build.scheduledAt),
    started_at: formatTimestamp(build.startedAt),
    failing_at: formatTimestamp(build.failingAt),
    finished_at: formatTimestamp(build.finishedAt),
    meta_data: build.metaData,
    pull_request: pr ? { id: pr.id, base: pr.base, repository: pr.repository } : {},
    merge_queue: null,
    rebuilt_from: rebuiltFrom
      ? {
          id: rebuiltFrom.id,
          number: rebuiltFrom.number,
          url: apiAddresses.build(ctx.api, orgSlug, pipeline.slug, rebuiltFrom.number),
        }
      : null,
    ...(ctx.excludePipeline
      ? undefined
      : { pipeline: pipelineWire(view.pipeline, result.showWebhookUrl, orgSlug, ctx) }),
  };
}

function jobStateCounts(jobs: readonly JobView[]): { total: number; states: Record<string, number> } {
  const states: Record<string, number> = {};
  for (const { job } of jobs) states[job.state] = (states[job.state] ?? 0) + 1;
  return { total: jobs.length, states };
}

/** A build's addresses, computed once per build and shared by its jobs. */
interface BuildUrls {
  organizationSlug: string;
  buildUrl: string;
  buildWebUrl: string;
}

function buildUrlsFor(result: BuildResult, ctx: Context): BuildUrls {
  const { build, pipeline, organizationSlug } = result.view;
  return {
    organizationSlug,
    buildUrl: apiAddresses.build(ctx.api, organizationSlug, pipeline.slug, build.number),
    buildWebUrl: webAddresses.build(ctx.web, organizationSlug, pipeline.slug, build.number),
  };
}

/** One job of a build, as the job endpoints (retry) answer it. */
export function presentJob(result: BuildResult, job: JobView, urls: { api: string; web: string }): JobWire {
  const ctx = contextFor({ urls, form: 'single' });
  return jobWire(job, buildUrlsFor(result, ctx), ctx);
}

function jobWire({ job, agent, retrySourceId }: JobView, urls: BuildUrls, ctx: Context): JobWire {
  const logUrl = `${apiAddresses.job(urls.buildUrl, job.id)}/log`;
  return {
    id: job.id,
    ...(ctx.jobGraphqlIds ? { graphql_id: encodeGraphqlId('Job', job.id) } : undefined),
    type: job.type,
    name: job.name,
    step_key: job.stepKey,
    group_key: null,
    step: { id: job.stepId, signature: null },
    agent_query_rules: job.agentQueryRules,
    state: job.state,
    web_url: webAddresses.job(urls.buildWebUrl, job.id),
    log_url: logUrl,
    raw_log_url: `${logUrl}.txt`,
    command: job.command,
    soft_failed: job.softFailed,
    exit_status: job.exitStatus,
    artifact_paths: job.artifactPaths ?? '',
    agent: agent ? agentWire(agent, urls, ctx) : null,
    created_at: formatTimestamp(job.createdAt),
    scheduled_at: formatTimestamp(job.scheduledAt),
    runnable_at: formatTimestamp(job.runnableAt),
    started_at: formatTimestamp(job.startedAt),
    finished_at: formatTimestamp(job.finishedAt),
    retried: job.retried,
    retried_in_job_id: job.retriedInJobId,
    retries_count: job.retriesCount,
    retry_source: retrySourceId ? { job_id: retrySourceId, retry_type: job.retryType ?? 'manual' } : null,
    retry_type: job.retryType,
    parallel_group_index: job.parallelGroupIndex,
    parallel_group_total: job.parallelGroupTotal,
    matrix: null,
    cluster_id: null,
    cluster_url: null,
    cluster_queue_id: null,
    cluster_queue_url: null,
  };
}

function agentWire(
  agent: Agent & { creator: User | null },
  urls: BuildUrls,
  ctx: Context,
): AgentWire | AgentShortWire {
  if (ctx.form === 'pipeline-list') {
    return {
      id: agent.id,
      url: apiAddresses.agent(ctx.api, urls.organizationSlug, agent.id),
      name: agent.name,
    };
  }
  return presentJobAgent({
    agent,
    creator: agent.creator,
    organizationSlug: urls.organizationSlug,
    urls: ctx,
    avatars: ctx.avatars,
  });
}

function pipelineWire(
  pipeline: BuildResult['view']['pipeline'],
  showWebhookUrl: boolean,
  orgSlug: string,
  ctx: Context,
): PipelineWire {
  const listed = ctx.form === 'pipeline-list';
  const counts = pipeline.counts;
  const pipelineUrl = apiAddresses.pipeline(ctx.api, orgSlug, pipeline.slug);
  // Rule B2: only viewers who may edit the pipeline see where its webhook delivers.
  const webhookUrl = showWebhookUrl ? webAddresses.webhook(ctx.web, pipeline.webhookToken) : '';
  return {
    id: pipeline.id,
    graphql_id: encodeGraphqlId('Pipeline', pipeline.id),
    url: pipelineUrl,
    ...(listed ? { web_url: webAddresses.pipeline(ctx.web, orgSlug, pipeline.slug) } : undefined),
    name: pipeline.name,
    slug: pipeline.slug,
    repository: pipeline.repository,
    ...(listed
      ? { branch_configuration: pipeline.branchConfiguration, default_branch: pipeline.defaultBranch }
      : undefined),
    provider: listed
      ? { id: pipeline.provider.id, webhook_url: webhookUrl, settings: providerSettings(pipeline) }
      : { id: pipeline.provider.id, webhook_url: webhookUrl },
    skip_queued_branch_builds: pipeline.skipQueuedBranchBuilds,
    skip_queued_branch_builds_filter: pipeline.skipQueuedBranchBuildsFilter,
    cancel_running_branch_builds: pipeline.cancelRunningBranchBuilds,
    cancel_running_branch_builds_filter: pipeline.cancelRunningBranchBuildsFilter,
    builds_url: `${pipelineUrl}/builds`,
    badge_url: webAddresses.badge(ctx.api, pipeline.webhookToken),
    created_at:
      ctx.form === 'single'
        ? formatPipelineCreatedAt(pipeline.createdAt)
        : (formatTimestamp(pipeline.createdAt) as string),
    scheduled_builds_count: counts.scheduledBuildsCount,
    running_builds_count: counts.runningBuildsCount,
    scheduled_jobs_count: counts.scheduledJobsCount,
    running_jobs_count: counts.runningJobsCount,
    waiting_jobs_count: counts.waitingJobsCount,
  };
}

/** The spec's settings keys, in its order; a stored value of the right type overrides the default. */
function providerSettings(pipeline: Pipeline): ProviderSettingsWire {
  const s = pipeline.provider.settings;
  return {
    trigger_mode: str(s.trigger_mode, 'code'),
    build_pull_requests: bool(s.build_pull_requests, true),
    pull_request_branch_filter_enabled: bool(s.pull_request_branch_filter_enabled, false),
    skip_pull_request_builds_for_existing_commits: bool(
      s.skip_pull_request_builds_for_existing_commits,
      true,
    ),
    build_pull_request_forks: bool(s.build_pull_request_forks, false),
    prefix_pull_request_fork_branch_names: bool(s.prefix_pull_request_fork_branch_names, true),
    build_tags: bool(s.build_tags, false),
    publish_commit_status: bool(s.publish_commit_status, true),
    publish_commit_status_per_step: bool(s.publish_commit_status_per_step, false),
    publish_blocked_as_pending: bool(s.publish_blocked_as_pending, false),
    repository: str(s.repository, pipeline.repository),
  };
}

function bool(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

function str(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}
