import { type AccessLevel, isAccessLevel } from './access';
import type { Pipeline, StepDefinition } from './entities';
import {
  badRequest,
  type DomainError,
  type FieldError,
  type FieldErrorCode,
  unprocessable,
  validationFailed,
} from './errors';
import { isUuid } from './ids';
import { isJsonObject } from './json-object';
import { err, ok, type Result } from './result';
import { slugify } from './slug';
import { isStorableText, UNSTORABLE_TEXT } from './storable-text';

export const PIPELINE_VISIBILITIES = ['private', 'public'] as const;
export type PipelineVisibility = (typeof PIPELINE_VISIBILITIES)[number];

/** The public API's slugs are at most 100 characters; a name is never shorter than its slug. */
export const PIPELINE_LIMITS = {
  name: 100,
  repository: 1024,
  defaultBranch: 255,
  branchFilter: 1024,
  description: 10_000,
  tags: 50,
  tag: 255,
  envKeys: 100,
  envKey: 255,
  envValue: 10_000,
  providerText: 1024,
  color: 255,
  emoji: 255,
  /** a year, in minutes */
  timeoutMinutes: 525_600,
} as const;

/** What `team_uuids` gives each team: the public API's (and GraphQL's) default team access level. */
export const DEFAULT_TEAM_ACCESS_LEVEL: AccessLevel = 'manage_build_and_read';

export const TRIGGER_MODES = ['code', 'deployment', 'fork', 'none'] as const;

/** The provider settings of a new pipeline, keys in the order of the public API's create example. */
export const PROVIDER_SETTING_DEFAULTS = {
  trigger_mode: 'code',
  build_pull_requests: true,
  pull_request_branch_filter_enabled: false,
  skip_builds_for_existing_commits: false,
  skip_pull_request_builds_for_existing_commits: true,
  build_pull_request_ready_for_review: false,
  build_pull_request_labels_changed: false,
  build_pull_request_forks: false,
  prefix_pull_request_fork_branch_names: true,
  build_branches: true,
  build_tags: false,
  cancel_deleted_branch_builds: false,
  publish_commit_status: true,
  publish_commit_status_per_step: false,
  separate_pull_request_statuses: false,
  publish_blocked_as_pending: false,
  use_step_key_as_commit_status: false,
  filter_enabled: false,
  build_pull_request_base_branch_changed: false,
  build_merge_group_checks_requested: false,
} as const satisfies Record<string, string | boolean>;

/** Settings the public API accepts that have no default: shown once set. */
export const OPTIONAL_BOOLEAN_SETTINGS = [
  'cancel_when_merge_group_destroyed',
  'use_merge_group_base_commit_for_git_diff_base',
  // GitHub's event switches of the public GraphQL schema (stored and shown; no webhooks arrive here)
  'build_check_run_completed',
  'build_create_event',
  'build_deployment_status_created',
  'build_issue_comment_created',
  'build_pull_request_converted_to_draft',
  'build_pull_request_dequeued',
  'build_pull_request_edited',
  'build_pull_request_merge_commits',
  'build_pull_request_reopened',
  'build_pull_request_review_comment_created',
  'build_pull_request_review_dismissed',
  'build_pull_request_review_requested',
  'build_pull_request_review_submitted',
  'build_pull_request_stacks',
  'build_release_created',
  'build_release_published',
  'build_release_released',
  'github_webhooks_disabled',
  'ignore_default_branch_pull_requests',
] as const;
export const OPTIONAL_TEXT_SETTINGS = [
  'filter_condition',
  'pull_request_branch_filter_configuration',
  'issue_comment_command_word',
  'review_comment_command_word',
] as const;
/** How a comment must name its command word: `contains` or `exact`. */
export const MATCH_MODE_SETTINGS = ['issue_comment_match_mode', 'review_comment_match_mode'] as const;
export const MATCH_MODES = ['contains', 'exact'] as const;

export type ProviderSettingValue = string | boolean | null;
export type ProviderSettings = Record<string, ProviderSettingValue>;

