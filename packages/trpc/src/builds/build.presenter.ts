import type { BuildResult, JobView } from '@ci/application';
import {
  type Agent,
  buildTag,
  encodeGraphqlId,
  formatTimestamp,
  type Job,
  presentBuildState,
  type User,
  webAddresses,
} from '@ci/domain';
import { presentJobAgent } from '../agents/agent.presenter';
import { apiAddresses } from '../api-addresses';
import { pipelineWire } from '../pipelines/pipeline.presenter';
import type { PipelineWire } from '../pipelines/pipeline.wire';
import { presentUser } from '../users/user.presenter';
import type { AgentWire, BuildWire, JobWire } from './build.wire';

/**
 * The wire form of a build (REST and tRPC), keys in the order of the public API's examples.
 *
 * `form` picks the variant the spec shows: `single` (get, create, cancel, rebuild: the embedded
 * pipeline's `created_at` in the spec's older `YYYY-MM-DD HH:MM:SS UTC` form) or `list` (every list).
 * The embedded pipeline is the pipelines endpoints' own shape (pipeline.presenter.ts).
 */
export type BuildForm = 'single' | 'list';

export interface PresentBuildOptions {
  /** Public base URLs without a trailing slash, e.g. `https://api.example.com` and `https://ci.example.com`. */
  urls: { api: string; web: string };
  form: BuildForm;
  /** `exclude_jobs=true`: no `jobs` key */
  excludeJobs?: boolean;
  /** `exclude_pipeline=true`: no `pipeline` key */
  excludePipeline?: boolean;
  /** the get-build response's `job_state_counts` */
  jobStateCounts?: boolean;
}

/**
 * What one call shares between its builds: options read once, avatar addresses computed once per user,
 * and each pipeline presented once (a page's builds share the repository's one object of it).
 */
interface Context {
  urls: { api: string; web: string };
  form: BuildForm;
  excludeJobs: boolean;
  excludePipeline: boolean;
  jobStateCounts: boolean;
  avatars: Map<string, string>;
  pipelines: Map<BuildResult['view']['pipeline'], { shown?: PipelineWire; hidden?: PipelineWire }>;
}

function contextFor(options: PresentBuildOptions): Context {
  return {
    urls: options.urls,
    form: options.form,
    excludeJobs: options.excludeJobs === true,
    excludePipeline: options.excludePipeline === true,
    jobStateCounts: options.jobStateCounts === true,
    avatars: new Map(),
    pipelines: new Map(),
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
  const { state, blocked, blockedState } = presentBuildState(build);

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
    blocked_state: blockedState,
    message: build.message,
    commit: build.commit,
    branch: build.branch,
    tag: buildTag(build.commit),
    env: build.env,
    source: build.source,
    author: build.author,
    creator: view.creator ? presentUser(view.creator, ctx.avatars) : null,
    ...(jobs ? { jobs } : undefined),
    ...(ctx.jobStateCounts ? { job_state_counts: jobStateCounts(view.jobs) } : undefined),
    created_at: formatTimestamp(build.createdAt),
    scheduled_at: formatTimestamp(build.scheduledAt),
    started_at: formatTimestamp(build.startedAt),
    failing_at: formatTimestamp(build.failingAt),
    finished_at: formatTimestamp(build.finishedAt),
    meta_data: build.metaData,
    pull_request: pr ? { id: pr.id, base: pr.base, repository: pr.repository } : null,
    merge_queue: null,
    rebuilt_from: rebuiltFrom
      ? {
          id: rebuiltFrom.id,
          number: rebuiltFrom.number,
          url: apiAddresses.build(ctx.urls.api, orgSlug, pipeline.slug, rebuiltFrom.number),
        }
      : null,
    triggered_from: view.triggeredFrom
      ? {
          build_id: view.triggeredFrom.buildId,
          build_number: view.triggeredFrom.buildNumber,
          build_pipeline_slug: view.triggeredFrom.pipelineSlug,
        }
      : null,
    ...(ctx.excludePipeline ? undefined : { pipeline: embeddedPipeline(result, ctx) }),
  };
}

