import { avatarUrl } from '@ci/application';
import { encodeGraphqlId, formatTimestamp, type User } from '@ci/domain';
import type { UserWire } from './user.wire';

/**
 * The wire form of a user, wherever one is shown (`GET /user`, a build's creator, an agent's creator).
 * `avatars` remembers avatar addresses by user id for callers that present many users at once (a
 * Gravatar address costs an MD5).
 */
export function presentUser(user: User, avatars?: Map<string, string>): UserWire {
  return {
    id: user.id,
    graphql_id: encodeGraphqlId('User', user.id),
    name: user.name,
    email: user.email,
    avatar_url: avatarOf(user, avatars),
    created_at: formatTimestamp(user.createdAt),
  };
}

function avatarOf(user: User, cache: Map<string, string> | undefined): string {
  let url = cache?.get(user.id);
  if (url === undefined) {
    url = avatarUrl(user);
    cache?.set(user.id, url);
  }
  return url;
}
