import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE,
  DEFAULT_RATE_LIMIT_POLICY,
  failedAuthenticationStatus,
  RATE_LIMIT_WINDOW_MS,
  rateLimitExceeded,
  rateLimitStatus,
  rateLimitWindow,
} from './rate-limit';

describe('rateLimitWindow', () => {
  it.each([
    ['the first millisecond of a minute', '2026-11-21T10:04:00.000Z', '2026-11-21T10:04:00.000Z', 60],
    ['one millisecond in', '2026-11-21T10:04:00.001Z', '2026-11-21T10:04:00.000Z', 60],
    ['one second in', '2026-11-21T10:04:01.000Z', '2026-11-21T10:04:00.000Z', 59],
    ['the middle', '2026-11-21T10:04:18.500Z', '2026-11-21T10:04:00.000Z', 42],
    ['the last second', '2026-11-21T10:04:59.000Z', '2026-11-21T10:04:00.000Z', 1],
    ['the last millisecond', '2026-11-21T10:04:59.999Z', '2026-11-21T10:04:00.000Z', 1],
    ['across midnight', '2026-12-31T23:59:30.000Z', '2026-12-31T23:59:00.000Z', 30],
  ])('puts %s in the window of its minute with the seconds left', (_, now, start, reset) => {
    expect(rateLimitWindow(new Date(now))).toEqual({ start: new Date(start), resetSeconds: reset });
  });

  it('starts every window on the minute, contains the instant and resets within 1 to 60 seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        const { start, resetSeconds } = rateLimitWindow(new Date(ms));
        expect(start.getTime() % RATE_LIMIT_WINDOW_MS).toBe(0);
        expect(start.getTime()).toBeLessThanOrEqual(ms);
        expect(ms).toBeLessThan(start.getTime() + RATE_LIMIT_WINDOW_MS);
        expect(resetSeconds).toBeGreaterThanOrEqual(1);
        expect(resetSeconds).toBeLessThanOrEqual(60);
        // The reset never promises a window earlier than the real one.
        expect(ms + resetSeconds * 1000).toBeGreaterThanOrEqual(start.getTime() + RATE_LIMIT_WINDOW_MS);
      }),
    );
  });
});

describe('rateLimitStatus', () => {
  const policy = { organizationPerMinute: 200, userPerMinute: 50 };
  const window = rateLimitWindow(new Date('2026-11-21T10:04:18.000Z'));

  it.each<[string, number | null, number, 'rest' | 'rest_user' | null]>([
    ['the first request', 1, 1, null],
    ['both at their limit', 200, 50, null],
    ['the organization one past', 201, 10, 'rest'],
    ['the user one past', 100, 51, 'rest_user'],
    ['both past: the organization decides', 250, 60, 'rest'],
    ['no organization, the user within', null, 50, null],
    ['no organization, the user past', null, 51, 'rest_user'],
  ])('with %s refuses for %s', (_, organization, user, scope) => {
    const status = rateLimitStatus({ policy, window, counts: { organization, user } });
    expect(status.exceeded?.fields?.scope ?? null).toBe(scope);
  });

  it('reports each counter with what is left, never below zero, and the seconds until the reset', () => {
    const status = rateLimitStatus({ policy, window, counts: { organization: 20, user: 55 } });
    expect(status.organization).toEqual({ limit: 200, current: 20, remaining: 180, reset: 42 });
    expect(status.user).toEqual({ limit: 50, current: 55, remaining: 0, reset: 42 });
  });

  it('has no organization counter when the request counted against none', () => {
    const status = rateLimitStatus({ policy, window, counts: { organization: null, user: 3 } });
    expect(status.organization).toBeNull();
    expect(status.user.remaining).toBe(47);
  });

  it('follows the public defaults: 200 per organization and 50 per user', () => {
    expect(DEFAULT_RATE_LIMIT_POLICY).toEqual({ organizationPerMinute: 200, userPerMinute: 50 });
  });
});

describe('rateLimitExceeded', () => {
  it('is a 429 whose body is the public example: message, scope, limit, current, reset', () => {
    const error = rateLimitExceeded('rest_user', { limit: 50, current: 55, remaining: 0, reset: 42 });
    expect(error.kind).toBe('rate_limited');
    expect(error.code).toBe('user_rate_limited');
    expect(error.message).toBe(
      'You have exceeded your API rate limit. Please wait 42 seconds before making more requests.',
    );
    expect(error.fields).toEqual({ scope: 'rest_user', limit: 50, current: 55, reset: 42 });
  });

  it('names the organization scope `rest` and says "1 second" when one is left', () => {
    const error = rateLimitExceeded('rest', { limit: 200, current: 201, remaining: 0, reset: 1 });
    expect(error.code).toBe('organization_rate_limited');
    expect(error.message).toBe(
      'You have exceeded your API rate limit. Please wait 1 second before making more requests.',
    );
    expect(error.fields).toEqual({ scope: 'rest', limit: 200, current: 201, reset: 1 });
  });
});

describe('failedAuthenticationStatus', () => {
  const window = rateLimitWindow(new Date('2026-11-21T10:04:18.000Z'));
  const policy = { organizationPerMinute: 200, userPerMinute: 50, failedAuthenticationsPerMinute: 3 };

  it.each([
    [1, 2, false],
    [3, 0, false],
    [4, 0, true],
    [9, 0, true],
  ])('after %i refused tokens has %i remaining, refused: %s', (count, remaining, refused) => {
    const status = failedAuthenticationStatus({ policy, window, count });
    expect(status.address).toEqual({ limit: 3, current: count, remaining, reset: 42 });
    expect(status.exceeded !== null).toBe(refused);
  });

  it('refuses past the limit with a 429 of scope failed_authentication', () => {
    const { exceeded } = failedAuthenticationStatus({ policy, window, count: 4 });
    expect(exceeded?.kind).toBe('rate_limited');
    expect(exceeded?.code).toBe('authentication_rate_limited');
    expect(exceeded?.fields).toEqual({ scope: 'failed_authentication', limit: 3, current: 4, reset: 42 });
  });

  it('takes the default limit when the policy names none', () => {
    const status = failedAuthenticationStatus({ policy: DEFAULT_RATE_LIMIT_POLICY, window, count: 1 });
    expect(status.address.limit).toBe(DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE);
  });
});
