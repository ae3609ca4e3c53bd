import { readOptionalText } from './body-fields';
import type { BuildRequest } from './build-input';
import type { Pipeline } from './entities';
import { DomainError, type FieldError, validationFailed } from './errors';
import { isJsonObject } from './json-object';
import { err, ok, type Result } from './result';

/** A pipeline trigger: a URL that creates a build of its pipeline from any JSON POST. */
export interface PipelineTrigger extends PipelineTriggerFields {
  id: string;
  pipelineId: string;
  /** SHA-256 (hex) of the secret URL token; the token itself is shown once, when made */
  tokenHash: string;
  createdAt: Date;
  createdById: string | null;
}

/** The types the public API names; this service makes generic webhook triggers only. */
export const PIPELINE_TRIGGER_TYPES = ['webhook'] as const;

/** `bktr_` and 40 letters or digits: the form the public service's trigger URLs end in. */
const TRIGGER_TOKEN = /^bktr_[A-Za-z0-9]{40}$/;
export const PIPELINE_TRIGGER_TOKEN_PREFIX = 'bktr_';

/** Whether a URL's last part is a pipeline trigger's token at all (else 400 `Invalid pipeline trigger token`). */
export function isPipelineTriggerToken(token: string): boolean {
  return TRIGGER_TOKEN.test(token);
}

/** The meta-data key that keeps the JSON a trigger received, as the public service's. */
export const TRIGGER_PAYLOAD_META_DATA_KEY = 'buildkite:webhook';

export const PIPELINE_TRIGGER_LIMITS = { label: 255, branch: 255, commit: 255, message: 10_000 } as const;

/** What a trigger's creator chooses (and an update may change). */
export interface PipelineTriggerFields {
  label: string;
  enabled: boolean;
  /** What the builds it creates carry; null: the pipeline's default branch, `HEAD`, a message of ours. */
  branch: string | null;
  commit: string | null;
  message: string | null;
}

/**
 * Reads a create (`partial` false) or update body: `label`, `enabled`, and `build` `{branch, commit,
 * message}`; `type` must be `webhook` when given. Every invalid field is reported at once (422).
 */
export function parsePipelineTriggerRequest(
  body: unknown,
  partial: boolean,
): Result<Partial<PipelineTriggerFields>> {
  const input = isJsonObject(body) ? body : {};
  const errors: FieldError[] = [];
  const fields: Partial<PipelineTriggerFields> = {};
  const readText = (value: unknown, field: string, max: number): string | null | undefined => {
    const read = readOptionalText(value, field, max);
    if (read.ok) return read.value;
    errors.push(read.error);
    return undefined;
  };
  if (input.type !== undefined && input.type !== 'webhook') {
    errors.push({ field: 'type', code: 'invalid', message: 'type must be webhook' });
  }
  const label = readText(input.label, 'label', PIPELINE_TRIGGER_LIMITS.label);
  if (label !== undefined) fields.label = label ?? 'Webhook';
  else if (!partial) fields.label = 'Webhook';
  if (input.enabled !== undefined) {
    if (typeof input.enabled === 'boolean') fields.enabled = input.enabled;
    else errors.push({ field: 'enabled', code: 'invalid', message: 'enabled must be true or false' });
  } else if (!partial) fields.enabled = true;
  if (input.build !== undefined && input.build !== null && !isJsonObject(input.build)) {
    errors.push({ field: 'build', code: 'invalid', message: 'build must be an object' });
  }
  const build = isJsonObject(input.build) ? input.build : {};
  for (const [key, max] of [
    ['branch', PIPELINE_TRIGGER_LIMITS.branch],
    ['commit', PIPELINE_TRIGGER_LIMITS.commit],
    ['message', PIPELINE_TRIGGER_LIMITS.message],
  ] as const) {
    const value = readText(build[key], `build.${key}`, max);
    if (value !== undefined) fields[key] = value;
    else if (!partial) fields[key] = null;
  }
  return errors.length > 0 ? err(validationFailed(errors)) : ok(fields);
}

/**
 * The build a trigger's delivery creates: the trigger's branch, commit and message (else the pipeline's
 * default branch, `HEAD` and a message naming the trigger), and the JSON received as meta-data
 * `buildkite:webhook`.
 */
export function pipelineTriggerBuildRequest(
  trigger: Pick<PipelineTrigger, 'label' | 'branch' | 'commit' | 'message'>,
  pipeline: Pick<Pipeline, 'defaultBranch'>,
  payloadText: string,
): Omit<BuildRequest, 'ignorePipelineBranchFilters'> {
  return {
    commit: trigger.commit ?? 'HEAD',
    branch: trigger.branch ?? pipeline.defaultBranch ?? 'main',
    message: trigger.message ?? `Triggered by ${trigger.label}`,
    author: null,
    cleanCheckout: false,
    env: {},
    metaData: { [TRIGGER_PAYLOAD_META_DATA_KEY]: payloadText },
    pullRequest: null,
  };
}

/** The public service's answers to a trigger URL that names no usable trigger. */
export const pipelineTriggerErrors = {
  invalidToken: () =>
    new DomainError({
      kind: 'bad_request',
      code: 'pipeline_trigger_token_invalid',
      message: 'Invalid pipeline trigger token',
    }),
  notFound: () =>
    new DomainError({
      kind: 'not_found',
      code: 'pipeline_trigger_not_found',
      message: 'Pipeline trigger not found',
    }),
  disabled: () =>
    new DomainError({
      kind: 'forbidden',
      code: 'pipeline_trigger_disabled',
      message: 'Pipeline trigger is disabled',
    }),
} as const;
