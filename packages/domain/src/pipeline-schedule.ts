import { readOptionalText } from './body-fields';
import type { BuildRequest } from './build-input';
import type { Pipeline } from './entities';
import { DomainError, type FieldError } from './errors';
import { isJsonObject } from './json-object';
import { err, ok, type Result } from './result';
import { isStorableText, UNSTORABLE_TEXT } from './storable-text';

/** A pipeline schedule: builds of its pipeline at the times its cronline names. */
export interface PipelineSchedule extends PipelineScheduleFields {
  id: string;
  pipelineId: string;
  /** The tick the next build is for; null while disabled. */
  nextBuildAt: Date | null;
  /** When and why its last tick made no build; cleared by a tick that makes one. */
  failedAt: Date | null;
  failedMessage: string | null;
  createdAt: Date;
  createdById: string | null;
}

export const PIPELINE_SCHEDULE_LIMITS = {
  label: 255,
  cronline: 255,
  branch: 255,
  commit: 255,
  message: 10_000,
  envEntries: 100,
  envName: 255,
  envValue: 10_000,
} as const;

export const SCHEDULED_BUILD_MESSAGE = 'Scheduled build';

/** The nicknames cron has always had; `@midnight` is `@daily`. */
export const CRON_NICKNAMES = [
  '@yearly',
  '@annually',
  '@monthly',
  '@weekly',
  '@daily',
  '@midnight',
  '@hourly',
] as const;

/** A cronline split into the cron expression and the time zone its times are read in. */
export interface Cronline {
  expression: string;
  timezone: string;
}

/** Whether the runtime knows this IANA time zone (`Europe/London`, `UTC`). */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * Splits a cronline: five fields (minute hour day-of-month month day-of-week) or a nickname, then an
 * optional time zone (UTC when none), as the public service's schedules read them. Seconds and years are
 * not cron's and are refused. Only the shape is checked here; the fields' values by the cron parser.
 */
export function splitCronline(text: string): Result<Cronline, string> {
  const parts = text.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return err("can't be blank");
  const fieldCount = parts[0]?.startsWith('@') ? 1 : 5;
  if (fieldCount === 1 && !(CRON_NICKNAMES as readonly string[]).includes(parts[0]?.toLowerCase() ?? '')) {
    return err(`${parts[0]} is not one of ${CRON_NICKNAMES.join(', ')}`);
  }
  if (parts.length < fieldCount) return err(`needs ${fieldCount} fields, has ${parts.length}`);
  if (parts.length > fieldCount + 1) return err(`has ${parts.length} fields; at most ${fieldCount + 1}`);
  const timezone = parts[fieldCount] ?? 'UTC';
  if (!isTimeZone(timezone)) return err(`${timezone} is not a known time zone`);
  const expression = parts.slice(0, fieldCount).join(' ');
  return ok({ expression: fieldCount === 1 ? expression.toLowerCase() : expression, timezone });
}

/**
 * The cron parser's verdict on a split cronline: null when it has a next time, else why not. Given by the
 * caller: the arithmetic of cron is a library's (application), the domain takes no package.
 */
export type CronCheck = (cronline: Cronline) => string | null;

/** What a schedule's creator chooses (and an update may change). */
export interface PipelineScheduleFields {
  label: string;
  /** a 5-field cron expression or a nickname (`@daily`), optionally followed by an IANA time zone */
  cronline: string;
  /** What its builds carry; null: the pipeline's default branch, `HEAD`, `Scheduled build`. */
  branch: string | null;
  commit: string | null;
  message: string | null;
  env: Record<string, string>;
  enabled: boolean;
}

/**
 * Reads a create (`partial` false) or update body: `label` and `cronline` (both required to create),
 * `branch`, `commit`, `message`, `env` (an object of strings), `enabled` (true unless said). Every invalid
 * field is reported at once (422), its problem named in the message.
 */
