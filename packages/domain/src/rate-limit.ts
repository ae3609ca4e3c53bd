import { DomainError } from './errors';

/**
 * API rate limits, as the public REST API has them: a number of requests per organization and per
 * user in fixed one-minute windows. Every request counts, refused ones included, so `current` can
 * pass `limit` (the public 429 example shows `"limit": 50, "current": 55`).
 */

export const RATE_LIMIT_WINDOW_MS = 60_000;

/** Requests allowed in one window. */
export interface RateLimitPolicy {
  organizationPerMinute: number;
  userPerMinute: number;
  /**
   * Requests whose token was refused (missing, unknown, expired, revoked) allowed per client address;
   * `DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE` when absent. Ours: the public API says nothing of them.
   */
  failedAuthenticationsPerMinute?: number;
}

/** The public API's defaults: 200 per organization, 50 per user. */
export const DEFAULT_RATE_LIMIT_POLICY: RateLimitPolicy = { organizationPerMinute: 200, userPerMinute: 50 };

export const DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE = 30;

/**
 * The 429 body's `scope`: `rest` for the organization (as the public rate-limit endpoint names it),
 * `rest_user`; `failed_authentication` (ours) for a client address's refused tokens.
 */
export type RateLimitScope = 'rest' | 'rest_user' | 'failed_authentication';

export interface RateLimitWindow {
  /** the window's first millisecond: windows start on the minute (UTC) */
  start: Date;
  /** whole seconds until the next window starts, 1 to 60 */
  resetSeconds: number;
}

/** The window that `now` falls in. */
export function rateLimitWindow(now: Date): RateLimitWindow {
  const ms = now.getTime();
  const start = Math.floor(ms / RATE_LIMIT_WINDOW_MS) * RATE_LIMIT_WINDOW_MS;
  return {
    start: new Date(start),
    resetSeconds: Math.ceil((start + RATE_LIMIT_WINDOW_MS - ms) / 1000),
  };
}

/** One counter as clients see it (the `RateLimit-*` headers and the 429 body). */
export interface RateLimitCounter {
  limit: number;
  /** requests counted in this window, this one included */
  current: number;
  remaining: number;
  /** seconds until the window resets */
  reset: number;
}

export interface RateLimitStatus {
  /** null when the request counted against no organization (none named, or none the caller belongs to) */
  organization: RateLimitCounter | null;
  user: RateLimitCounter;
  /** the refusal to answer when a counter went past its limit, else null */
  exceeded: DomainError | null;
}

function counter(limit: number, current: number, reset: number): RateLimitCounter {
  return { limit, current, remaining: Math.max(0, limit - current), reset };
}

const RATE_LIMITED_CODE: Record<RateLimitScope, string> = {
  rest: 'organization_rate_limited',
  rest_user: 'user_rate_limited',
  failed_authentication: 'authentication_rate_limited',
};

export function rateLimitExceeded(scope: RateLimitScope, counted: RateLimitCounter): DomainError {
  const wait = `${counted.reset} second${counted.reset === 1 ? '' : 's'}`;
  return new DomainError({
    kind: 'rate_limited',
    code: RATE_LIMITED_CODE[scope],
    message: `You have exceeded your API rate limit. Please wait ${wait} before making more requests.`,
    fields: { scope, limit: counted.limit, current: counted.current, reset: counted.reset },
  });
}

/**
 * What a request's counts mean under a policy. A request past both limits is refused for the
 * organization's: it says more (nobody in the organization gets through until the reset).
 */
export function rateLimitStatus(input: {
  policy: RateLimitPolicy;
  window: RateLimitWindow;
  counts: { organization: number | null; user: number };
}): RateLimitStatus {
  const reset = input.window.resetSeconds;
  const organization =
    input.counts.organization === null
      ? null
      : counter(input.policy.organizationPerMinute, input.counts.organization, reset);
  const user = counter(input.policy.userPerMinute, input.counts.user, reset);
  let exceeded: DomainError | null = null;
  if (organization && organization.current > organization.limit)
    exceeded = rateLimitExceeded('rest', organization);
  else if (user.current > user.limit) exceeded = rateLimitExceeded('rest_user', user);
  return { organization, user, exceeded };
}

/** Where a client address stands with its refused tokens in this window. */
export interface FailedAuthenticationStatus {
  address: RateLimitCounter;
  /** the 429 to answer instead of the 401, once the address is past its limit */
  exceeded: DomainError | null;
}

/** What a client address's count of refused tokens (this one included) means under a policy. */
export function failedAuthenticationStatus(input: {
  policy: RateLimitPolicy;
  window: RateLimitWindow;
  count: number;
}): FailedAuthenticationStatus {
  const limit = input.policy.failedAuthenticationsPerMinute ?? DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE;
  const address = counter(limit, input.count, input.window.resetSeconds);
  return {
    address,
    exceeded: address.current > limit ? rateLimitExceeded('failed_authentication', address) : null,
  };
}
