import {
  isStorableText,
  RATE_LIMIT_WINDOW_MS,
  type RateLimitPolicy,
  type RateLimitStatus,
  rateLimitStatus,
  rateLimitWindow,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import type { Deps } from '../ports';

/** Windows kept behind the current one: room for processes whose clocks lag a little. */
const KEPT_WINDOWS = 5;

export interface CountRequestInput {
  /** the organization slug the request names (its path or input), or null */
  organization: string | null;
  policy: RateLimitPolicy;
}

/**
 * Counts an authenticated request against its user's and its organization's rate limits and says
 * where both stand; `exceeded` is the 429 to answer. An organization counts only when the user is a
 * member and the token may use it: a slug that does not exist, or belongs to others, cannot spend an
 * organization's requests, leaves no row behind, and is not told apart from a missing one.
 */
export const countRequest = (deps: Deps) => {
  let sweptWindow = Number.NaN;
  return async (actor: Actor, input: CountRequestInput): Promise<RateLimitStatus> => {
    const window = rateLimitWindow(deps.clock.now());
    const slug = input.organization;
    const counts = await deps.repos.rateLimits.count({
      windowStart: window.start,
      userId: actor.user.id,
      // Text PostgreSQL cannot take (a NUL) names no organization: the use case then answers its 404.
      organizationSlug: slug && isStorableText(slug) ? slug : null,
      organizationIds: actor.organizationIds,
    });
    const start = window.start.getTime();
    if (start !== sweptWindow) {
      sweptWindow = start;
      // Once per window and process, off the request's path; a failed sweep is retried in the next window.
      deps.repos.rateLimits
        .deleteWindowsBefore(new Date(start - KEPT_WINDOWS * RATE_LIMIT_WINDOW_MS))
        .catch(() => {});
    }
    return rateLimitStatus({ policy: input.policy, window, counts });
  };
};
