import {
  ACCESS_LEVELS,
  MATCH_MODE_SETTINGS,
  MATCH_MODES,
  OPTIONAL_BOOLEAN_SETTINGS,
  OPTIONAL_TEXT_SETTINGS,
  PIPELINE_LIMITS,
  PIPELINE_VISIBILITIES,
  TRIGGER_MODES,
} from '@ci/domain';
import { z } from 'zod';
import { UserWire } from '../users/user.wire';

/**
 * The wire shape of a pipeline, as the pipelines endpoints answer it (list, get, create, update, archive,
 * unarchive) and as builds embed it (one shape, as the recorded responses show), keys in the order of the
 * public API's create example (pipelines-create.json).
 */

const timestamp = z.string().meta({ description: 'ISO 8601 UTC with milliseconds', format: 'date-time' });
const stringMap = z.record(z.string(), z.string());
const count = z.number().int();

/** A command step, in the public API's legacy step shape. */
export const PipelineScriptStepWire = z
  .strictObject({
    type: z.literal('script'),
    name: z.string().nullable().meta({ description: "the step's label" }),
    command: z.string().meta({ description: 'several commands are joined by newlines' }),
    artifact_paths: z.string().meta({ description: "'' when the step keeps none" }),
    branch_configuration: z.string().meta({ description: "the step's `branches` filter; '' for none" }),
    env: stringMap,
    timeout_in_minutes: z
      .number()
      .int()
      .nullable()
      .meta({ description: "the step's own timeout; null for none" }),
    agent_query_rules: z.array(z.string()),
    concurrency: z.number().int().nullable().meta({ description: "the step's `concurrency`; null for none" }),
    parallelism: z.number().int().nullable(),
  })
  .meta({ id: 'PipelineScriptStep' });

/** A wait step. */
export const PipelineWaiterStepWire = z
  .strictObject({ type: z.literal('waiter') })
  .meta({ id: 'PipelineWaiterStep' });

/** A block step (its jobs wait to be unblocked). */
export const PipelineManualStepWire = z
  .strictObject({ type: z.literal('manual'), label: z.string().nullable() })
  .meta({ id: 'PipelineManualStep' });

/** A trigger step, in the public API's legacy step shape (`trigger_project_slug` names the target). */
export const PipelineTriggerStepWire = z
  .strictObject({
    type: z.literal('trigger'),
    label: z.string().nullable(),
    trigger_project_slug: z.string(),
    trigger_commit: z.string().nullable().meta({ description: 'null: HEAD' }),
    trigger_branch: z.string().nullable().meta({ description: "null: the target pipeline's default branch" }),
    trigger_async: z.boolean(),
  })
  .meta({ id: 'PipelineTriggerStep' });

export const PipelineStepWire = z.discriminatedUnion('type', [
  PipelineScriptStepWire,
  PipelineWaiterStepWire,
  PipelineManualStepWire,
  PipelineTriggerStepWire,
]);

const setOnly = { description: 'present once set' };

/** The settings shown only once set, each of one type. */
function optionalSettings<Key extends string, Schema extends z.ZodType>(
  keys: readonly Key[],
  schema: Schema,
): Record<Key, z.ZodOptional<Schema>> {
  return Object.fromEntries(keys.map((key) => [key, schema.optional().meta(setOnly)])) as Record<
    Key,
    z.ZodOptional<Schema>
  >;
}

/** Every provider's settings: the public API's GitHub keys (the create example), then the ones set. */
export const PipelineProviderSettingsWire = z
  .strictObject({
    trigger_mode: z.enum(TRIGGER_MODES),
    build_pull_requests: z.boolean(),
    pull_request_branch_filter_enabled: z.boolean(),
    skip_builds_for_existing_commits: z.boolean(),
    skip_pull_request_builds_for_existing_commits: z.boolean(),
    build_pull_request_ready_for_review: z.boolean(),
    build_pull_request_labels_changed: z.boolean(),
    build_pull_request_forks: z.boolean(),
    prefix_pull_request_fork_branch_names: z.boolean(),
    build_branches: z.boolean(),
    build_tags: z.boolean(),
    cancel_deleted_branch_builds: z.boolean(),
    publish_commit_status: z.boolean(),
    publish_commit_status_per_step: z.boolean(),
    separate_pull_request_statuses: z.boolean(),
    publish_blocked_as_pending: z.boolean(),
    use_step_key_as_commit_status: z.boolean(),
    filter_enabled: z.boolean(),
    build_pull_request_base_branch_changed: z.boolean(),
    build_merge_group_checks_requested: z.boolean(),
    ...optionalSettings(OPTIONAL_BOOLEAN_SETTINGS, z.boolean()),
    ...optionalSettings(OPTIONAL_TEXT_SETTINGS, z.string().nullable()),
    ...optionalSettings(MATCH_MODE_SETTINGS, z.enum(MATCH_MODES).nullable()),
    repository: z
      .string()
      .meta({ description: '`owner/repo` on GitHub, GitLab and Bitbucket; else the URL' }),
  })
  .meta({ id: 'PipelineProviderSettings' });

