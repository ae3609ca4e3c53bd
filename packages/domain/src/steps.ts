import { readBlockFields } from './block-fields';
import type { BlockStep, CommandStep, StepDefinition, StepFilters, TriggerStep, WaitStep } from './entities';
import { type FieldError, validationFailed } from './errors';
import { isJsonObject } from './json-object';
import { err, ok, type Result } from './result';
import { parseCondition, type RegexEngine } from './step-condition';
import { matrixSize, parseMatrix } from './step-matrix';

/** The limit the public format uses for `retry: { automatic: true }`. */
const DEFAULT_AUTOMATIC_RETRY_LIMIT = 2;
const MAX_AUTOMATIC_RETRY_LIMIT = 10;
/** Bounds on what one build gets from its steps: a pipeline defined over the API cannot ask for millions of jobs. */
export const MAX_STEP_PARALLELISM = 100;
export const MAX_JOBS_PER_BUILD = 1000;
/** A week: the longest a step's `timeout_in_minutes` may ask for. */
export const MAX_TIMEOUT_IN_MINUTES = 7 * 24 * 60;

/**
 * Reads the public pipeline file format, already parsed from YAML or JSON: `{ steps: [...] }` or a
 * bare list. Steps are command steps (also a bare string, with `matrix`), `wait` steps, `block` steps,
 * `trigger` steps (a build of another pipeline) and `group` steps, whose steps take their place (with the group's `branches` and `if` as well as
 * their own). Every step may have `branches` and `if`. Fields this service does not run (plugins,
 * depends_on…) are ignored. `regex` compiles the patterns of the steps' `if`.
 */
export function parseStepDefinitions(
  doc: unknown,
  newStepId: () => string,
  regex: RegexEngine,
): Result<StepDefinition[]> {
  const list = isJsonObject(doc) ? doc.steps : doc;
  if (list === undefined || list === null) return err(invalidSteps('missing', 'steps must be given'));
  if (!Array.isArray(list)) return err(invalidSteps('invalid', 'steps must be a list'));
  if (list.length === 0) return err(invalidSteps('invalid', 'steps must contain at least one step'));

  const steps: StepDefinition[] = [];
  const errors: FieldError[] = [];
  const keys = new Set<string>();
  list.forEach((raw, index) => {
    const problems: string[] = [];
    const parsed = isGroup(raw)
      ? parseGroup(raw, problems, newStepId, regex)
      : [parseStep(raw, problems, newStepId, regex)];
    for (const step of parsed) {
      if (!step?.key) continue;
      if (keys.has(step.key)) problems.push(`key "${step.key}" is already used by another step`);
      keys.add(step.key);
    }
    if (problems.length === 0 && parsed.every((step) => step !== null)) {
      steps.push(...(parsed as StepDefinition[]));
    } else {
      errors.push({ field: 'steps', code: 'invalid', message: `Step ${index + 1}: ${problems.join('; ')}` });
    }
  });
  if (errors.length === 0 && jobCount(steps) > MAX_JOBS_PER_BUILD) {
    errors.push({
      field: 'steps',
      code: 'too_long',
      message: `steps give ${jobCount(steps)} jobs per build (maximum is ${MAX_JOBS_PER_BUILD})`,
    });
  }
  return errors.length > 0 ? err(validationFailed(errors)) : ok(steps);
}

/**
 * At most: one job per command step (per parallel copy and matrix combination) and one per wait or block
 * step, as jobsForSteps makes them when no filter leaves a step out.
 */
function jobCount(steps: readonly StepDefinition[]): number {
  return steps.reduce(
    (total, step) =>
      total +
      (step.type === 'command' ? (step.parallelism ?? 1) * (step.matrix ? matrixSize(step.matrix) : 1) : 1),
    0,
  );
}

/**
 * Reads a whole pipeline file (the YAML of a pipeline's `configuration`, already parsed): its steps, and
 * its top-level `env`, which becomes the pipeline's environment. Problems are reported on `configuration`.
 */
