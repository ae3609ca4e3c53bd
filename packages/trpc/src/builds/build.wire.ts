import { BUILD_SOURCES, BUILD_STATES, JOB_STATES, JOB_TYPES } from '@ci/domain';
import { z } from 'zod';
import { PipelineWire } from '../pipelines/pipeline.wire';
import { UserWire } from '../users/user.wire';

const MatrixValue = z.union([z.string(), z.number(), z.boolean()]);

/**
 * The wire shapes of a build and what it embeds, as zod schemas: the OpenAPI document is generated from
 * them, the presenter's types are inferred from them, and responses are validated against them
 * (VALIDATE_RESPONSES, on in the integration tests). Objects are strict, as the document's
 * `additionalProperties: false` says: a key the schema does not name is a mismatch. Keys are in the
 * order of the public API's examples.
 */

const timestamp = z.string().meta({ description: 'ISO 8601 UTC with milliseconds', format: 'date-time' });
const nullableTimestamp = timestamp.nullable();
const stringMap = z.record(z.string(), z.string());

export const AgentWire = z
  .strictObject({
    id: z.uuid(),
    graphql_id: z.string(),
    url: z.string(),
    web_url: z.string(),
    name: z.string(),
    connection_state: z.string(),
    hostname: z.string().nullable(),
    ip_address: z.string().nullable(),
    user_agent: z.string().nullable(),
    creator: UserWire.nullable(),
    created_at: nullableTimestamp,
    version: z.string().nullable(),
    job: z.null().meta({ description: 'null in a job (as recorded); the agents endpoints show it' }),
    last_job_finished_at: nullableTimestamp.meta({
      description: 'null in a job; the agents endpoints show it',
    }),
    priority: z.number().int(),
    meta_data: z.array(z.string()).meta({ description: 'its tags, `key=value`' }),
  })
  .meta({ id: 'Agent' });

export const JobWire = z
  .strictObject({
    id: z.uuid(),
    graphql_id: z.string(),
    type: z.enum(JOB_TYPES),
    name: z.string().nullable(),
    step_key: z.string().nullable(),
    group_key: z.string().nullable(),
    step: z.strictObject({ id: z.string().nullable(), signature: z.null() }),
    priority: z.strictObject({ number: z.number().int() }),
    agent_query_rules: z.array(z.string()),
    state: z.enum(JOB_STATES),
    build_url: z.string(),
    web_url: z.string(),
    log_url: z.string(),
    raw_log_url: z.string(),
    artifacts_url: z.string(),
    command: z.string().nullable(),
    soft_failed: z.boolean(),
    exit_status: z.number().int().nullable(),
    artifact_paths: z.string(),
    agent: AgentWire.nullable(),
    created_at: nullableTimestamp,
    scheduled_at: nullableTimestamp,
    runnable_at: nullableTimestamp,
    started_at: nullableTimestamp,
    finished_at: nullableTimestamp,
    expired_at: nullableTimestamp.meta({ description: 'jobs do not expire here: always null' }),
    retried: z.boolean(),
    retried_in_job_id: z.string().nullable(),
    retries_count: z.number().int().nullable(),
    retry_source: z.strictObject({ job_id: z.uuid(), retry_type: z.string() }).nullable(),
    retry_type: z.string().nullable(),
    parallel_group_index: z.number().int().nullable(),
    parallel_group_total: z.number().int().nullable(),
    /** the job's combination of its step's matrix: the value (list form) or the values by dimension */
    matrix: z.union([MatrixValue, z.record(z.string(), MatrixValue)]).nullable(),
    cluster_id: z.uuid().nullable().meta({ description: "the pipeline's cluster; null: unclustered" }),
    cluster_url: z.string().nullable(),
    cluster_queue_id: z
      .uuid()
      .nullable()
      .meta({ description: 'the queue the job waits in; null: unclustered, or no queue of its cluster' }),
    cluster_queue_url: z.string().nullable(),
    async: z
      .boolean()
      .optional()
      .meta({ description: 'trigger jobs only: whether it passes once its build is made' }),
    triggered_build: z
      .strictObject({ id: z.uuid(), number: z.number().int(), url: z.string(), web_url: z.string() })
      .nullable()
      .optional()
      .meta({ description: 'trigger jobs only: the build it made; null until then' }),
  })
  .meta({ id: 'Job' });