export const PipelineWire = z
  .strictObject({
    id: z.uuid(),
    graphql_id: z.string().meta({ description: 'base64 of `Pipeline---<id>`' }),
    url: z.string(),
    web_url: z.string(),
    name: z.string(),
    description: z.string().meta({ description: "'' when none was given" }),
    slug: z.string().meta({ description: 'derived from the name, and changes with it' }),
    repository: z.string(),
    cluster_id: z
      .string()
      .nullable()
      .meta({ description: "the cluster whose agents run the pipeline's jobs; null: unclustered" }),
    pipeline_template_uuid: z
      .string()
      .nullable()
      .meta({ description: 'the pipeline template the steps came from; null: none (or it was deleted)' }),
    branch_configuration: z.string().nullable(),
    default_branch: z.string().nullable(),
    skip_queued_branch_builds: z.boolean(),
    skip_queued_branch_builds_filter: z.string().nullable(),
    cancel_running_branch_builds: z.boolean(),
    cancel_running_branch_builds_filter: z.string().nullable(),
    allow_rebuilds: z.boolean(),
    provider: z.strictObject({
      id: z.string().meta({ description: 'github, gitlab, bitbucket, or git for any other repository' }),
      settings: PipelineProviderSettingsWire,
      webhook_url: z.string().meta({ description: "'' unless the viewer may edit the pipeline (rule B2)" }),
    }),
    builds_url: z.string(),
    badge_url: z.string(),
    created_by: UserWire.nullable().meta({ description: 'null for pipelines made by operator commands' }),
    created_at: z.string().meta({
      description:
        'ISO 8601 UTC with milliseconds; `YYYY-MM-DD HH:MM:SS UTC` embedded in single-build responses',
    }),
    archived_at: timestamp.nullable(),
    env: stringMap,
    scheduled_builds_count: count,
    running_builds_count: count,
    scheduled_jobs_count: count,
    running_jobs_count: count,
    waiting_jobs_count: count,
    visibility: z.enum(PIPELINE_VISIBILITIES),
    tags: z.array(z.string()).nullable(),
    emoji: z.string().nullable().meta({ description: "as set (GraphQL `emoji`, the body's `emoji`)" }),
    color: z.string().nullable().meta({ description: "as set (GraphQL `color`, the body's `color`)" }),
    configuration: z.string().optional().meta({
      description: 'the YAML the steps come from; absent for pipelines defined by `steps`, and in a build',
    }),
    steps: z.array(PipelineStepWire).meta({ description: "the steps in the public API's legacy step shape" }),
  })
  .meta({ id: 'Pipeline' });

export type PipelineStepWire = z.infer<typeof PipelineStepWire>;
export type PipelineProviderSettingsWire = z.infer<typeof PipelineProviderSettingsWire>;
export type PipelineWire = z.infer<typeof PipelineWire>;

const branchFilter = z
  .string()
  .max(PIPELINE_LIMITS.branchFilter)
  .nullable()
  .meta({ description: 'space-separated patterns, `*` a wildcard, `!` to exclude' });

const timeout = z.number().int().min(1).max(PIPELINE_LIMITS.timeoutMinutes).nullable();