export function parsePipelineFile(
  doc: unknown,
  newStepId: () => string,
  regex: RegexEngine,
): Result<{ steps: StepDefinition[]; env: Record<string, string> }> {
  const errors: FieldError[] = [];
  const steps = parseStepDefinitions(doc, newStepId, regex);
  if (!steps.ok) {
    for (const error of steps.error.details?.errors ?? []) errors.push({ ...error, field: 'configuration' });
  }
  const problems: string[] = [];
  const env = readEnv(isJsonObject(doc) ? doc.env : undefined, problems);
  for (const problem of problems) errors.push({ field: 'configuration', code: 'invalid', message: problem });
  if (!steps.ok || errors.length > 0) return err(validationFailed(errors));
  return ok({ steps: steps.value, env });
}

function invalidSteps(code: FieldError['code'], message: string) {
  return validationFailed([{ field: 'steps', code, message }]);
}

function commandStep(fields: Pick<CommandStep, 'id' | 'label' | 'command'>): CommandStep {
  return {
    type: 'command',
    key: null,
    env: {},
    agentQueryRules: [],
    softFail: false,
    parallelism: null,
    retry: null,
    artifactPaths: null,
    ...fields,
  };
}

function isGroup(raw: unknown): raw is Record<string, unknown> {
  return isJsonObject(raw) && (raw.type === 'group' || (raw.type === undefined && 'group' in raw));
}

/** A group's steps, each with the group's filters besides its own; a group holds no group. */
function parseGroup(
  raw: Record<string, unknown>,
  problems: string[],
  newStepId: () => string,
  regex: RegexEngine,
): (StepDefinition | null)[] {
  readLabel(raw.group ?? raw.label ?? raw.name, problems);
  const filters = readFilters(raw, problems, regex);
  const groupKey = typeof raw.key === 'string' && raw.key.trim() ? raw.key.trim() : newStepId();
  if (!Array.isArray(raw.steps) || raw.steps.length === 0) {
    problems.push('a group must have a non-empty list of steps');
    return [null];
  }
  return raw.steps.map((inner, index) => {
    if (isGroup(inner)) {
      problems.push(`group step ${index + 1}: a group cannot hold another group`);
      return null;
    }
    const step = parseStep(inner, problems, newStepId, regex);
    if (!step) return null;
    const branches = both(filters.branches, step.branches, (a, b) => `${a} ${b}`);
    const condition = both(filters.condition, step.condition, (a, b) => `(${a}) && (${b})`);
    return { ...step, groupKey, ...(branches ? { branches } : {}), ...(condition ? { condition } : {}) };
  });
}

const both = (
  outer: string | null | undefined,
  inner: string | null | undefined,
  join: (a: string, b: string) => string,
) => (outer && inner ? join(outer, inner) : (outer ?? inner ?? null));

/**
 * `branches` (a string or list of patterns) and `if` (checked here, evaluated when a build makes its
 * jobs). A group's and its step's branches are both listed: the public rule that a step runs only where
 * both match holds when neither has exclusions.
 */
function readFilters(raw: Record<string, unknown>, problems: string[], regex: RegexEngine): StepFilters {
  let branches: string | null = null;
  if (typeof raw.branches === 'string') branches = raw.branches.trim() || null;
  else if (Array.isArray(raw.branches) && raw.branches.every((branch) => typeof branch === 'string'))
    branches = raw.branches.join(' ').trim() || null;
  else if (raw.branches !== undefined && raw.branches !== null)
    problems.push('branches must be a string or a list of strings');
  let condition: string | null = null;
  if (typeof raw.if === 'string') {
    const parsed = parseCondition(raw.if, regex);
    if (parsed.ok) condition = raw.if;
    else problems.push(`if: ${parsed.error}`);
  } else if (raw.if !== undefined && raw.if !== null) {
    problems.push('if must be a string');
  }
  // Left out when absent: stored steps stay as they were before filters existed.
  return { ...(branches ? { branches } : {}), ...(condition ? { condition } : {}) };
}

