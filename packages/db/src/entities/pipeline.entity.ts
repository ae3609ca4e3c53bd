import type { Pipeline, PipelineVisibility, StepDefinition } from '@ci/domain';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { ClusterEntity } from './cluster.entity';
import { OrganizationEntity, UserEntity } from './organization.entity';
import { PipelineTemplateEntity } from './pipeline-template.entity';
import { TeamPipelineEntity } from './team.entity';

export const PipelineEntity = defineEntity({
  name: 'Pipeline',
  tableName: 'pipelines',
  uniques: [{ properties: ['organization', 'slug'] }],
  properties: {
    id: p.uuid().primary(),
    organization: () => p.manyToOne(OrganizationEntity).deleteRule('cascade'),
    slug: p.string().length(255),
    name: p.string().length(255),
    description: p.text().nullable(),
    repository: p.string().length(1024),
    defaultBranch: p.string().length(255).nullable(),
    branchConfiguration: p.string().length(1024).nullable(),
    steps: p.json<StepDefinition[]>(),
    provider: p.json<{ id: string; settings: Record<string, unknown> }>(),
    /** The secret of the inbound webhook URL, shown in it, so kept as it is; null: the webhook was deleted. */
    webhookToken: p.string().length(64).nullable().unique(),
    /** What GitHub signs deliveries with and GitLab sends; an HMAC needs it as given. */
    webhookSecret: p.string().length(255).nullable(),
    skipQueuedBranchBuilds: p.boolean().default(false),
    skipQueuedBranchBuildsFilter: p.string().length(1024).nullable(),
    cancelRunningBranchBuilds: p.boolean().default(false),
    cancelRunningBranchBuildsFilter: p.string().length(1024).nullable(),
    /** The next build number; the create-build transaction takes it with a row lock. */
    nextBuildNumber: p.integer().default(1),
    archivedAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    env: p.json<Record<string, string>>().defaultRaw(`'{}'`),
    visibility: p.string().length(16).default('private').$type<PipelineVisibility>(),
    tags: p.array().columnType('text[]').nullable(),
    /** A cluster of the organization (checked by the use cases); deleting a cluster in use is refused. */
    cluster: () => p.manyToOne(ClusterEntity).nullable().deleteRule('no action').index(),
    allowRebuilds: p.boolean().default(true),
    color: p.string().length(255).nullable(),
    emoji: p.string().length(255).nullable(),
    /** Stored and shown; jobs are not timed out by them. */
    defaultTimeoutInMinutes: p.integer().nullable(),
    maximumTimeoutInMinutes: p.integer().nullable(),
    /** The YAML the steps were read from; null for pipelines defined by a list of steps. */
    configuration: p.text().nullable(),
    /** The template the steps came from; deleting the template leaves the pipeline (and its steps). */
    pipelineTemplate: () => p.manyToOne(PipelineTemplateEntity).nullable().deleteRule('set null').index(),
    createdBy: () => p.manyToOne(UserEntity).nullable().deleteRule('set null').index(),
    /**
     * Taken from the sequence `pipeline_revisions` (`next_pipeline_revision()`) on insert and whenever any column but the build counter
     * changes (the trigger of Migration20261121170000): what a server's memory of a pipeline is checked against.
     */
    revision: p.bigint().defaultRaw('next_pipeline_revision()'),
    teams: () => p.oneToMany(TeamPipelineEntity).mappedBy('pipeline'),
  },
});

export function toPipeline(pipeline: InferEntity<typeof PipelineEntity>): Pipeline {
  return {
    id: pipeline.id,
    organizationId: pipeline.organization.id,
    slug: pipeline.slug,
    name: pipeline.name,
    description: pipeline.description ?? null,
    repository: pipeline.repository,
    defaultBranch: pipeline.defaultBranch ?? null,
    branchConfiguration: pipeline.branchConfiguration ?? null,
    steps: pipeline.steps,
    provider: pipeline.provider,
    webhookToken: pipeline.webhookToken ?? null,
    skipQueuedBranchBuilds: pipeline.skipQueuedBranchBuilds,
    skipQueuedBranchBuildsFilter: pipeline.skipQueuedBranchBuildsFilter ?? null,
    cancelRunningBranchBuilds: pipeline.cancelRunningBranchBuilds,
    cancelRunningBranchBuildsFilter: pipeline.cancelRunningBranchBuildsFilter ?? null,
    nextBuildNumber: pipeline.nextBuildNumber,
    archivedAt: pipeline.archivedAt ?? null,
    createdAt: pipeline.createdAt,
    env: pipeline.env ?? {},
    visibility: pipeline.visibility,
    tags: pipeline.tags ?? null,
    clusterId: pipeline.cluster?.id ?? null,
    allowRebuilds: pipeline.allowRebuilds,
    color: pipeline.color ?? null,
    emoji: pipeline.emoji ?? null,
    defaultTimeoutInMinutes: pipeline.defaultTimeoutInMinutes ?? null,
    maximumTimeoutInMinutes: pipeline.maximumTimeoutInMinutes ?? null,
    configuration: pipeline.configuration ?? null,
    pipelineTemplateId: pipeline.pipelineTemplate?.id ?? null,
    createdById: pipeline.createdBy?.id ?? null,
  };
}

/**
 * A pipeline's live counts (the `*_count` fields of its wire form), kept exact by the triggers of
 * Migration20261121160000 in the very statements that insert, update or delete builds and jobs, so that a
 * response reads one row instead of aggregating the pipeline's active builds and their jobs.
 */
export const PipelineCountsEntity = defineEntity({
  name: 'PipelineCounts',
  tableName: 'pipeline_counts',
  properties: {
    pipeline: () => p.manyToOne(PipelineEntity).primary().deleteRule('cascade'),
    /** builds in state `scheduled` */
    scheduledBuilds: p.integer().default(0),
    /** builds in state `running` */
    runningBuilds: p.integer().default(0),
    /** jobs scheduled, assigned or accepted, of active builds */
    scheduledJobs: p.integer().default(0),
    /** jobs running, canceling or timing out, of active builds */
    runningJobs: p.integer().default(0),
    /** jobs waiting, blocked, limited or pending, of active builds */
    waitingJobs: p.integer().default(0),
    /**
     * Taken from the sequence `content_revisions` whenever a build or job of the pipeline is inserted,
     * updated or deleted, or the counts change (the triggers of Migration20261125090000): part of the
     * content revision the response cache and ETags trust (ADR 0016).
     */
    buildsRevision: p.bigint().defaultRaw('next_content_revision()'),
  },
});

/**
 * One row (`id` 1): a number from the sequence `content_revisions`, taken whenever users, organizations,
 * organization memberships or agents (but for their heartbeats) change (the triggers of
 * Migration20261125090000). Answers about a pipeline's builds show some of these rows beside the
 * pipeline's own (creators, agents): part of the content revision too (ADR 0016).
 */
export const CatalogRevisionEntity = defineEntity({
  name: 'CatalogRevision',
  tableName: 'catalog_revision',
  properties: {
    id: p.integer().primary().autoincrement(false),
    revision: p.bigint(),
  },
});
