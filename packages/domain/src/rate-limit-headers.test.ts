import { describe, expect, it } from 'vitest';
import { failedAuthenticationStatus, rateLimitStatus, rateLimitWindow } from './rate-limit';
import { failedAuthenticationHeaders, RATE_LIMIT_HEADERS, rateLimitHeaders } from './rate-limit-headers';

const policy = { organizationPerMinute: 200, userPerMinute: 50 };
const window = rateLimitWindow(new Date('2026-11-21T10:04:18.000Z'));
const headersFor = (organization: number | null, user: number) =>
  rateLimitHeaders(rateLimitStatus({ policy, window, counts: { organization, user } }));

describe('rateLimitHeaders', () => {
  it('gives the organization and the user counters under the public names', () => {
    expect(headersFor(20, 3)).toEqual({
      'RateLimit-Remaining': '180',
      'RateLimit-Limit': '200',
      'RateLimit-Reset': '42',
      'RateLimit-User-Remaining': '47',
      'RateLimit-User-Limit': '50',
      'RateLimit-User-Reset': '42',
    });
  });

  it('gives only the user headers when no organization was counted', () => {
    expect(Object.keys(headersFor(null, 3))).toEqual([
      'RateLimit-User-Remaining',
      'RateLimit-User-Limit',
      'RateLimit-User-Reset',
    ]);
  });

  it.each([
    ['the organization', 201, 3],
    ['the user', 20, 51],
  ])('adds Retry-After and a zero Remaining when %s is past its limit', (_, organization, user) => {
    const headers = headersFor(organization, user);
    expect(headers['Retry-After']).toBe('42');
    expect([headers['RateLimit-Remaining'], headers['RateLimit-User-Remaining']]).toContain('0');
  });

  it('lists every header it can send, for CORS', () => {
    expect(Object.keys(headersFor(20, 3)).sort()).toEqual([...RATE_LIMIT_HEADERS].sort());
  });
});

describe('failedAuthenticationHeaders', () => {
  const policy = { organizationPerMinute: 200, userPerMinute: 50, failedAuthenticationsPerMinute: 2 };
  const headersAfter = (count: number) =>
    failedAuthenticationHeaders(failedAuthenticationStatus({ policy, window, count }));

  it("counts the client address down in the organization's headers, with Retry-After once past", () => {
    expect(headersAfter(1)).toEqual({
      'RateLimit-Remaining': '1',
      'RateLimit-Limit': '2',
      'RateLimit-Reset': '42',
    });
    expect(headersAfter(3)).toEqual({
      'RateLimit-Remaining': '0',
      'RateLimit-Limit': '2',
      'RateLimit-Reset': '42',
      'Retry-After': '42',
    });
  });
});