/** A step, or null when the step's kind is unknown; every problem found is pushed to `problems`. */
function parseStep(
  raw: unknown,
  problems: string[],
  newStepId: () => string,
  regex: RegexEngine,
): StepDefinition | null {
  if (raw === 'wait') return { type: 'wait', id: newStepId(), key: null, continueOnFailure: false };
  if (typeof raw === 'string') {
    if (raw.trim() !== '') return commandStep({ id: newStepId(), label: null, command: raw });
    problems.push('a step cannot be an empty string');
    return null;
  }
  if (!isJsonObject(raw)) {
    problems.push(EXPECTED_STEP);
    return null;
  }
  switch (stepType(raw)) {
    case 'command':
      return parseCommandStep(raw, problems, newStepId(), regex);
    case 'wait':
      return parseWaitStep(raw, problems, newStepId(), regex);
    case 'block':
      return parseBlockStep(raw, problems, newStepId(), regex);
    case 'trigger':
      return parseTriggerStep(raw, problems, newStepId(), regex);
    default:
      problems.push(EXPECTED_STEP);
      return null;
  }
}

const EXPECTED_STEP = 'expected a command, wait, block, trigger or group step';

function stepType(raw: Record<string, unknown>): StepDefinition['type'] | null {
  switch (raw.type) {
    case 'command':
    case 'script':
      return 'command';
    case 'wait':
    case 'waiter':
      return 'wait';
    case 'block':
    case 'manual':
      return 'block';
    case 'trigger':
      return 'trigger';
    case undefined:
      if ('wait' in raw) return 'wait';
      if ('block' in raw) return 'block';
      if ('trigger' in raw) return 'trigger';
      if ('command' in raw || 'commands' in raw) return 'command';
      return null;
    default:
      return null;
  }
}

function parseCommandStep(
  raw: Record<string, unknown>,
  problems: string[],
  id: string,
  regex: RegexEngine,
): CommandStep {
  return {
    ...readFilters(raw, problems, regex),
    ...readMatrix(raw.matrix, problems),
    ...readTimeout(raw.timeout_in_minutes, problems),
    ...readConcurrency(raw, problems),
    type: 'command',
    id,
    key: readKey(raw, problems),
    label: readLabel(raw.label ?? raw.name, problems),
    command: readCommand(raw.commands ?? raw.command, problems),
    env: readEnv(raw.env, problems),
    // `agent_query_rules` is the name the API's legacy step objects use.
    agentQueryRules: readAgents(raw.agents ?? raw.agent_query_rules, problems),
    softFail: readSoftFail(raw.soft_fail, problems),
    parallelism: readParallelism(raw.parallelism, problems),
    retry: readRetry(raw.retry, problems),
    artifactPaths: readArtifactPaths(raw.artifact_paths, problems),
  };
}

function parseWaitStep(
  raw: Record<string, unknown>,
  problems: string[],
  id: string,
  regex: RegexEngine,
): WaitStep {
  const continueOnFailure = raw.continue_on_failure ?? false;
  if (typeof continueOnFailure !== 'boolean') problems.push('continue_on_failure must be true or false');
  return {
    ...readFilters(raw, problems, regex),
    type: 'wait',
    id,
    key: readKey(raw, problems),
    continueOnFailure: continueOnFailure === true,
  };
}

function parseBlockStep(
  raw: Record<string, unknown>,
  problems: string[],
  id: string,
  regex: RegexEngine,
): BlockStep {
  const label = readLabel(raw.block ?? raw.label ?? raw.name, problems);
  const fields = readBlockFields(raw.fields, problems);
  return {
    ...readFilters(raw, problems, regex),
    type: 'block',
    id,
    key: readKey(raw, problems),
    label,
    ...(fields.length > 0 ? { fields } : {}),
  };
}

/** What a pipeline's slug may look like; whether one exists is decided when the step runs. */
const PIPELINE_SLUG = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,254}$/;

