import {
  type DomainError,
  failedAuthenticationHeaders,
  failedAuthenticationStatus,
  isDomainError,
  type RateLimitPolicy,
  rateLimitWindow,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { authenticate } from '../auth/authenticate';
import { authenticateSession } from '../auth/web-sessions';
import type { Deps } from '../ports';

export interface AuthenticationRefusal {
  /** the 401 the token earned, or the 429 once its client address is past its limit */
  error: DomainError;
  /** the client address's `RateLimit-*` headers (none with rate limits off) */
  headers: Record<string, string>;
}

/**
 * A refused token (`authenticate`'s 401), counted against the client address it came from: past the
 * policy's limit of refused tokens per minute the answer is a 429, so guessing tokens, or a client
 * stuck on a revoked one, costs a counter's round trip, not the server's time. Counted in PostgreSQL
 * (`RateLimitRepository.countFailedAuthentication`), so every server process shares the count.
 */
export const refuseAuthentication =
  (deps: Deps) =>
  async (
    refusal: DomainError,
    request: { clientAddress: string | null; policy: RateLimitPolicy | null },
  ): Promise<AuthenticationRefusal> => {
    if (!request.policy || !request.clientAddress) return { error: refusal, headers: {} };
    const window = rateLimitWindow(deps.clock.now());
    const count = await deps.repos.rateLimits.countFailedAuthentication({
      windowStart: window.start,
      clientAddress: request.clientAddress,
    });
    const status = failedAuthenticationStatus({ policy: request.policy, window, count });
    return { error: status.exceeded ?? refusal, headers: failedAuthenticationHeaders(status) };
  };

/** What a request shows of who sends it, and the rate limits it is under (null: off). */
export interface RequestCredentials {
  authorization: string | undefined;
  /** the web app's session secret (its cookie), used when the request has no `Authorization` */
  session: string | null;
  clientAddress: string | null;
  policy: RateLimitPolicy | null;
}

/**
 * Who sends a request, on every transport: its token, or without one its web session. A refusal is
 * counted against its client address (`refuseAuthentication`) and answered with that count's headers.
 */
export const authenticateRequest =
  (deps: Deps) =>
  async (request: RequestCredentials): Promise<{ actor: Actor } | { refused: AuthenticationRefusal }> => {
    try {
      const actor =
        request.authorization === undefined && request.session
          ? await authenticateSession(deps)(request.session, request.clientAddress)
          : await authenticate(deps)(request.authorization, request.clientAddress);
      return { actor };
    } catch (error) {
      if (!isDomainError(error) || error.kind !== 'unauthenticated') throw error;
      return { refused: await refuseAuthentication(deps)(error, request) };
    }
  };