export function parsePipelineScheduleRequest(
  body: unknown,
  options: { partial: boolean; checkCron: CronCheck },
): Result<Partial<PipelineScheduleFields>> {
  const input = isJsonObject(body) ? body : {};
  const errors: FieldError[] = [];
  const fields: Partial<PipelineScheduleFields> = {};
  const { partial } = options;
  const readText = (field: string, max: number): string | null | undefined => {
    const read = readOptionalText(input[field], field, max);
    if (read.ok) return read.value;
    errors.push(read.error);
    return undefined;
  };
  const label = readText('label', PIPELINE_SCHEDULE_LIMITS.label);
  if (label === null || (label === undefined && !partial && input.label === undefined)) {
    errors.push({ field: 'label', code: 'missing', message: "label can't be blank" });
  } else if (label !== undefined) fields.label = label;
  const cronline = readText('cronline', PIPELINE_SCHEDULE_LIMITS.cronline);
  if (cronline === null || (cronline === undefined && !partial && input.cronline === undefined)) {
    errors.push({ field: 'cronline', code: 'missing', message: "cronline can't be blank" });
  } else if (cronline !== undefined) {
    const split = splitCronline(cronline);
    const problem = split.ok ? options.checkCron(split.value) : split.error;
    if (problem) {
      errors.push({
        field: 'cronline',
        code: 'invalid',
        message: `cronline "${cronline}" is not a valid cron expression: ${problem}`,
      });
    } else fields.cronline = cronline.trim().replace(/\s+/g, ' ');
  }
  for (const [key, max] of [
    ['branch', PIPELINE_SCHEDULE_LIMITS.branch],
    ['commit', PIPELINE_SCHEDULE_LIMITS.commit],
    ['message', PIPELINE_SCHEDULE_LIMITS.message],
  ] as const) {
    const value = readText(key, max);
    if (value !== undefined) fields[key] = value;
    else if (!partial && input[key] === undefined) fields[key] = null;
  }
  if (input.env !== undefined) {
    const env = parseScheduleEnv(input.env);
    if (env.ok) fields.env = env.value;
    else errors.push({ field: 'env', code: 'invalid', message: env.error });
  } else if (!partial) fields.env = {};
  if (input.enabled !== undefined) {
    if (typeof input.enabled === 'boolean') fields.enabled = input.enabled;
    else errors.push({ field: 'enabled', code: 'invalid', message: 'enabled must be true or false' });
  } else if (!partial) fields.enabled = true;
  if (errors.length > 0) {
    return err(
      new DomainError({
        kind: 'unprocessable',
        code: 'validation_failed',
        message: `Validation Failed: ${errors.map((error) => error.message).join('; ')}`,
        details: { errors },
      }),
    );
  }
  return ok(fields);
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A schedule's env: an object of strings (null: none), names as a shell's. */
export function parseScheduleEnv(value: unknown): Result<Record<string, string>, string> {
  if (value === null) return ok({});
  if (!isJsonObject(value)) return err('env must be an object of strings');
  const entries = Object.entries(value);
  if (entries.length > PIPELINE_SCHEDULE_LIMITS.envEntries) {
    return err(`env has more than ${PIPELINE_SCHEDULE_LIMITS.envEntries} variables`);
  }
  // Entries, then one object: a name such as `__proto__` is kept as a variable, never set as a prototype.
  const env: [string, string][] = [];
  for (const [name, text] of entries) {
    if (typeof text !== 'string') return err(`env.${name} must be a string`);
    if (!ENV_NAME.test(name) || name.length > PIPELINE_SCHEDULE_LIMITS.envName) {
      return err(`env name ${JSON.stringify(name)} must be letters, digits and _, not starting with a digit`);
    }
    if (!isStorableText(text)) return err(`env.${name} ${UNSTORABLE_TEXT}`);
    if (text.length > PIPELINE_SCHEDULE_LIMITS.envValue) {
      return err(`env.${name} is too long (maximum is ${PIPELINE_SCHEDULE_LIMITS.envValue} characters)`);
    }
    env.push([name, text]);
  }
  return ok(Object.fromEntries(env));
}

/**
 * The public GraphQL form of env: `KEY=value` lines (blank lines skipped, the first `=` splits) into the
 * object the rest of the service keeps. A line without `=` is refused.
 */
export function envFromLines(text: string): Result<Record<string, string>, string> {
  const env: [string, string][] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const at = line.indexOf('=');
    if (at <= 0) return err(`env line ${JSON.stringify(line)} is not KEY=value`);
    env.push([line.slice(0, at).trim(), line.slice(at + 1)]);
  }
  return parseScheduleEnv(Object.fromEntries(env));
}

/** The build a schedule's tick creates: its fields, else the pipeline's default branch, `HEAD`, a message. */
export function pipelineScheduleBuildRequest(
  schedule: Pick<PipelineSchedule, 'branch' | 'commit' | 'message' | 'env'>,
  pipeline: Pick<Pipeline, 'defaultBranch'>,
): Omit<BuildRequest, 'ignorePipelineBranchFilters'> {
  return {
    commit: schedule.commit ?? 'HEAD',
    branch: schedule.branch ?? pipeline.defaultBranch ?? 'main',
    message: schedule.message ?? SCHEDULED_BUILD_MESSAGE,
    author: null,
    cleanCheckout: false,
    env: { ...schedule.env },
    metaData: {},
    pullRequest: null,
  };
}

/** The public `pipelineSchedule(slug:)` form: `organization/pipeline/schedule-uuid`. */
export function parsePipelineScheduleSlug(
  slug: string,
): { organization: string; pipeline: string; schedule: string } | null {
  const parts = slug.split('/');
  if (parts.length !== 3 || parts.some((part) => part === '')) return null;
  const [organization = '', pipeline = '', schedule = ''] = parts;
  return { organization, pipeline, schedule };
}

export const pipelineScheduleErrors = {
  notFound: () =>
    new DomainError({
      kind: 'not_found',
      code: 'pipeline_schedule_not_found',
      message: 'Pipeline schedule not found',
    }),
} as const;