/** Hosts whose repositories the public API names by path (`owner/repo`) under a provider of their own. */
const HOSTED_REPOSITORY =
  /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^@/\s]+@)?(github\.com|gitlab\.com|bitbucket\.org)(?::\d+)?[:/]([^\s]+?)(?:\.git)?\/?$/i;
const PROVIDER_BY_HOST: Record<string, string> = {
  'github.com': 'github',
  'gitlab.com': 'gitlab',
  'bitbucket.org': 'bitbucket',
};

/**
 * The provider a repository URL belongs to and how its settings name the repository: GitHub, GitLab and
 * Bitbucket by `owner/repo` (SSH, HTTPS or `ssh://` URLs), any other git URL as `git` by the whole URL.
 */
export function providerFor(repository: string): { id: string; repository: string } {
  const hosted = HOSTED_REPOSITORY.exec(repository.trim());
  if (hosted) return { id: PROVIDER_BY_HOST[hosted[1]!.toLowerCase()]!, repository: hosted[2]! };
  return { id: 'git', repository: repository.trim() };
}

const HOST_BY_PROVIDER: Record<string, string> = {
  github: 'github.com',
  gitlab: 'gitlab.com',
  bitbucket: 'bitbucket.org',
};

/**
 * The repository's page on its provider's site (GraphQL's `RepositoryProvider.url`): GitHub, GitLab and
 * Bitbucket repositories by their `owner/repo`; null for any other git URL, whose site is unknown.
 */
export function repositoryWebUrl(provider: { id: string; settings: Record<string, unknown> }): string | null {
  const host = HOST_BY_PROVIDER[provider.id];
  const path = provider.settings.repository;
  return host && typeof path === 'string' && path !== '' ? `https://${host}/${path}` : null;
}

/** A new pipeline's provider: the defaults, what the request set, and the repository's path. */
export function newProvider(
  repository: string,
  requested: ProviderSettings,
): { id: string; settings: ProviderSettings } {
  const provider = providerFor(repository);
  return {
    id: provider.id,
    settings: { ...PROVIDER_SETTING_DEFAULTS, ...requested, repository: provider.repository },
  };
}

/**
 * Stored settings as the wire shows them: every default key in the public order (a stored value of the
 * right type wins), then the optional settings that were set, then `repository`. Older pipelines stored
 * only some keys; the defaults fill the rest.
 */
export function presentableProviderSettings(
  stored: Record<string, unknown>,
  repository: string,
): ProviderSettings {
  // Made from entries at once: ~25 keys set one by one leave V8 a dictionary object, slow to serialize.
  const entries: Array<[string, ProviderSettingValue]> = [];
  for (const [key, fallback] of Object.entries(PROVIDER_SETTING_DEFAULTS)) {
    const value = stored[key];
    entries.push([key, typeof value === typeof fallback ? (value as ProviderSettingValue) : fallback]);
  }
  for (const key of OPTIONAL_BOOLEAN_SETTINGS) {
    const value = stored[key];
    if (typeof value === 'boolean') entries.push([key, value]);
  }
  for (const key of [...OPTIONAL_TEXT_SETTINGS, ...MATCH_MODE_SETTINGS]) {
    const value = stored[key];
    if (typeof value === 'string' || value === null) entries.push([key, value]);
  }
  const path = stored.repository;
  entries.push(['repository', typeof path === 'string' ? path : providerFor(repository).repository]);
  return Object.fromEntries(entries);
}

/** Where a pipeline's steps come from: a YAML pipeline file, or the legacy list of step objects. */
export type PipelineDefinition =
  | { kind: 'configuration'; source: string }
  | { kind: 'steps'; steps: unknown };

/** Where a create or update body's steps come from: a definition, or a pipeline template (by UUID). */
export type PipelineSource = PipelineDefinition | { kind: 'template'; templateId: string };

/** A team the new pipeline is given to, and the access level its members get. */
export interface TeamGrant {
  /** lowercase UUID; whether the organization has such a team is the caller's question */
  teamId: string;
  accessLevel: AccessLevel;
  /** the body field that named the team, for the 422 when it does not exist */
  field: 'teams' | 'team_uuids';
}

