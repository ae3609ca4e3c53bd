import { type NotificationDelivery, type NotificationService, retryDelayMs } from '@ci/domain';
import type { Deps } from '../ports';

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

/**
 * One attempt of a delivery: `send` POSTs it; the outcome is recorded, with the next attempt queued after
 * a doubling wait while attempts remain. A delivery already finished (a job run again) is not sent again.
 */
export const attemptDelivery =
  (deps: Deps) =>
  async (
    id: string,
    send: (delivery: NotificationDelivery, service: NotificationService) => Promise<SendOutcome>,
    policy: DeliveryPolicy,
  ): Promise<'sent' | 'retrying' | 'failed' | 'skipped'> => {
    const found = await deps.repos.notificationServices.deliveryToSend(id);
    if (!found || found.delivery.state === 'succeeded' || found.delivery.state === 'failed') return 'skipped';
    const attempts = found.delivery.attempts + 1;
    const outcome = await send(found.delivery, found.service);
    const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const again = !delivered && retryable(outcome) && attempts < policy.maxAttempts;
    const at = deps.clock.now();
    await deps.repos.notificationServices.recordAttempt({
      id,
      attempts,
      state: delivered ? 'succeeded' : again ? 'retrying' : 'failed',
      responseStatus: outcome.status,
      error: outcome.error,
      durationMs: Math.round(outcome.durationMs),
      at,
      retryAt: again ? new Date(at.getTime() + retryDelayMs(attempts, policy.retryBaseMs)) : null,
    });
    return delivered ? 'sent' : again ? 'retrying' : 'failed';
  };
