import type { Job, JobMatrix } from '@ci/domain';
import { defineEntity, p } from '@mikro-orm/core';
import { AgentEntity } from './agent.entity';
import { OrganizationEntity, UserEntity } from './organization.entity';
import { PipelineEntity } from './pipeline.entity';
import { referencesIndex } from './references-index';

export const BuildEntity = defineEntity({
  name: 'Build',
  tableName: 'builds',
  uniques: [{ properties: ['pipeline', 'number'] }],
  indexes: [
    // Every list is newest created first, ties by number: one ordered index per list scope.
    {
      name: 'builds_pipeline_order_idx',
      expression:
        'create index "builds_pipeline_order_idx" on "builds" ("pipeline_id", "created_at" desc, "number" desc)',
    },
    {
      name: 'builds_organization_order_idx',
      expression:
        'create index "builds_organization_order_idx" on "builds" ("organization_id", "created_at" desc, "number" desc)',
    },
    {
      name: 'builds_order_idx',
      expression: 'create index "builds_order_idx" on "builds" ("created_at" desc, "number" desc)',
    },
    {
      name: 'builds_pipeline_branch_idx',
      expression:
        'create index "builds_pipeline_branch_idx" on "builds" ("pipeline_id", "branch", "created_at" desc, "number" desc)',
    },
    {
      name: 'builds_pipeline_state_idx',
      expression:
        'create index "builds_pipeline_state_idx" on "builds" ("pipeline_id", "state", "created_at" desc, "number" desc)',
    },
    // The common filters with the list's order: a page reads only its own index entries (Migration20261121160000).
    {
      name: 'builds_pipeline_branch_state_idx',
      expression:
        'create index "builds_pipeline_branch_state_idx" on "builds" ("pipeline_id", "branch", "state", "created_at" desc, "number" desc)',
    },
    {
      name: 'builds_organization_branch_idx',
      expression:
        'create index "builds_organization_branch_idx" on "builds" ("organization_id", "branch", "created_at" desc, "number" desc)',
    },
    {
      name: 'builds_organization_state_idx',
      expression:
        'create index "builds_organization_state_idx" on "builds" ("organization_id", "state", "created_at" desc, "number" desc)',
    },
    { name: 'builds_commit_idx', properties: ['commit'] },
    { name: 'builds_creator_idx', properties: ['creator'] },
    { name: 'builds_finished_at_idx', properties: ['finishedAt'] },
    {
      name: 'builds_meta_data_idx',
      expression: 'create index "builds_meta_data_idx" on "builds" using gin ("meta_data" jsonb_path_ops)',
    },
    referencesIndex('builds', 'rebuilt_from_id'),
  ],
  properties: {
    id: p.uuid().primary(),
    organization: () => p.manyToOne(OrganizationEntity).deleteRule('cascade'),
    pipeline: () => p.manyToOne(PipelineEntity).deleteRule('cascade'),
    number: p.integer(),
    state: p.string().length(16),
    /** Rule B1: the state a blocked build reports. */
    blockedState: p.string().length(16).nullable(),
    cancelReason: p.text().nullable(),
    message: p.text().nullable(),
    commit: p.string().length(255),
    branch: p.string().length(255),
    env: p.json<Record<string, string>>(),
    metaData: p.json<Record<string, string>>(),
    source: p.string().length(16),
    author: p.json<{ name: string; email: string }>().nullable(),
    creator: () => p.manyToOne(UserEntity).nullable().deleteRule('set null'),
    rebuiltFrom: () => p.manyToOne(BuildEntity).nullable().deleteRule('set null'),
    pullRequest: p.json<{ id: string; base: string | null; repository: string | null }>().nullable(),
    cleanCheckout: p.boolean().default(false),
    createdAt: p.datetime(3),
    scheduledAt: p.datetime(3).nullable(),
    startedAt: p.datetime(3).nullable(),
    failingAt: p.datetime(3).nullable(),
    finishedAt: p.datetime(3).nullable(),
  },
});