/** The pipeline's own fields of a create or update body, validated. */
export interface PipelineFields {
  name: string;
  slug: string;
  repository: string;
  definition: PipelineSource;
  /** the template the steps come from (lowercase UUID); null: none */
  pipelineTemplateId: string | null;
  defaultBranch: string | null;
  branchConfiguration: string | null;
  description: string | null;
  env: Record<string, string>;
  /** the settings the request sets; merged over the defaults (create) or the stored ones (update) */
  providerSettings: ProviderSettings;
  skipQueuedBranchBuilds: boolean;
  skipQueuedBranchBuildsFilter: string | null;
  cancelRunningBranchBuilds: boolean;
  cancelRunningBranchBuildsFilter: string | null;
  allowRebuilds: boolean;
  visibility: PipelineVisibility;
  tags: string[] | null;
  clusterId: string | null;
  color: string | null;
  emoji: string | null;
  defaultTimeoutInMinutes: number | null;
  maximumTimeoutInMinutes: number | null;
}

export interface NewPipelineRequest extends PipelineFields {
  teams: TeamGrant[];
}

/** An update: only what the body names changes. Teams are not changed here (as in the public API). */
export type PipelineChangeRequest = Partial<PipelineFields>;

/**
 * Reads the JSON body of a create-pipeline request (the public API's "Create a YAML pipeline" and "Create a
 * visual step pipeline"). Every invalid field is reported at once as `Validation Failed`; unknown fields
 * are ignored. `configuration` (YAML), `steps` (legacy step objects) or `pipeline_template_uuid` (a
 * template's configuration) defines the steps; which is parsed, and how, is the caller's (the YAML reader
 * lives outside the domain; whether the template may be used is the application's).
 */
export function parseNewPipelineRequest(body: unknown): Result<NewPipelineRequest> {
  const reader = new BodyReader(isJsonObject(body) ? body : {});
  const name = reader.name(true);
  const repository = reader.repository(true);
  const definition = reader.definition(true);
  const env = reader.env() ?? {};
  const request = {
    defaultBranch: reader.optionalText('default_branch', PIPELINE_LIMITS.defaultBranch) ?? 'main',
    branchConfiguration: reader.optionalText('branch_configuration', PIPELINE_LIMITS.branchFilter) ?? null,
    description: reader.description() ?? null,
    providerSettings: reader.providerSettings() ?? {},
    skipQueuedBranchBuilds: reader.flag('skip_queued_branch_builds') ?? false,
    skipQueuedBranchBuildsFilter:
      reader.optionalText('skip_queued_branch_builds_filter', PIPELINE_LIMITS.branchFilter) ?? null,
    cancelRunningBranchBuilds: reader.flag('cancel_running_branch_builds') ?? false,
    cancelRunningBranchBuildsFilter:
      reader.optionalText('cancel_running_branch_builds_filter', PIPELINE_LIMITS.branchFilter) ?? null,
    allowRebuilds: reader.flag('allow_rebuilds') ?? true,
    visibility: reader.visibility() ?? 'private',
    tags: reader.tags() ?? null,
    clusterId: reader.clusterId() ?? null,
    color: reader.optionalText('color', PIPELINE_LIMITS.color) ?? null,
    emoji: reader.optionalText('emoji', PIPELINE_LIMITS.emoji) ?? null,
    defaultTimeoutInMinutes: reader.minutes('default_timeout_in_minutes') ?? null,
    maximumTimeoutInMinutes: reader.minutes('maximum_timeout_in_minutes') ?? null,
    teams: reader.teams(),
  };
  const timeouts = timeoutsConflict(request);
  if (timeouts) reader.errors.push(timeouts);
  if (reader.errors.length > 0 || !name || !repository || !definition) {
    return err(validationFailed(reader.errors));
  }
  const pipelineTemplateId = definition.kind === 'template' ? definition.templateId : null;
  return ok({ ...request, ...name, repository, definition, pipelineTemplateId, env });
}

/**
 * Reads the JSON body of an update: the create body's fields, each optional. `teams` and `team_uuids` are
 * ignored (the public API changes a pipeline's teams elsewhere). A new name gives a new slug.
 */