/** Rule B1: a blocked build shows the state it was blocked in, and `blocked: true`. */
const WIRE_BUILD_STATES = BUILD_STATES.filter(
  (state): state is Exclude<(typeof BUILD_STATES)[number], 'blocked'> => state !== 'blocked',
);

export const BuildWire = z
  .strictObject({
    id: z.uuid(),
    graphql_id: z.string(),
    url: z.string(),
    web_url: z.string(),
    number: z.number().int(),
    state: z.enum(WIRE_BUILD_STATES),
    cancel_reason: z.string().nullable(),
    blocked: z.boolean(),
    blocked_state: z
      .enum(['', 'passed', 'failed', 'running'])
      .meta({ description: "'' unless the build is blocked; then the state it kept (rule B1)" }),
    message: z.string().nullable(),
    commit: z.string(),
    branch: z.string(),
    tag: z.string().nullable().meta({ description: 'null unless the commit is a tag (`refs/tags/…`)' }),
    env: stringMap,
    source: z.enum(BUILD_SOURCES),
    author: z
      .strictObject({ name: z.string(), email: z.string() })
      .nullable()
      .meta({ description: 'as the create body gave it; null when none was given' }),
    creator: UserWire.nullable(),
    jobs: z.array(JobWire).optional().meta({ description: 'absent with `exclude_jobs=true`' }),
    job_state_counts: z
      .object({ total: z.number().int(), states: z.record(z.string(), z.number().int()) })
      .optional()
      .meta({ description: 'only in the get-build response: how many of the shown jobs are in each state' }),
    created_at: nullableTimestamp,
    scheduled_at: nullableTimestamp,
    started_at: nullableTimestamp,
    failing_at: nullableTimestamp,
    finished_at: nullableTimestamp,
    meta_data: stringMap,
    pull_request: z
      .strictObject({ id: z.string(), base: z.string().nullable(), repository: z.string().nullable() })
      .nullable()
      .meta({ description: 'null on a build without a pull request' }),
    merge_queue: z.null(),
    rebuilt_from: z.strictObject({ id: z.uuid(), number: z.number().int(), url: z.string() }).nullable(),
    triggered_from: z
      .strictObject({
        build_id: z.uuid(),
        build_number: z.number().int(),
        build_pipeline_slug: z.string(),
      })
      .nullable()
      .meta({ description: 'the build whose trigger step made this one; null for other builds' }),
    pipeline: PipelineWire.optional().meta({ description: 'absent with `exclude_pipeline=true`' }),
  })
  .meta({ id: 'Build' });

export type AgentWire = z.infer<typeof AgentWire>;
export type JobWire = z.infer<typeof JobWire>;
export type BuildWire = z.infer<typeof BuildWire>;

/**
 * The create-build body, for the OpenAPI document. The domain's `parseBuildRequest` is what validates it,
 * so that a bad body answers the spec's 422 shape rather than a schema library's.
 */
export const CreateBuildRequest = z
  .object({
    commit: z.string().max(255).meta({ description: 'ref, SHA or tag to build' }),
    branch: z.string().max(255),
    message: z.string().max(10_000).optional(),
    author: z.object({ name: z.string(), email: z.string() }).optional(),
    clean_checkout: z.boolean().optional(),
    env: stringMap.optional(),
    ignore_pipeline_branch_filters: z.boolean().optional(),
    meta_data: stringMap.optional(),
    pull_request_base_branch: z.string().optional(),
    pull_request_id: z.int().optional(),
    pull_request_repository: z.string().optional(),
  })
  // Documented as an input: keys the domain does not know are ignored, not refused.
  .meta({ id: 'CreateBuildRequest', unusedIO: 'input' });
export type CreateBuildRequest = z.input<typeof CreateBuildRequest>;
