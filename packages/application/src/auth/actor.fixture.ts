import type { Scope } from '@ci/domain';
import type { Actor } from './actor';

/**
 * The caller of the use cases' unit tests: user `u` with a token of these scopes, allowed these
 * organizations (null: every organization the user belongs to).
 */
export function actorWith(scopes: readonly Scope[], organizationIds: readonly string[] | null = null): Actor {
  return {
    tokenId: 't',
    user: { id: 'u', name: 'U', email: 'u@x', avatarUrl: null, createdAt: new Date(0) },
    scopes,
    organizationIds,
  };
}