export function parsePipelineChangeRequest(body: unknown): Result<PipelineChangeRequest> {
  const input = isJsonObject(body) ? body : {};
  const reader = new BodyReader(input);
  const given = (field: string) => input[field] !== undefined;
  const changes: PipelineChangeRequest = {};
  const set = <K extends keyof PipelineFields>(key: K, value: PipelineFields[K] | null | undefined) => {
    if (value !== undefined && value !== null) changes[key] = value;
  };
  if (given('name')) Object.assign(changes, reader.name(true) ?? {});
  if (given('repository')) set('repository', reader.repository(true));
  if (given('configuration') || given('steps') || given('pipeline_template_uuid')) {
    const definition = reader.definition(!given('pipeline_template_uuid'));
    set('definition', definition);
    // New steps of their own (or `pipeline_template_uuid: null`) leave the template.
    if (definition || input.pipeline_template_uuid === null) {
      changes.pipelineTemplateId = definition?.kind === 'template' ? definition.templateId : null;
    }
  }
  if (given('env')) set('env', reader.env());
  if (given('default_branch')) {
    changes.defaultBranch = reader.optionalText('default_branch', PIPELINE_LIMITS.defaultBranch) ?? null;
  }
  if (given('branch_configuration')) {
    changes.branchConfiguration =
      reader.optionalText('branch_configuration', PIPELINE_LIMITS.branchFilter) ?? null;
  }
  if (given('description')) changes.description = reader.description() ?? null;
  if (given('provider_settings')) set('providerSettings', reader.providerSettings());
  set('skipQueuedBranchBuilds', reader.flag('skip_queued_branch_builds'));
  if (given('skip_queued_branch_builds_filter')) {
    changes.skipQueuedBranchBuildsFilter =
      reader.optionalText('skip_queued_branch_builds_filter', PIPELINE_LIMITS.branchFilter) ?? null;
  }
  set('cancelRunningBranchBuilds', reader.flag('cancel_running_branch_builds'));
  if (given('cancel_running_branch_builds_filter')) {
    changes.cancelRunningBranchBuildsFilter =
      reader.optionalText('cancel_running_branch_builds_filter', PIPELINE_LIMITS.branchFilter) ?? null;
  }
  set('allowRebuilds', reader.flag('allow_rebuilds'));
  set('visibility', reader.visibility());
  if (given('tags')) changes.tags = reader.tags() ?? null;
  if (given('cluster_id')) changes.clusterId = reader.clusterId() ?? null;
  if (given('color')) changes.color = reader.optionalText('color', PIPELINE_LIMITS.color) ?? null;
  if (given('emoji')) changes.emoji = reader.optionalText('emoji', PIPELINE_LIMITS.emoji) ?? null;
  if (given('default_timeout_in_minutes')) {
    changes.defaultTimeoutInMinutes = reader.minutes('default_timeout_in_minutes') ?? null;
  }
  if (given('maximum_timeout_in_minutes')) {
    changes.maximumTimeoutInMinutes = reader.minutes('maximum_timeout_in_minutes') ?? null;
  }
  return reader.errors.length > 0 ? err(validationFailed(reader.errors)) : ok(changes);
}

/** A default timeout past the maximum could never apply (the public API refuses it too). */
function timeoutsConflict(
  timeouts: Pick<PipelineFields, 'defaultTimeoutInMinutes' | 'maximumTimeoutInMinutes'>,
): FieldError | null {
  const { defaultTimeoutInMinutes: fallback, maximumTimeoutInMinutes: maximum } = timeouts;
  if (typeof fallback !== 'number' || typeof maximum !== 'number' || fallback <= maximum) return null;
  return {
    field: 'default_timeout_in_minutes',
    code: 'invalid',
    message: 'default_timeout_in_minutes must not be more than maximum_timeout_in_minutes',
  };
}

/** Slugs are unique per organization; the caller knows when one is taken (the database's unique key). */
export function pipelineNameTaken(): DomainError {
  return validationFailed([{ field: 'name', code: 'taken', message: 'name has already been taken' }]);
}

