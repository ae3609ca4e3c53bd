import type { FailedAuthenticationStatus, RateLimitCounter, RateLimitStatus } from './rate-limit';

/**
 * The public API's rate-limit headers: `RateLimit-*` for the organization, `RateLimit-User-*` for the
 * user; `Reset` is the seconds until the window resets. Listed by name for CORS (which takes no wildcards).
 */
export const ORGANIZATION_RATE_LIMIT_HEADERS = [
  'RateLimit-Remaining',
  'RateLimit-Limit',
  'RateLimit-Reset',
] as const;
export const USER_RATE_LIMIT_HEADERS = [
  'RateLimit-User-Remaining',
  'RateLimit-User-Limit',
  'RateLimit-User-Reset',
] as const;
export const RATE_LIMIT_HEADERS = [...ORGANIZATION_RATE_LIMIT_HEADERS, ...USER_RATE_LIMIT_HEADERS] as const;

const counterHeaders = (prefix: string, counter: RateLimitCounter): Record<string, string> => ({
  [`${prefix}-Remaining`]: String(counter.remaining),
  [`${prefix}-Limit`]: String(counter.limit),
  [`${prefix}-Reset`]: String(counter.reset),
});

/** The headers of a counted request; a refused one also says when to retry (`Retry-After`, seconds). */
export function rateLimitHeaders(status: RateLimitStatus): Record<string, string> {
  return {
    ...(status.organization ? counterHeaders('RateLimit', status.organization) : {}),
    ...counterHeaders('RateLimit-User', status.user),
    ...(status.exceeded ? { 'Retry-After': String(status.user.reset) } : {}),
  };
}

/**
 * The headers of a refused token counted against its client address: the organization's names
 * (`RateLimit-*`), since no user or organization is known; `Retry-After` once past the limit.
 */
export function failedAuthenticationHeaders(status: FailedAuthenticationStatus): Record<string, string> {
  return {
    ...counterHeaders('RateLimit', status.address),
    ...(status.exceeded ? { 'Retry-After': String(status.address.reset) } : {}),
  };
}
