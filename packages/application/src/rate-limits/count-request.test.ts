import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import type { Deps, RateLimitRepository } from '../ports';
import { countRequest } from './count-request';

const POLICY = { organizationPerMinute: 3, userPerMinute: 2 };

function actor(userId: string, organizationIds: string[] | null = null): Actor {
  return {
    tokenId: 't',
    user: { id: userId, name: 'U', email: 'u@x', avatarUrl: null, createdAt: new Date(0) },
    scopes: [],
    organizationIds,
  };
}

/**
 * Counters in memory, as the table keeps them: by window and subject. `acme` (id org-acme) has the
 * members u1 and u2; any other slug names no organization.
 */
function fakeCounters(now: { value: Date }) {
  const counts = new Map<string, number>();
  const sweeps: Date[] = [];
  const seen: Array<Parameters<RateLimitRepository['count']>[0]> = [];
  const bump = (key: string) => {
    const next = (counts.get(key) ?? 0) + 1;
    counts.set(key, next);
    return next;
  };
  const rateLimits: RateLimitRepository = {
    async count(input) {
      seen.push(input);
      const window = input.windowStart.toISOString();
      const member =
        input.organizationSlug === 'acme' &&
        ['u1', 'u2'].includes(input.userId) &&
        (input.organizationIds === null || input.organizationIds.includes('org-acme'));
      return {
        organization: member ? bump(`${window}/org-acme`) : null,
        user: bump(`${window}/${input.userId}`),
      };
    },
    async countFailedAuthentication(input) {
      return bump(`${input.windowStart.toISOString()}/address/${input.clientAddress}`);
    },
    async deleteWindowsBefore(before) {
      sweeps.push(before);
      for (const key of counts.keys()) if (new Date(key.split('/')[0] as string) < before) counts.delete(key);
    },
  };
  const deps = { repos: { rateLimits }, clock: { now: () => now.value } } as unknown as Deps;
  return { deps, counts, sweeps, seen };
}

describe('countRequest', () => {
  it('counts the user and the organization and refuses past the limit with a 429 naming the scope', async () => {
    const now = { value: new Date('2026-11-21T10:04:18.000Z') };
    const { deps } = fakeCounters(now);
    const count = countRequest(deps);
    const first = await count(actor('u1'), { organization: 'acme', policy: POLICY });
    expect(first.organization).toEqual({ limit: 3, current: 1, remaining: 2, reset: 42 });
    expect(first.user).toEqual({ limit: 2, current: 1, remaining: 1, reset: 42 });
    expect(first.exceeded).toBeNull();

    await count(actor('u1'), { organization: 'acme', policy: POLICY });
    const third = await count(actor('u1'), { organization: 'acme', policy: POLICY });
    expect(third.exceeded?.kind).toBe('rate_limited');
    expect(third.exceeded?.fields).toEqual({ scope: 'rest_user', limit: 2, current: 3, reset: 42 });

    // Another member has a fresh user counter but shares the organization's, now past its limit.
    const other = await count(actor('u2'), { organization: 'acme', policy: POLICY });
    expect(other.user.current).toBe(1);
    expect(other.exceeded?.fields).toEqual({ scope: 'rest', limit: 3, current: 4, reset: 42 });
  });

  it('starts afresh in the next window', async () => {
    const now = { value: new Date('2026-11-21T10:04:59.500Z') };
    const { deps } = fakeCounters(now);
    const count = countRequest(deps);
    for (let i = 0; i < 3; i++) await count(actor('u1'), { organization: null, policy: POLICY });
    now.value = new Date('2026-11-21T10:05:00.000Z');
    const next = await count(actor('u1'), { organization: null, policy: POLICY });
    expect(next.user).toEqual({ limit: 2, current: 1, remaining: 1, reset: 60 });
    expect(next.exceeded).toBeNull();
  });

  it('counts no organization for an unknown slug, a non-member, a token limited elsewhere, or text PostgreSQL refuses', async () => {
    const now = { value: new Date('2026-11-21T10:04:18.000Z') };
    const { deps, seen } = fakeCounters(now);
    const count = countRequest(deps);
    expect((await count(actor('u1'), { organization: 'nope', policy: POLICY })).organization).toBeNull();
    expect((await count(actor('u9'), { organization: 'acme', policy: POLICY })).organization).toBeNull();
    expect(
      (await count(actor('u2', ['org-other']), { organization: 'acme', policy: POLICY })).organization,
    ).toBeNull();
    expect(
      (await count(actor('u2'), { organization: 'ac\u0000me', policy: POLICY })).organization,
    ).toBeNull();
    expect(seen.at(-1)?.organizationSlug).toBeNull();
    expect(seen[2]?.organizationIds).toEqual(['org-other']);
  });

  it('sweeps the windows older than five minutes once per window, not on every request', async () => {
    const now = { value: new Date('2026-11-21T10:04:18.000Z') };
    const { deps, sweeps } = fakeCounters(now);
    const count = countRequest(deps);
    for (let i = 0; i < 5; i++) await count(actor('u1'), { organization: null, policy: POLICY });
    expect(sweeps).toEqual([new Date('2026-11-21T09:59:00.000Z')]);
    now.value = new Date('2026-11-21T10:05:01.000Z');
    await count(actor('u1'), { organization: null, policy: POLICY });
    await count(actor('u1'), { organization: null, policy: POLICY });
    expect(sweeps).toEqual([new Date('2026-11-21T09:59:00.000Z'), new Date('2026-11-21T10:00:00.000Z')]);
  });

  it('answers even when a sweep fails', async () => {
    const now = { value: new Date('2026-11-21T10:04:18.000Z') };
    const { deps } = fakeCounters(now);
    deps.repos.rateLimits.deleteWindowsBefore = async () => {
      throw new Error('database gone');
    };
    const status = await countRequest(deps)(actor('u1'), { organization: 'acme', policy: POLICY });
    expect(status.user.current).toBe(1);
  });
});
