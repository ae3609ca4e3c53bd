import { badRequest, DomainError, unprocessable } from './errors';

/**
 * `Idempotency-Key` on a create (the Stripe pattern): the same key and request from the same user
 * within a day answer the first response again instead of creating again; the key with another request
 * is refused. A request holds its key while it runs, at most `IDEMPOTENCY_LOCK_MS` (a process that died
 * mid-request frees it then).
 */

export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_LOCK_MS = 60 * 1000;

/** Visible ASCII, 1 to 255 characters (a UUID fits, as clients send). */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** The key a client sent, or the 400 to answer. */
export function idempotencyKeyOf(header: string | string[]): string | DomainError {
  const text = Array.isArray(header) ? (header.length === 1 ? header[0] : undefined) : header;
  if (text === undefined || !KEY.test(text)) {
    return badRequest('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
  }
  return text;
}

/** A response kept under a key. */
export interface KeptResponse {
  status: number;
  contentType: string | null;
  body: string | null;
}

/** What is kept under a key that another request already holds. */
export interface HeldKey {
  requestHash: string;
  /** null while the first request runs */
  response: KeptResponse | null;
}

export type IdempotencyDecision =
  | { kind: 'replay'; response: KeptResponse }
  | { kind: 'wait' }
  | { kind: 'refuse'; error: DomainError };

/** What a request does about a key another request holds (`held`): answer again, wait for it, or refuse. */
export function decideOnHeldKey(held: HeldKey, requestHash: string): IdempotencyDecision {
  if (held.requestHash !== requestHash) {
    return {
      kind: 'refuse',
      error: unprocessable(
        'idempotency_key_reused',
        'Idempotency-Key was already used with a different request: send a new key for a new request',
      ),
    };
  }
  return held.response ? { kind: 'replay', response: held.response } : { kind: 'wait' };
}

/** The answer when the first request with this key is still running after the wait. */
export function idempotentRequestInProgress(): DomainError {
  return new DomainError({
    kind: 'conflict',
    code: 'idempotent_request_in_progress',
    message: 'A request with this Idempotency-Key is still being processed: try again shortly',
  });
}