/** The build's pipeline as builds embed it, presented once per pipeline and call. */
function embeddedPipeline(result: BuildResult, ctx: Context): PipelineWire {
  const { pipeline, organizationSlug } = result.view;
  const seen = ctx.pipelines.get(pipeline) ?? {};
  ctx.pipelines.set(pipeline, seen);
  const as = result.showWebhookUrl ? 'shown' : 'hidden';
  seen[as] ??= pipelineWire(pipeline, {
    createdBy: pipeline.createdBy,
    organizationSlug,
    showWebhookUrl: result.showWebhookUrl,
    urls: ctx.urls,
    avatars: ctx.avatars,
    embedded: ctx.form === 'single' ? 'single' : 'list',
  });
  return seen[as];
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
    buildUrl: apiAddresses.build(ctx.urls.api, organizationSlug, pipeline.slug, build.number),
    buildWebUrl: webAddresses.build(ctx.urls.web, organizationSlug, pipeline.slug, build.number),
  };
}

/** One job of a build, as the job endpoints (retry) answer it. */
export function presentJob(result: BuildResult, job: JobView, urls: { api: string; web: string }): JobWire {
  const ctx = contextFor({ urls, form: 'single' });
  return jobWire(job, buildUrlsFor(result, ctx), ctx);
}

function jobWire(
  { job, agent, retrySourceId, triggeredBuild }: JobView,
  urls: BuildUrls,
  ctx: Context,
): JobWire {
  const jobUrl = apiAddresses.job(urls.buildUrl, job.id);
  const logUrl = `${jobUrl}/log`;
  return {
    id: job.id,
    graphql_id: encodeGraphqlId('Job', job.id),
    type: job.type,
    name: job.name,
    step_key: job.stepKey,
    group_key: job.groupKey,
    step: { id: job.stepId, signature: null },
    priority: { number: 0 },
    agent_query_rules: job.agentQueryRules,
    state: job.state,
    build_url: urls.buildUrl,
    web_url: webAddresses.job(urls.buildWebUrl, job.id),
    log_url: logUrl,
    raw_log_url: `${logUrl}.txt`,
    artifacts_url: `${jobUrl}/artifacts`,
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
    expired_at: null,
    retried: job.retried,
    retried_in_job_id: job.retriedInJobId,
    retries_count: job.retriesCount,
    retry_source: retrySourceId ? { job_id: retrySourceId, retry_type: job.retryType ?? 'manual' } : null,
    retry_type: job.retryType,
    parallel_group_index: job.parallelGroupIndex,
    parallel_group_total: job.parallelGroupTotal,
    matrix: job.matrix,
    ...jobPlace(job, urls.organizationSlug, ctx.urls.api),
    ...(job.type === 'trigger' ? triggerFields(job, triggeredBuild, urls.organizationSlug, ctx) : undefined),
  };
}

/** What only a trigger job shows: `async` and the build it made (the public API's trigger job). */
function triggerFields(
  job: Job,
  triggered: JobView['triggeredBuild'],
  organizationSlug: string,
  ctx: Context,
): Pick<JobWire, 'async' | 'triggered_build'> {
  return {
    async: job.trigger?.async ?? false,
    triggered_build: triggered
      ? {
          id: triggered.id,
          number: triggered.number,
          url: apiAddresses.build(ctx.urls.api, organizationSlug, triggered.pipelineSlug, triggered.number),
          web_url: webAddresses.build(
            ctx.urls.web,
            organizationSlug,
            triggered.pipelineSlug,
            triggered.number,
          ),
        }
      : null,
  };
}

/** Where the job runs: its cluster and queue (decided when it was made), or nulls when unclustered. */
function jobPlace(job: Job, organizationSlug: string, api: string) {
  const clusterUrl = job.clusterId ? apiAddresses.cluster(api, organizationSlug, job.clusterId) : null;
  return {
    cluster_id: job.clusterId,
    cluster_url: clusterUrl,
    cluster_queue_id: job.clusterQueueId,
    cluster_queue_url:
      clusterUrl && job.clusterQueueId ? apiAddresses.clusterQueue(clusterUrl, job.clusterQueueId) : null,
  };
}

function agentWire(agent: Agent & { creator: User | null }, urls: BuildUrls, ctx: Context): AgentWire {
  return presentJobAgent({
    agent,
    creator: agent.creator,
    organizationSlug: urls.organizationSlug,
    urls: ctx.urls,
    avatars: ctx.avatars,
  });
}
