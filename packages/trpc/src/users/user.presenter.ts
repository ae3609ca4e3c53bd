import { gravatarUrl as gravatarOf } from '@ci/application';
import { encodeGraphqlId, formatTimestamp, type User } from '@ci/domain';
import type { UserWire } from './user.wire';

/**
 * The wire form of a user, wherever one is shown (`GET /user`, a build's creator, an agent's creator).
 * `avatars` caches Gravatar addresses by email for callers that present many users at once.
 */
export function presentUser(user: User, avatars?: Map<string, string>): UserWire {
  return {
    id: user.id,
    graphql_id: encodeGraphqlId('User', user.id),
    name: user.name,
    email: user.email,
    avatar_url: user.avatarUrl ?? gravatarUrl(user.email, avatars),
    created_at: formatTimestamp(user.createdAt),
  };
}

/** Gravatar's address for an email: the MD5 of the trimmed, lowercased address. */
export function gravatarUrl(email: string, cache?: Map<string, string>): string {
  let url = cache?.get(email);
  if (url === undefined) {
    url = gravatarOf(email);
    cache?.set(email, url);
  }
  return url;
}
