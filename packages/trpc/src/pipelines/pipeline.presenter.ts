import type { PipelineCounts, PipelineResult } from '@ci/application';
import {
  encodeGraphqlId,
  formatPipelineCreatedAt,
  formatTimestamp,
  type Pipeline,
  presentableProviderSettings,
  type StepDefinition,
  type User,
  webAddresses,
} from '@ci/domain';
import { apiAddresses } from '../api-addresses';
import type { PublicUrls } from '../trpc';
import { presentUser } from '../users/user.presenter';
import type { PipelineProviderSettingsWire, PipelineStepWire, PipelineWire } from './pipeline.wire';

/**
 * The wire form of a pipeline (REST and tRPC): one shape for every pipelines endpoint, in the key order of
 * the create example, as the public API has one serializer. `configuration` is there when the steps came
 * from YAML, as in the create example; a pipeline defined by `steps` has none (the real archive
 * recording). `provider.webhook_url` follows rule B2.
 */
export function presentPipeline(
  result: PipelineResult,
  urls: PublicUrls,
  avatars: Map<string, string> = new Map(),
): PipelineWire {
  const { pipeline, createdBy } = result.record;
  return pipelineWire(pipeline, {
    createdBy,
    organizationSlug: result.organizationSlug,
    showWebhookUrl: result.showWebhookUrl,
    urls,
    avatars,
    embedded: null,
  });
}

/** What a pipeline's wire form needs besides the pipeline. */
export interface PipelineWireContext {
  createdBy: User | null;
  organizationSlug: string;
  /** rule B2 */
  showWebhookUrl: boolean;
  urls: PublicUrls;
  /** avatar addresses already computed, by email */
  avatars: Map<string, string>;
  /**
   * In a build: `single` (get, create, cancel, rebuild: `created_at` in the spec's older
   * `YYYY-MM-DD HH:MM:SS UTC` form) or `list`; no `configuration` in either. null: the pipelines endpoints.
   */
  embedded: 'single' | 'list' | null;
}

/** A pipeline with its counts, as every endpoint that shows one shows it (builds embed the same shape). */
export function pipelineWire(
  pipeline: Pipeline & { counts: PipelineCounts },
  ctx: PipelineWireContext,
): PipelineWire {
  const { urls, organizationSlug } = ctx;
  const url = apiAddresses.pipeline(urls.api, organizationSlug, pipeline.slug);
  const { counts } = pipeline;
  return {
    id: pipeline.id,
    graphql_id: encodeGraphqlId('Pipeline', pipeline.id),
    url,
    web_url: webAddresses.pipeline(urls.web, organizationSlug, pipeline.slug),
    name: pipeline.name,
    description: pipeline.description ?? '',
    slug: pipeline.slug,
    repository: pipeline.repository,
    cluster_id: pipeline.clusterId,
    pipeline_template_uuid: pipeline.pipelineTemplateId,
    branch_configuration: pipeline.branchConfiguration,
    default_branch: pipeline.defaultBranch,
    skip_queued_branch_builds: pipeline.skipQueuedBranchBuilds,
    skip_queued_branch_builds_filter: pipeline.skipQueuedBranchBuildsFilter,
    cancel_running_branch_builds: pipeline.cancelRunningBranchBuilds,
    cancel_running_branch_builds_filter: pipeline.cancelRunningBranchBuildsFilter,
    allow_rebuilds: pipeline.allowRebuilds,
    provider: {
      id: pipeline.provider.id,
      settings: presentableProviderSettings(
        pipeline.provider.settings,
        pipeline.repository,
      ) as PipelineProviderSettingsWire,
      // Rule B2: only viewers who may edit the pipeline see where its webhook delivers.
      webhook_url: ctx.showWebhookUrl ? webAddresses.webhook(urls.api, pipeline.webhookToken) : '',
    },
    builds_url: `${url}/builds`,
    badge_url: webAddresses.badge(urls.api, pipeline.id),
    created_by: ctx.createdBy ? presentUser(ctx.createdBy, ctx.avatars) : null,
    created_at:
      ctx.embedded === 'single'
        ? formatPipelineCreatedAt(pipeline.createdAt)
        : (formatTimestamp(pipeline.createdAt) as string),
    archived_at: formatTimestamp(pipeline.archivedAt),
    env: pipeline.env,
    scheduled_builds_count: counts.scheduledBuildsCount,
    running_builds_count: counts.runningBuildsCount,
    scheduled_jobs_count: counts.scheduledJobsCount,
    running_jobs_count: counts.runningJobsCount,
    waiting_jobs_count: counts.waitingJobsCount,
    visibility: pipeline.visibility,
    tags: pipeline.tags,
    emoji: pipeline.emoji,
    color: pipeline.color,
    ...(pipeline.configuration !== null && ctx.embedded === null
      ? { configuration: pipeline.configuration }
      : undefined),
    steps: pipeline.steps.map(legacyStep),
  };
}

export function presentPipelines(results: readonly PipelineResult[], urls: PublicUrls): PipelineWire[] {
  const avatars = new Map<string, string>();
  return results.map((result) => presentPipeline(result, urls, avatars));
}

/**
 * A step in the public API's legacy step shape: command steps as `script` (`concurrency` the step's limit,
 * null for none), wait steps as `waiter`, block steps as `manual`, trigger steps as
 * `trigger`.
 */
export function legacyStep(step: StepDefinition): PipelineStepWire {
  switch (step.type) {
    case 'command':
      return {
        type: 'script',
        name: step.label,
        command: step.command,
        artifact_paths: step.artifactPaths ?? '',
        branch_configuration: step.branches ?? '',
        env: step.env,
        timeout_in_minutes: step.timeoutInMinutes ?? null,
        agent_query_rules: step.agentQueryRules,
        concurrency: step.concurrency?.limit ?? null,
        parallelism: step.parallelism,
      };
    case 'wait':
      return { type: 'waiter' };
    case 'block':
      return { type: 'manual', label: step.label };
    case 'trigger':
      return {
        type: 'trigger',
        label: step.label,
        trigger_project_slug: step.pipeline,
        trigger_commit: step.build.commit,
        trigger_branch: step.build.branch,
        trigger_async: step.async,
      };
  }
}
