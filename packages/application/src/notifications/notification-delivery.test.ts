import type { NotificationDelivery, NotificationService } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Deps } from '../ports';
import { attemptDeliveries, RECORD_RETRIES, type SendOutcome } from './notification-delivery';

/** One delivery's attempt, as a job of one runs it. */
const attemptDelivery =
  (deps: Deps) =>
  async (
    id: string,
    ...rest: Parameters<ReturnType<typeof attemptDeliveries>> extends [unknown, ...infer R] ? R : never
  ) =>
    (await attemptDeliveries(deps)([id], ...rest))[0];

import type { DeliveryAttempt } from './notification-ports';

const NOW = new Date('2026-11-27T10:00:00.000Z');

function world(delivery: Partial<NotificationDelivery> = {}) {
  const recorded: DeliveryAttempt[] = [];
  const stored: NotificationDelivery = {
    id: 'd',
    serviceId: 's',
    event: 'ping',
    eventId: 'e',
    requestBody: '{}',
    state: 'pending',
    attempts: 0,
    responseStatus: null,
    error: null,
    durationMs: null,
    createdAt: NOW,
    lastAttemptAt: null,
    ...delivery,
  };
  const deps = {
    clock: { now: () => NOW },
    repos: {
      notificationServices: {
        deliveriesToSend: async () =>
          new Map([['d', { delivery: stored, service: { id: 's' } as NotificationService }]]),
        recordAttempts: async (attempts: DeliveryAttempt[]) => {
          recorded.push(...attempts);
        },
      },
    },
  } as unknown as Deps;
  return { deps, recorded };
}

const policy = { maxAttempts: 3, retryBaseMs: 1000 };
const answer =
  (status: number | null, error: string | null = null) =>
  async (): Promise<SendOutcome> => ({
    status,
    error,
    durationMs: 12.4,
  });

describe('attemptDelivery', () => {
  it('records a 2xx as delivered', async () => {
    const { deps, recorded } = world();
    expect(await attemptDelivery(deps)('d', answer(204), policy)).toBe('sent');
    expect(recorded).toEqual([
      {
        id: 'd',
        attempts: 1,
        state: 'succeeded',
        responseStatus: 204,
        error: null,
        durationMs: 12,
        at: NOW,
        retryAt: null,
      },
    ]);
  });

  it.each([
    [500, null],
    [503, null],
    [408, null],
    [429, null],
    [null, 'timeout after 1000 ms'],
    [null, 'ECONNREFUSED'],
  ])('tries %s / %s again after the doubling wait', async (status, error) => {
    const { deps, recorded } = world({ attempts: 1 });
    expect(await attemptDelivery(deps)('d', answer(status, error), policy)).toBe('retrying');
    expect(recorded[0]).toMatchObject({
      attempts: 2,
      state: 'retrying',
      retryAt: new Date(NOW.getTime() + 2000),
    });
  });

  it.each([
    [400, null],
    [404, null],
    [410, null],
    [null, 'address not allowed'],
  ])('gives up at once on %s / %s', async (status, error) => {
    const { deps, recorded } = world();
    expect(await attemptDelivery(deps)('d', answer(status, error), policy)).toBe('failed');
    expect(recorded[0]).toMatchObject({ attempts: 1, state: 'failed', retryAt: null });
  });

  it('gives up after the last attempt', async () => {
    const { deps, recorded } = world({ attempts: 2, state: 'retrying' });
    expect(await attemptDelivery(deps)('d', answer(500), policy)).toBe('failed');
    expect(recorded[0]).toMatchObject({ attempts: 3, state: 'failed', retryAt: null });
  });

  it('does not send a delivery that already finished (its job ran again)', async () => {
    let sent = 0;
    for (const state of ['succeeded', 'failed'] as const) {
      const { deps, recorded } = world({ state, attempts: 1 });
      const outcome = await attemptDelivery(deps)(
        'd',
        async () => {
          sent += 1;
          return { status: 200, error: null, durationMs: 1 };
        },
        policy,
      );
      expect(outcome).toBe('skipped');
      expect(recorded).toEqual([]);
    }
    expect(sent).toBe(0);
  });

  it('tries a failed record again without sending again, and fails once the tries run out', async () => {
    for (const failures of [1, RECORD_RETRIES.retries + 1]) {
      const { deps, recorded } = world();
      const repository = deps.repos.notificationServices;
      const record = repository.recordAttempts.bind(repository);
      let calls = 0;
      repository.recordAttempts = async (attempts) => {
        calls += 1;
        if (calls <= failures) throw new Error('deadlock detected');
        return record(attempts);
      };
      let sent = 0;
      const send = async (): Promise<SendOutcome> => {
        sent += 1;
        return { status: 200, error: null, durationMs: 1 };
      };
      const attempt = attemptDelivery(deps)('d', send, policy);
      if (failures === 1) {
        expect(await attempt).toBe('sent');
        expect(recorded).toMatchObject([{ id: 'd', state: 'succeeded' }]);
      } else {
        await expect(attempt).rejects.toThrow('deadlock detected');
        expect(recorded).toEqual([]);
      }
      expect(sent).toBe(1);
      expect(calls).toBe(Math.min(failures + 1, RECORD_RETRIES.retries + 1));
    }
  });
});