/**
 * `trigger: <pipeline slug>` with `label`, `async` and `build: {message, commit, branch, meta_data, env}`;
 * what `build` leaves out is decided when the build is made.
 */
function parseTriggerStep(
  raw: Record<string, unknown>,
  problems: string[],
  id: string,
  regex: RegexEngine,
): TriggerStep {
  // The API's legacy step objects name the same fields `trigger_project_slug`, `trigger_async`, ….
  const target = raw.trigger ?? raw.trigger_project_slug;
  const pipeline = typeof target === 'string' ? target.trim() : '';
  if (!PIPELINE_SLUG.test(pipeline)) problems.push("trigger must be a pipeline's slug");
  const async = raw.async ?? raw.trigger_async ?? false;
  if (typeof async !== 'boolean') problems.push('async must be true or false');
  const build =
    raw.build ??
    (raw.trigger_commit !== undefined || raw.trigger_branch !== undefined
      ? { commit: raw.trigger_commit, branch: raw.trigger_branch }
      : {});
  if (!isJsonObject(build)) problems.push('build must be an object');
  const fields = isJsonObject(build) ? build : {};
  const text = (name: string) => {
    const value = fields[name];
    if (value === undefined || value === null) return null;
    if (typeof value === 'string' && value.trim() !== '') return value;
    problems.push(`build.${name} must be a non-empty string`);
    return null;
  };
  return {
    ...readFilters(raw, problems, regex),
    type: 'trigger',
    id,
    key: readKey(raw, problems),
    label: readLabel(raw.label ?? raw.name, problems),
    pipeline,
    async: async === true,
    build: {
      message: text('message'),
      commit: text('commit'),
      branch: text('branch'),
      metaData: readEnv(fields.meta_data, problems, 'build.meta_data'),
      env: readEnv(fields.env, problems, 'build.env'),
    },
  };
}

export const MAX_CONCURRENCY = 1000;
const MAX_CONCURRENCY_GROUP_LENGTH = 255;

/** `{ concurrency }` from `concurrency` and `concurrency_group`, which go together; nothing without them. */
function readConcurrency(raw: Record<string, unknown>, problems: string[]): Pick<CommandStep, 'concurrency'> {
  const limit = raw.concurrency;
  const group = raw.concurrency_group;
  if ((limit === undefined || limit === null) && (group === undefined || group === null)) return {};
  const limitOk =
    Number.isSafeInteger(limit) && (limit as number) >= 1 && (limit as number) <= MAX_CONCURRENCY;
  if (!limitOk) problems.push(`concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}`);
  const groupOk =
    typeof group === 'string' && group.trim() !== '' && group.length <= MAX_CONCURRENCY_GROUP_LENGTH;
  if (!groupOk) {
    problems.push(
      `concurrency_group must be a non-empty string of at most ${MAX_CONCURRENCY_GROUP_LENGTH} characters (concurrency needs one)`,
    );
  }
  return limitOk && groupOk
    ? { concurrency: { limit: limit as number, group: (group as string).trim() } }
    : {};
}

/** `{ timeoutInMinutes }`, or nothing when the step has none. */
function readTimeout(value: unknown, problems: string[]): Pick<CommandStep, 'timeoutInMinutes'> {
  if (value === undefined || value === null) return {};
  if (Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_TIMEOUT_IN_MINUTES)
    return { timeoutInMinutes: value as number };
  problems.push(`timeout_in_minutes must be a whole number of minutes from 1 to ${MAX_TIMEOUT_IN_MINUTES}`);
  return {};
}

/** `{ matrix }`, or nothing when the step has none (stored steps stay as they were before it). */
function readMatrix(value: unknown, problems: string[]): Pick<CommandStep, 'matrix'> {
  if (value === undefined || value === null) return {};
  const matrix = parseMatrix(value);
  if (matrix.ok) return { matrix: matrix.value };
  problems.push(matrix.error);
  return {};
}

