import {
  type DomainError,
  decideOnHeldKey,
  IDEMPOTENCY_KEY_TTL_MS,
  IDEMPOTENCY_LOCK_MS,
  idempotentRequestInProgress,
  type KeptResponse,
} from '@ci/domain';
import type { Deps } from '../ports';

/** A request that carries an `Idempotency-Key`: whose key (its user's), and a hash of what it asks. */
export interface IdempotentRequest {
  userId: string;
  key: string;
  requestHash: string;
}

export type IdempotentStart =
  | { kind: 'run' }
  | { kind: 'replay'; response: KeptResponse }
  | { kind: 'refuse'; error: DomainError };

/** How long, and how often, a request waits for the first one with its key to finish. */
const WAIT = { totalMs: 10_000, everyMs: 100 };

/**
 * The `Idempotency-Key` of a create (domain `idempotency.ts`): `start` reserves the key (one insert,
 * so of two identical requests at once one runs and the other waits for its response), or answers the
 * kept response, or refuses; `finish` keeps the response, `release` frees the key of a request that
 * failed (a 5xx), so that it can be tried again.
 */
export const idempotentCreate = (deps: Deps) => ({
  async start(request: IdempotentRequest): Promise<IdempotentStart> {
    const deadline = Date.now() + WAIT.totalMs;
    for (;;) {
      const now = deps.clock.now();
      const reserved = await deps.repos.idempotencyKeys.reserve({
        ...request,
        now,
        lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LOCK_MS),
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS),
      });
      if (reserved === 'reserved') return { kind: 'run' };
      const decision = decideOnHeldKey(reserved, request.requestHash);
      if (decision.kind !== 'wait') return decision;
      if (Date.now() >= deadline) return { kind: 'refuse', error: idempotentRequestInProgress() };
      await new Promise((resolve) => setTimeout(resolve, WAIT.everyMs));
    }
  },
  finish: (request: Omit<IdempotentRequest, 'requestHash'>, response: KeptResponse) =>
    deps.repos.idempotencyKeys.keep(request, response),
  release: (request: Omit<IdempotentRequest, 'requestHash'>) => deps.repos.idempotencyKeys.release(request),
});