export const JobEntity = defineEntity({
  name: 'Job',
  tableName: 'jobs',
  indexes: [
    { name: 'jobs_build_position_idx', properties: ['build', 'position'] },
    // Dispatch reads the runnable jobs oldest first.
    {
      name: 'jobs_runnable_idx',
      expression:
        'create index "jobs_runnable_idx" on "jobs" ("runnable_at", "id") where "state" = \'scheduled\'',
    },
    // GraphQL's `Organization.jobs(clusterQueue:)`.
    {
      name: 'jobs_cluster_queue_idx',
      expression:
        'create index "jobs_cluster_queue_idx" on "jobs" ("cluster_queue_id") where "cluster_queue_id" is not null',
    },
    // One job per agent at a time, whatever the number of server processes.
    {
      name: 'jobs_one_active_per_agent_idx',
      expression:
        'create unique index "jobs_one_active_per_agent_idx" on "jobs" ("agent_id") where "state" in (\'assigned\', \'accepted\', \'running\', \'canceling\')',
    },
    // An agent's last finished job (REST's `last_job_finished_at`), read without visiting its other jobs.
    {
      name: 'jobs_agent_finished_idx',
      expression:
        'create index "jobs_agent_finished_idx" on "jobs" ("agent_id", "finished_at") where "agent_id" is not null and "finished_at" is not null',
    },
    // A build's `triggered_from`: the trigger job that made it.
    {
      name: 'jobs_triggered_build_idx',
      expression:
        'create index "jobs_triggered_build_idx" on "jobs" ("triggered_build_id") where "triggered_build_id" is not null',
    },
    // Dispatch of a concurrency group: its held and waiting jobs, oldest first.
    {
      name: 'jobs_concurrency_group_idx',
      expression:
        'create index "jobs_concurrency_group_idx" on "jobs" ("concurrency_group", "created_at") where "concurrency_group" is not null and "state" in (\'scheduled\', \'assigned\', \'accepted\', \'running\', \'canceling\')',
    },
    // The server's trigger pass: trigger jobs with a build to make or to wait for.
    {
      name: 'jobs_trigger_due_idx',
      expression:
        'create index "jobs_trigger_due_idx" on "jobs" ("build_id") where "type" = \'trigger\' and "state" in (\'scheduled\', \'running\')',
    },
    // Most jobs have no agent yet (scheduled, waiting): only the others are indexed.
    referencesIndex('jobs', 'agent_id'),
    referencesIndex('jobs', 'unblocked_by_id'),
  ],
  properties: {
    id: p.uuid().primary(),
    build: () => p.manyToOne(BuildEntity).deleteRule('cascade'),
    stepId: p.uuid().nullable(),
    position: p.integer(),
    type: p.string().length(16),
    name: p.text().nullable(),
    stepKey: p.string().length(255).nullable(),
    command: p.text().nullable(),
    state: p.string().length(16),
    agentQueryRules: p.array().columnType('text[]'),
    agent: () => p.manyToOne(AgentEntity).nullable().deleteRule('set null'),
    exitStatus: p.integer().nullable(),
    softFailed: p.boolean().default(false),
    artifactPaths: p.text().nullable(),
    env: p.json<Record<string, string>>(),
    retried: p.boolean().default(false),
    retriedInJobId: p.uuid().nullable(),
    retriesCount: p.integer().nullable(),
    retryType: p.string().length(16).nullable(),
    parallelGroupIndex: p.integer().nullable(),
    parallelGroupTotal: p.integer().nullable(),
    createdAt: p.datetime(3),
    scheduledAt: p.datetime(3).nullable(),
    runnableAt: p.datetime(3).nullable(),
    startedAt: p.datetime(3).nullable(),
    finishedAt: p.datetime(3).nullable(),
    softFail: p.boolean().default(false),
    continueOnFailure: p.boolean().default(false),
    retryAutomaticLimit: p.integer().nullable(),
    signal: p.string().length(32).nullable(),
    signalReason: p.string().length(64).nullable(),
    unblockedBy: () => p.manyToOne(UserEntity).nullable().deleteRule('set null'),
    unblockedAt: p.datetime(3).nullable(),
    matrix: p.json<JobMatrix>().nullable(),
    timeoutInMinutes: p.integer().nullable(),
    /**
     * Where the job runs, as decided when it was made (no foreign keys: a job keeps them as history, and
     * a job whose cluster or queue was deleted is taken by no agent).
     */
    clusterId: p.uuid().nullable(),
    clusterQueueId: p.uuid().nullable(),
    /** A trigger job's step (its target pipeline's slug, `async`, `build`); null for other jobs. */
    trigger: p.json<NonNullable<Job['trigger']>>().nullable(),
    /** The build a trigger job made: no foreign key, it is chosen before the build is written. */
    triggeredBuildId: p.uuid().nullable(),
    /** The step's `concurrency_group` and `concurrency`; null for jobs without. */
    concurrencyGroup: p.text().nullable(),
    concurrencyLimit: p.integer().nullable(),
    /** The group step its step came from (REST `group_key`); null outside a group. */
    groupKey: p.text().nullable(),
    /** A block job's step's fields (what unblocking asks for); null for other jobs. */
    blockFields: p.json<NonNullable<Job['blockFields']>>().nullable(),
  },
});

/** A job's log, as the agent sent it: chunks by sequence number. */
export const JobLogChunkEntity = defineEntity({
  name: 'JobLogChunk',
  tableName: 'job_log_chunks',
  properties: {
    job: () => p.manyToOne(JobEntity).primary().deleteRule('cascade'),
    sequence: p.integer().primary(),
    byteOffset: p.bigint('number'),
    content: p.text(),
    receivedAt: p.datetime(3),
  },
});