/** What create and update share; the domain validates the bodies (422 `Validation Failed`). */
const pipelineFields = {
  name: z.string().max(PIPELINE_LIMITS.name).meta({ description: 'the slug is derived from it' }),
  repository: z.string().max(PIPELINE_LIMITS.repository).meta({ description: 'the repository URL' }),
  configuration: z
    .string()
    .meta({ description: 'the pipeline file (YAML): `steps:`, and an optional `env:`' }),
  steps: z
    .array(z.record(z.string(), z.unknown()))
    .meta({ description: 'instead of `configuration`: legacy step objects (`script`, `waiter`, `manual`)' }),
  default_branch: z.string().max(PIPELINE_LIMITS.defaultBranch).nullable(),
  branch_configuration: branchFilter,
  description: z.string().max(PIPELINE_LIMITS.description).nullable(),
  env: stringMap.meta({ description: "the pipeline's environment; over the YAML's `env`" }),
  // A request's keys, not the response's strict object: keys the domain does not know are ignored.
  provider_settings: z
    .object(PipelineProviderSettingsWire.shape)
    .omit({ repository: true })
    .partial()
    .meta({ description: 'merged over the defaults (create) or the current settings (update)' }),
  skip_queued_branch_builds: z.boolean(),
  skip_queued_branch_builds_filter: branchFilter,
  cancel_running_branch_builds: z.boolean(),
  cancel_running_branch_builds_filter: branchFilter,
  allow_rebuilds: z.boolean(),
  visibility: z.enum(PIPELINE_VISIBILITIES),
  tags: z.array(z.string().max(PIPELINE_LIMITS.tag)).max(PIPELINE_LIMITS.tags).nullable(),
  cluster_id: z.string().nullable().meta({ description: 'a UUID' }),
  pipeline_template_uuid: z.string().nullable().meta({
    description:
      'instead of `configuration` / `steps`: a pipeline template of the organization the caller may use; its configuration becomes the steps (null on update: leave the template)',
  }),
  color: z.string().max(PIPELINE_LIMITS.color).nullable(),
  emoji: z.string().max(PIPELINE_LIMITS.emoji).nullable(),
  default_timeout_in_minutes: timeout.meta({
    description: "command steps' default timeout (GraphQL `defaultTimeoutInMinutes`): stored, not enforced",
  }),
  maximum_timeout_in_minutes: timeout.meta({
    description: "command steps' longest timeout (GraphQL `maximumTimeoutInMinutes`): stored, not enforced",
  }),
};

export const CreatePipelineRequest = z
  .object({
    ...pipelineFields,
    configuration: pipelineFields.configuration.optional(),
    steps: pipelineFields.steps.optional(),
    default_branch: pipelineFields.default_branch.optional().meta({ default: 'main' }),
    branch_configuration: pipelineFields.branch_configuration.optional(),
    description: pipelineFields.description.optional(),
    env: pipelineFields.env.optional(),
    provider_settings: pipelineFields.provider_settings.optional(),
    skip_queued_branch_builds: pipelineFields.skip_queued_branch_builds.optional().meta({ default: false }),
    skip_queued_branch_builds_filter: pipelineFields.skip_queued_branch_builds_filter.optional(),
    cancel_running_branch_builds: pipelineFields.cancel_running_branch_builds
      .optional()
      .meta({ default: false }),
    cancel_running_branch_builds_filter: pipelineFields.cancel_running_branch_builds_filter.optional(),
    allow_rebuilds: pipelineFields.allow_rebuilds.optional().meta({ default: true }),
    visibility: pipelineFields.visibility.optional().meta({ default: 'private' }),
    tags: pipelineFields.tags.optional(),
    cluster_id: pipelineFields.cluster_id.optional(),
    pipeline_template_uuid: pipelineFields.pipeline_template_uuid.optional(),
    color: pipelineFields.color.optional(),
    emoji: pipelineFields.emoji.optional(),
    default_timeout_in_minutes: pipelineFields.default_timeout_in_minutes.optional(),
    maximum_timeout_in_minutes: pipelineFields.maximum_timeout_in_minutes.optional(),
    teams: z
      .record(z.string(), z.enum(ACCESS_LEVELS))
      .optional()
      .meta({ description: 'team UUID → access level; a member must name teams of their own' }),
    team_uuids: z
      .array(z.string())
      .optional()
      .meta({ description: 'deprecated form of `teams`: each team gets `manage_build_and_read`' }),
  })
  .meta({ id: 'CreatePipelineRequest', unusedIO: 'input' });
export type CreatePipelineRequest = z.input<typeof CreatePipelineRequest>;

export const UpdatePipelineRequest = z
  .object(pipelineFields)
  .partial()
  .meta({ id: 'UpdatePipelineRequest', unusedIO: 'input' });
export type UpdatePipelineRequest = z.input<typeof UpdatePipelineRequest>;