/** A template the body names that the organization does not have, or that the caller may not use. */
export function pipelineTemplateUnknown(): DomainError {
  return validationFailed([
    {
      field: 'pipeline_template_uuid',
      code: 'invalid',
      message: 'pipeline_template_uuid names no pipeline template',
    },
  ]);
}

/** A team a create body names that the organization does not have (a team of another one included). */
export function pipelineTeamUnknown(grant: Pick<TeamGrant, 'teamId' | 'field'>): DomainError {
  return validationFailed([
    {
      field: grant.field,
      code: 'invalid',
      message: `${grant.field} names ${grant.teamId}, which is not a team of this organization`,
    },
  ]);
}

/** What a definition gave: steps, the YAML they came from (null: a list), and the YAML's `env` (null: a list). */
export interface DefinedSteps {
  steps: StepDefinition[];
  configuration: string | null;
  env: Record<string, string> | null;
}

/**
 * A pipeline's environment from its YAML: the YAML's top-level `env`, overridden key by key by the
 * request's `env` (the public API's create example shows the YAML's `env` as the pipeline's).
 */
export function pipelineEnv(
  defined: Pick<DefinedSteps, 'env'> | null,
  requested: Record<string, string> | undefined,
): Record<string, string> {
  return { ...(defined?.env ?? {}), ...(requested ?? {}) };
}

/**
 * A pipeline with an update's changes. A new name has already given a new slug; a new repository gives a
 * new provider (its settings kept); `provider_settings` are merged over the stored ones. New steps (and
 * with YAML, a new env) come from `defined`; `env` alone replaces the env. Archived pipelines are
 * read-only.
 */
export function changedPipeline(
  current: Pipeline,
  changes: PipelineChangeRequest,
  defined: DefinedSteps | null,
): Result<Pipeline> {
  if (current.archivedAt) return err(pipelineArchivedReadOnly());
  const { definition: _definition, providerSettings, env, ...fields } = changes;
  const timeouts = timeoutsConflict({ ...current, ...fields });
  if (timeouts) return err(validationFailed([timeouts]));
  const repository = changes.repository ?? current.repository;
  const provider =
    changes.repository !== undefined || providerSettings !== undefined
      ? {
          id: providerFor(repository).id,
          settings: {
            ...current.provider.settings,
            ...providerSettings,
            repository: providerFor(repository).repository,
          },
        }
      : current.provider;
  return ok({
    ...current,
    ...fields,
    provider,
    steps: defined?.steps ?? current.steps,
    configuration: defined ? defined.configuration : current.configuration,
    env: defined?.env ? pipelineEnv(defined, env) : (env ?? current.env),
  });
}

/** Archiving (the public API: 422 `Pipeline could not be archived.` for one that already is). */
export function archivedPipeline(current: Pipeline, at: Date): Result<Pipeline> {
  return current.archivedAt ? err(pipelineArchiveRefused('archive')) : ok({ ...current, archivedAt: at });
}

/** Unarchiving (422 `Pipeline could not be unarchived.` for one that is not archived). */
export function unarchivedPipeline(current: Pipeline): Result<Pipeline> {
  return current.archivedAt ? ok({ ...current, archivedAt: null }) : err(pipelineArchiveRefused('unarchive'));
}

/** The public API: archiving an archived pipeline (or unarchiving one that is not) cannot be done. */
export function pipelineArchiveRefused(action: 'archive' | 'unarchive'): DomainError {
  return unprocessable(`pipeline_not_${action}able`, `Pipeline could not be ${action}d.`);
}

/** Archived pipelines are read-only until unarchived. */
export function pipelineArchivedReadOnly(): DomainError {
  return unprocessable(
    'pipeline_archived',
    'Archived pipelines cannot be changed: unarchive the pipeline first',
  );
}

/** Field readers that collect every problem, in the order the fields are read. */
class BodyReader {
  readonly errors: FieldError[] = [];

  constructor(private readonly input: Record<string, unknown>) {}

  private fail(field: string, code: FieldErrorCode, message: string): undefined {
    this.errors.push({ field, code, message });
    return undefined;
  }

