import { type NotificationDelivery, type NotificationService, retryDelayMs } from '@ci/domain';
import pRetry from 'p-retry';
import type { Deps } from '../ports';
import type { DeliveryAttempt } from './notification-ports';

/** What one POST to a receiver came to: its status, or why there was none (timeout, refused, not allowed). */
export interface SendOutcome {
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface DeliveryPolicy {
  maxAttempts: number;
  retryBaseMs: number;
}

/** A 2xx is delivered; a 5xx, 408, 429 or no answer is tried again; any other answer is final. */
function retryable(outcome: SendOutcome): boolean {
  const { status } = outcome;
  return status === null
    ? outcome.error !== 'address not allowed'
    : status >= 500 || status === 408 || status === 429;
}

type Send = (delivery: NotificationDelivery, service: NotificationService) => Promise<SendOutcome>;
type AttemptResult = 'sent' | 'retrying' | 'failed' | 'skipped';

/**
 * How often a batch's record is tried again before its job fails: a failed job sends every delivery of
 * the batch again, a record tried again sends none.
 */
export const RECORD_RETRIES = { retries: 3, minTimeout: 100, factor: 2 };

/**
 * One attempt of each delivery, all sent at once, read in one statement and recorded in one transaction
 * once all are sent; the results in the ids' order. `send` POSTs one; the next attempt is queued after a
 * doubling wait while attempts remain. A delivery already finished (a job run again) is not sent again.
 */
export const attemptDeliveries =
  (deps: Deps) =>
  async (ids: readonly string[], send: Send, policy: DeliveryPolicy): Promise<AttemptResult[]> => {
    const repository = deps.repos.notificationServices;
    const found = await repository.deliveriesToSend(ids);
    const attempted = await Promise.all(
      ids.map(async (id): Promise<{ result: AttemptResult; attempt?: DeliveryAttempt }> => {
        const one = found.get(id);
        if (!one || one.delivery.state === 'succeeded' || one.delivery.state === 'failed') {
          return { result: 'skipped' };
        }
        const attempts = one.delivery.attempts + 1;
        const outcome = await send(one.delivery, one.service);
        const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
        const again = !delivered && retryable(outcome) && attempts < policy.maxAttempts;
        const at = deps.clock.now();
        return {
          result: delivered ? 'sent' : again ? 'retrying' : 'failed',
          attempt: {
            id,
            attempts,
            state: delivered ? 'succeeded' : again ? 'retrying' : 'failed',
            responseStatus: outcome.status,
            error: outcome.error,
            durationMs: Math.round(outcome.durationMs),
            at,
            retryAt: again ? new Date(at.getTime() + retryDelayMs(attempts, policy.retryBaseMs)) : null,
          },
        };
      }),
    );
    const attempts = attempted.flatMap(({ attempt }) => (attempt ? [attempt] : []));
    await pRetry(() => repository.recordAttempts(attempts), RECORD_RETRIES);
    return attempted.map(({ result }) => result);
  };