function readKey(raw: Record<string, unknown>, problems: string[]): string | null {
  const key = raw.key ?? raw.identifier;
  if (key === undefined || key === null) return null;
  if (typeof key === 'string' && key.trim() !== '') return key;
  problems.push('key must be a non-empty string');
  return null;
}

function readLabel(value: unknown, problems: string[]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  problems.push('label must be a string');
  return null;
}

function readCommand(value: unknown, problems: string[]): string {
  const command =
    Array.isArray(value) && value.every((line) => typeof line === 'string') ? value.join('\n') : value;
  if (typeof command === 'string' && command.trim() !== '') return command;
  problems.push('command must be a non-empty string or list of strings');
  return '';
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** YAML turns `FOO: 1` into a number; environment values are strings, so scalars are written as text. */
function readEnv(value: unknown, problems: string[], name = 'env'): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (isJsonObject(value) && Object.values(value).every(isScalar)) {
    return Object.fromEntries(Object.entries(value).map(([name, v]) => [name, String(v)]));
  }
  problems.push(`${name} must map names to strings`);
  return {};
}

/** `{ queue: 'deploy' }` and `['queue=deploy']` both give the rule `queue=deploy`. */
function readAgents(value: unknown, problems: string[]): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value) && value.every((rule) => typeof rule === 'string')) return value;
  if (isJsonObject(value) && Object.values(value).every(isScalar)) {
    return Object.entries(value).map(([tag, v]) => `${tag}=${String(v)}`);
  }
  problems.push('agents must be a map of tags or a list of "tag=value" strings');
  return [];
}

/** A list of exit statuses only narrows when a failure is soft; the step is still soft-failing. */
function readSoftFail(value: unknown, problems: string[]): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'boolean') return value;
  const isExitStatus = (entry: unknown) =>
    isJsonObject(entry) && (entry.exit_status === '*' || Number.isInteger(entry.exit_status));
  if (Array.isArray(value) && value.every(isExitStatus)) return value.length > 0;
  problems.push('soft_fail must be true, false or a list of { exit_status }');
  return false;
}

function readParallelism(value: unknown, problems: string[]): number | null {
  if (value === undefined || value === null) return null;
  if (
    typeof value === 'number' &&
    Number.isSafeInteger(value) &&
    value >= 1 &&
    value <= MAX_STEP_PARALLELISM
  ) {
    return value;
  }
  problems.push(`parallelism must be a positive integer up to ${MAX_STEP_PARALLELISM}`);
  return null;
}

function readRetry(value: unknown, problems: string[]): CommandStep['retry'] {
  if (value === undefined || value === null) return null;
  if (!isJsonObject(value)) {
    problems.push('retry must be an object');
    return null;
  }
  const rules = Array.isArray(value.automatic) ? value.automatic : [value.automatic];
  const limits = rules.map(automaticRetryLimit);
  if (limits.some((limit) => limit === undefined)) {
    problems.push(
      `retry.automatic must be true, false, a limit up to ${MAX_AUTOMATIC_RETRY_LIMIT} or { limit }`,
    );
    return null;
  }
  const enabled = limits.filter((limit): limit is number => limit !== null);
  return { automatic: enabled.length > 0 ? Math.max(...enabled) : null };
}

/** null: no automatic retry; undefined: not a valid rule. */
function automaticRetryLimit(rule: unknown): number | null | undefined {
  if (rule === undefined || rule === null || rule === false) return null;
  if (rule === true) return DEFAULT_AUTOMATIC_RETRY_LIMIT;
  const limit = isJsonObject(rule) ? (rule.limit ?? DEFAULT_AUTOMATIC_RETRY_LIMIT) : rule;
  const valid = typeof limit === 'number' && Number.isInteger(limit) && limit >= 0;
  return valid && limit <= MAX_AUTOMATIC_RETRY_LIMIT ? limit : undefined;
}

function readArtifactPaths(value: unknown, problems: string[]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((path) => typeof path === 'string')) return value.join(';');
  problems.push('artifact_paths must be a string or a list of strings');
  return null;
}