  /** A string field: blank is absent (missing when required), otherwise storable and within `max`. */
  private text(field: string, max: number, required: boolean): string | null | undefined {
    const value = this.input[field];
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
      return required ? this.fail(field, 'missing', `${field} can't be blank`) : null;
    }
    if (typeof value !== 'string') return this.fail(field, 'invalid', `${field} must be a string`);
    if (!isStorableText(value)) return this.fail(field, 'invalid', `${field} ${UNSTORABLE_TEXT}`);
    if (value.length > max) {
      return this.fail(field, 'too_long', `${field} is too long (maximum is ${max} characters)`);
    }
    return value;
  }

  /** An optional string: null when absent or blank, trimmed otherwise. */
  optionalText(field: string, max: number): string | null | undefined {
    return this.text(field, max, false)?.trim();
  }

  name(required: boolean): { name: string; slug: string } | undefined {
    const name = this.text('name', PIPELINE_LIMITS.name, required)?.trim();
    if (!name) return undefined;
    const slug = slugify(name);
    // The slug is the pipeline's address, so a name must leave something to address it by.
    if (slug === '') return this.fail('name', 'invalid', 'name must contain at least one letter or digit');
    return { name, slug };
  }

  repository(required: boolean): string | undefined {
    return this.text('repository', PIPELINE_LIMITS.repository, required)?.trim() || undefined;
  }

  /** `configuration` (YAML text), `steps` (a list) or `pipeline_template_uuid`: one of them. */
  definition(required: boolean): PipelineSource | undefined {
    const { configuration, steps, pipeline_template_uuid: template } = this.input;
    const hasConfiguration = configuration !== undefined && configuration !== null;
    const hasSteps = steps !== undefined && steps !== null;
    if (template !== undefined && template !== null) {
      if (hasConfiguration || hasSteps) {
        return this.fail(
          'pipeline_template_uuid',
          'invalid',
          'give either pipeline_template_uuid or configuration (YAML) or steps, not more than one',
        );
      }
      if (typeof template !== 'string' || !isUuid(template)) {
        return this.fail(
          'pipeline_template_uuid',
          'invalid',
          'pipeline_template_uuid names no pipeline template',
        );
      }
      return { kind: 'template', templateId: template.toLowerCase() };
    }
    if (hasConfiguration && hasSteps) {
      return this.fail('steps', 'invalid', 'give either configuration (YAML) or steps, not both');
    }
    if (hasSteps) {
      if (!Array.isArray(steps)) return this.fail('steps', 'invalid', 'steps must be a list of steps');
      return { kind: 'steps', steps };
    }
    const source = this.text('configuration', Number.MAX_SAFE_INTEGER, false);
    if (source) return { kind: 'configuration', source };
    if (source === null && (required || this.input.configuration !== undefined)) {
      return this.fail(
        'configuration',
        'missing',
        'Step configuration is missing: give configuration (YAML) or steps',
      );
    }
    return undefined;
  }

  flag(field: string): boolean | undefined {
    const value = this.input[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'boolean') return value;
    return this.fail(field, 'invalid', `${field} must be true or false`);
  }

  /** A whole number of minutes, at least one; null when absent. */
  minutes(field: string): number | null | undefined {
    const value = this.input[field];
    if (value === undefined || value === null) return null;
    const max = PIPELINE_LIMITS.timeoutMinutes;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
      return this.fail(field, 'invalid', `${field} must be a whole number of minutes from 1 to ${max}`);
    }
    return value;
  }

  description(): string | null | undefined {
    return this.text('description', PIPELINE_LIMITS.description, false);
  }

  visibility(): PipelineVisibility | undefined {
    const value = this.input.visibility;
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string' && isPipelineVisibility(value)) return value;
    return this.fail(
      'visibility',
      'invalid',
      `visibility must be one of ${PIPELINE_VISIBILITIES.join(', ')}`,
    );
  }

  env(): Record<string, string> | undefined {
    const value = this.input.env;
    if (value === undefined || value === null) return undefined;
    if (!isJsonObject(value)) return this.fail('env', 'invalid', 'env must be an object of strings');
    const entries = Object.entries(value);
    if (entries.length > PIPELINE_LIMITS.envKeys) {
      return this.fail('env', 'too_long', `env has too many keys (maximum is ${PIPELINE_LIMITS.envKeys})`);
    }
    const before = this.errors.length;
    for (const [key, entry] of entries) {
      if (key.trim() === '') this.fail('env', 'invalid', "env keys can't be blank");
      else if (!isStorableText(key)) this.fail('env', 'invalid', `env keys ${UNSTORABLE_TEXT}`);
      else if (key.length > PIPELINE_LIMITS.envKey) {
        this.fail('env', 'too_long', `env keys are limited to ${PIPELINE_LIMITS.envKey} characters`);
      } else if (typeof entry !== 'string') this.fail('env', 'invalid', `env.${key} must be a string`);
      else if (!isStorableText(entry)) this.fail('env', 'invalid', `env.${key} ${UNSTORABLE_TEXT}`);
      else if (entry.length > PIPELINE_LIMITS.envValue) {
        this.fail(
          'env',
          'too_long',
          `env.${key} is too long (maximum is ${PIPELINE_LIMITS.envValue} characters)`,
        );
      }
    }
    // fromEntries keeps a `__proto__` key as plain data instead of setting the prototype.
    return this.errors.length === before
      ? (Object.fromEntries(entries) as Record<string, string>)
      : undefined;
  }

  tags(): string[] | null | undefined {
    const value = this.input.tags;
    if (value === undefined || value === null) return null;
    if (!Array.isArray(value)) return this.fail('tags', 'invalid', 'tags must be a list of strings');
    if (value.length > PIPELINE_LIMITS.tags) {
      return this.fail('tags', 'too_long', `tags has too many entries (maximum is ${PIPELINE_LIMITS.tags})`);
    }
    const tags: string[] = [];
    for (const tag of value) {
      if (typeof tag !== 'string' || tag.trim() === '') {
        return this.fail('tags', 'invalid', 'tags must be a list of non-blank strings');
      }
      if (!isStorableText(tag)) return this.fail('tags', 'invalid', `tags ${UNSTORABLE_TEXT}`);
      if (tag.length > PIPELINE_LIMITS.tag) {
        return this.fail('tags', 'too_long', `tags are limited to ${PIPELINE_LIMITS.tag} characters each`);
      }
      tags.push(tag.trim());
    }
    return tags;
  }

  clusterId(): string | null | undefined {
    const value = this.input.cluster_id;
    if (value === undefined || value === null) return null;
    if (typeof value === 'string' && isUuid(value)) return value.toLowerCase();
    return this.fail('cluster_id', 'invalid', 'cluster_id must be a UUID');
  }

  /** Known settings of the right type; unknown keys (and `repository`, which follows the URL) are ignored. */
  providerSettings(): ProviderSettings | undefined {
    const value = this.input.provider_settings;
    if (value === undefined || value === null) return undefined;
    if (!isJsonObject(value))
      return this.fail('provider_settings', 'invalid', 'provider_settings must be an object');
    const settings: ProviderSettings = {};
    const booleans = [
      ...Object.keys(PROVIDER_SETTING_DEFAULTS).filter((key) => key !== 'trigger_mode'),
      ...OPTIONAL_BOOLEAN_SETTINGS,
    ];
    for (const [key, setting] of Object.entries(value)) {
      const field = `provider_settings.${key}`;
      if (key === 'trigger_mode') {
        if (typeof setting === 'string' && (TRIGGER_MODES as readonly string[]).includes(setting)) {
          settings[key] = setting;
        } else this.fail(field, 'invalid', `${field} must be one of ${TRIGGER_MODES.join(', ')}`);
      } else if ((MATCH_MODE_SETTINGS as readonly string[]).includes(key)) {
        if (setting === null || (MATCH_MODES as readonly unknown[]).includes(setting)) {
          settings[key] = setting as ProviderSettingValue;
        } else this.fail(field, 'invalid', `${field} must be one of ${MATCH_MODES.join(', ')}`);
      } else if (booleans.includes(key)) {
        if (typeof setting === 'boolean') settings[key] = setting;
        else this.fail(field, 'invalid', `${field} must be true or false`);
      } else if ((OPTIONAL_TEXT_SETTINGS as readonly string[]).includes(key)) {
        if (setting === null) settings[key] = null;
        else if (typeof setting !== 'string') this.fail(field, 'invalid', `${field} must be a string`);
        else if (!isStorableText(setting)) this.fail(field, 'invalid', `${field} ${UNSTORABLE_TEXT}`);
        else if (setting.length > PIPELINE_LIMITS.providerText) {
          this.fail(
            field,
            'too_long',
            `${field} is too long (maximum is ${PIPELINE_LIMITS.providerText} characters)`,
          );
        } else settings[key] = setting;
      }
    }
    return settings;
  }

  /**
   * `teams` (the public form: `{ "<team uuid>": "<access level>" }`) and the deprecated `team_uuids`
   * (a list of team UUIDs, each given the default access level). A team named by both gets the level
   * `teams` gives it.
   */
  teams(): TeamGrant[] {
    const grants = new Map<string, TeamGrant>();
    const { team_uuids: uuids, teams } = this.input;
    if (uuids !== undefined && uuids !== null) {
      if (!Array.isArray(uuids))
        this.fail('team_uuids', 'invalid', 'team_uuids must be a list of team UUIDs');
      else {
        for (const uuid of uuids) {
          if (typeof uuid !== 'string' || !isUuid(uuid)) {
            this.fail('team_uuids', 'invalid', 'team_uuids must be a list of team UUIDs');
            break;
          }
          const teamId = uuid.toLowerCase();
          grants.set(teamId, { teamId, accessLevel: DEFAULT_TEAM_ACCESS_LEVEL, field: 'team_uuids' });
        }
      }
    }
    if (teams !== undefined && teams !== null) {
      if (!isJsonObject(teams)) {
        this.fail('teams', 'invalid', 'teams must map team UUIDs to access levels');
      } else {
        for (const [uuid, level] of Object.entries(teams)) {
          if (!isUuid(uuid)) {
            this.fail(
              'teams',
              'invalid',
              `teams keys must be team UUIDs, got ${JSON.stringify(uuid.slice(0, 64))}`,
            );
          } else if (typeof level !== 'string' || !isAccessLevel(level)) {
            this.fail(
              'teams',
              'invalid',
              'teams access levels must be read_only, build_and_read or manage_build_and_read',
            );
          } else {
            const teamId = uuid.toLowerCase();
            grants.set(teamId, { teamId, accessLevel: level, field: 'teams' });
          }
        }
      }
    }
    return [...grants.values()];
  }
}

