import { matchesBranchFilter } from './branch-filter';
import { type BuildState, isFinished } from './build-state';
import type { JobState } from './entities';
import { type DomainError, validationFailed } from './errors';
import { isFinishedJob } from './job-state';
import { err, ok, type Result } from './result';
import { isStorableText } from './storable-text';

/**
 * Notification services (outbound webhooks): an organization's receivers of the public service's events,
 * each with the events it wants, an optional pipeline and branch filter, and a token sent as
 * `X-Buildkite-Token` or used to sign the body (`X-Buildkite-Signature`).
 */
export const NOTIFICATION_EVENTS = [
  'ping',
  'build.scheduled',
  'build.running',
  'build.failing',
  'build.finished',
  'build.skipped',
  'job.scheduled',
  'job.started',
  'job.finished',
  'job.activated',
  'agent.connected',
  'agent.lost',
  'agent.disconnected',
  'agent.stopping',
  'agent.stopped',
  'package.created',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** How the token travels: as it is, or as the key of an HMAC-SHA256 signature of the body. */
export const TOKEN_MODES = ['token', 'signature'] as const;
export type TokenMode = (typeof TOKEN_MODES)[number];

export interface NotificationService {
  id: string;
  organizationId: string;
  description: string;
  url: string;
  events: NotificationEvent[];
  pipelineId: string | null;
  branchFilter: string | null;
  token: string;
  tokenMode: TokenMode;
  enabled: boolean;
  creatorId: string | null;
  createdAt: Date;
}

export const DELIVERY_STATES = ['pending', 'retrying', 'succeeded', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** One event for one service: the body as sent, and how its attempts went. */
export interface NotificationDelivery {
  id: string;
  serviceId: string;
  event: NotificationEvent;
  /** the transition (or ping) it reports: with the event, what makes a fan-out run twice make it once */
  eventId: string;
  requestBody: string;
  state: DeliveryState;
  attempts: number;
  responseStatus: number | null;
  error: string | null;
  durationMs: number | null;
  createdAt: Date;
  lastAttemptAt: Date | null;
}

/** How many deliveries of a service are kept (the newest). */
export const KEPT_DELIVERIES = 20;

/** A state change a trigger recorded in the transaction that made it (Migration20261127170000). */
export interface Transition {
  kind: 'build' | 'job' | 'agent';
  id: string;
  organizationId: string;
  state: string;
  /** null: the row was inserted */
  previous: string | null;
  eventId: string;
  at: string;
}

const AGENT_EVENTS: Record<string, NotificationEvent> = {
  connected: 'agent.connected',
  lost: 'agent.lost',
  disconnected: 'agent.disconnected',
  stopping: 'agent.stopping',
  stopped: 'agent.stopped',
};

/** The event a transition is, if it is one a service may want. */
export function notificationEventOf(transition: Pick<Transition, 'kind' | 'state' | 'previous'>) {
  const { kind, state, previous } = transition;
  if (kind === 'build') {
    if (state === 'scheduled') return previous === null ? 'build.scheduled' : null;
    if (state === 'running') return 'build.running';
    if (state === 'failing') return 'build.failing';
    if (state === 'skipped') return 'build.skipped';
    return isFinished(state as BuildState) ? 'build.finished' : null;
  }
  if (kind === 'job') {
    if (state === 'scheduled') return 'job.scheduled';
    if (state === 'running') return 'job.started';
    // A block step's job is activated when it is unblocked.
    if (state === 'unblocked' && previous === 'blocked') return 'job.activated';
    if (state === 'skipped' && previous === null) return null;
    return isFinishedJob(state as JobState) ? 'job.finished' : null;
  }
  return AGENT_EVENTS[state] ?? null;
}

/** Whether the service wants this event of a build in that pipeline on that branch (agents: no pipeline). */
export function serviceWants(
  service: Pick<NotificationService, 'enabled' | 'events' | 'pipelineId' | 'branchFilter'>,
  event: NotificationEvent,
  where: { pipelineId: string; branch: string } | null,
): boolean {
  if (!service.enabled || !service.events.includes(event)) return false;
  if (where === null) return event === 'ping' || event.startsWith('agent.') || service.pipelineId === null;
  if (service.pipelineId !== null && service.pipelineId !== where.pipelineId) return false;
  return service.branchFilter === null || matchesBranchFilter(service.branchFilter, where.branch);
}

/** The wait before the next attempt after attempt number `attempt` failed: doubling from `baseMs`. */
export function retryDelayMs(attempt: number, baseMs: number): number {
  return baseMs * 2 ** Math.max(0, attempt - 1);
}

export interface NotificationServiceInput {
  description?: unknown;
  url?: unknown;
  events?: unknown;
  branchFilter?: unknown;
  tokenMode?: unknown;
  enabled?: unknown;
}

export type NotificationServiceFields = Pick<
  NotificationService,
  'description' | 'url' | 'events' | 'branchFilter' | 'tokenMode' | 'enabled'
>;

const MAX_URL_LENGTH = 2048;

/** Whether `text` is an absolute http(s) URL with a host (where it may point is checked when sending). */
function isWebhookUrl(text: string): boolean {
  if (text.length > MAX_URL_LENGTH) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * A service's fields as sent: on create every one is read (with defaults), on update (`base` given) the
 * absent ones keep `base`'s value. A refusal names every wrong field.
 */
export function parseNotificationService(
  input: NotificationServiceInput,
  base?: NotificationServiceFields,
): Result<NotificationServiceFields, DomainError> {
  const errors: { field: string; code: 'missing' | 'invalid' | 'too_long'; message: string }[] = [];
  const url = input.url ?? base?.url;
  if (url === undefined || url === null || url === '') {
    errors.push({ field: 'url', code: 'missing', message: 'url is required' });
  } else if (typeof url !== 'string' || !isWebhookUrl(url)) {
    errors.push({ field: 'url', code: 'invalid', message: 'url must be an absolute http or https URL' });
  }
  const events = input.events ?? base?.events ?? ['build.finished'];
  const known = (event: unknown) => (NOTIFICATION_EVENTS as readonly unknown[]).includes(event);
  if (!Array.isArray(events) || events.length === 0 || !events.every(known)) {
    errors.push({
      field: 'events',
      code: 'invalid',
      message: `events must be a non-empty list of: ${NOTIFICATION_EVENTS.join(', ')}`,
    });
  }
  const description = input.description ?? base?.description ?? 'Webhook';
  if (typeof description !== 'string' || !isStorableText(description)) {
    errors.push({ field: 'description', code: 'invalid', message: 'description must be text' });
  } else if (description.length > 255) {
    errors.push({ field: 'description', code: 'too_long', message: 'description is too long' });
  }
  const branchFilter = input.branchFilter === undefined ? (base?.branchFilter ?? null) : input.branchFilter;
  if (branchFilter !== null && (typeof branchFilter !== 'string' || branchFilter.length > 255)) {
    errors.push({ field: 'branch_filter', code: 'invalid', message: 'branch_filter must be text' });
  }
  const tokenMode = input.tokenMode ?? base?.tokenMode ?? 'token';
  if (!(TOKEN_MODES as readonly unknown[]).includes(tokenMode)) {
    errors.push({ field: 'token_mode', code: 'invalid', message: 'token_mode must be token or signature' });
  }
  const enabled = input.enabled ?? base?.enabled ?? true;
  if (typeof enabled !== 'boolean') {
    errors.push({ field: 'enabled', code: 'invalid', message: 'enabled must be true or false' });
  }
  if (errors.length > 0) return err(validationFailed(errors));
  return ok({
    description: description as string,
    url: url as string,
    events: [...new Set(events as NotificationEvent[])],
    branchFilter: branchFilter === '' ? null : (branchFilter as string | null),
    tokenMode: tokenMode as TokenMode,
    enabled: enabled as boolean,
  });
}
