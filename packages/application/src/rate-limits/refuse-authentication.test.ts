import { unauthenticated } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Deps } from '../ports';
import { refuseAuthentication } from './refuse-authentication';

const POLICY = { organizationPerMinute: 200, userPerMinute: 50, failedAuthenticationsPerMinute: 2 };

/** Refused tokens counted in memory by window and address, as the table keeps them. */
function fakeCounters() {
  const counts = new Map<string, number>();
  const rateLimits = {
    async countFailedAuthentication(input: { windowStart: Date; clientAddress: string }) {
      const key = `${input.windowStart.toISOString()}/${input.clientAddress}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return counts.get(key) ?? 0;
    },
  };
  const now = new Date('2026-11-21T10:04:18.000Z');
  return { repos: { rateLimits }, clock: { now: () => now } } as unknown as Deps;
}

describe('refuseAuthentication', () => {
  it('answers the 401 with the address counted down, then 429 past the limit, per address', async () => {
    const refuse = refuseAuthentication(fakeCounters());
    const request = { clientAddress: '203.0.113.9', policy: POLICY };
    const first = await refuse(unauthenticated(), request);
    expect(first.error.kind).toBe('unauthenticated');
    expect(first.headers).toEqual({
      'RateLimit-Remaining': '1',
      'RateLimit-Limit': '2',
      'RateLimit-Reset': '42',
    });
    await refuse(unauthenticated(), request);
    const third = await refuse(unauthenticated(), request);
    expect(third.error.kind).toBe('rate_limited');
    expect(third.headers['Retry-After']).toBe('42');

    const elsewhere = await refuse(unauthenticated(), { ...request, clientAddress: '198.51.100.1' });
    expect(elsewhere.error.kind).toBe('unauthenticated');
  });

  it('counts nothing with rate limits off or no client address', async () => {
    const refuse = refuseAuthentication(fakeCounters());
    for (const request of [
      { clientAddress: '203.0.113.9', policy: null },
      { clientAddress: null, policy: POLICY },
    ]) {
      for (let i = 0; i < 3; i++) {
        expect(await refuse(unauthenticated(), request)).toMatchObject({
          error: { kind: 'unauthenticated' },
          headers: {},
        });
      }
    }
  });
});