export function isPipelineVisibility(s: string): s is PipelineVisibility {
  return (PIPELINE_VISIBILITIES as readonly string[]).includes(s);
}

/**
 * The public API's list filters: case-insensitive parts of the name and of the repository URL, and
 * (GraphQL's `archived`) archived pipelines only or unarchived ones only; null filters nothing.
 */
export interface PipelineListFilter {
  name: string | null;
  repository: string | null;
  archived: boolean | null;
}

/** Reads the list filters; an empty one filters nothing, one the database could not compare is a 400. */
export function parsePipelineListFilter(query: {
  name?: string | undefined;
  repository?: string | undefined;
  archived?: boolean | undefined;
}): Result<PipelineListFilter> {
  const read = (field: 'name' | 'repository'): Result<string | null> => {
    const value = query[field];
    if (value === undefined || value === '') return ok(null);
    if (!isStorableText(value)) return err(badRequest('invalid_parameter', `${field} ${UNSTORABLE_TEXT}`));
    if (value.length > PIPELINE_LIMITS.repository) {
      return err(
        badRequest(
          'invalid_parameter',
          `${field} is too long (maximum is ${PIPELINE_LIMITS.repository} characters)`,
        ),
      );
    }
    return ok(value);
  };
  const name = read('name');
  if (!name.ok) return name;
  const repository = read('repository');
  if (!repository.ok) return repository;
  return ok({ name: name.value, repository: repository.value, archived: query.archived ?? null });
}
