import { type DomainError, distinctUuids, hasScope, missingScope, type User } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { usableMemberships } from '../auth/usable-memberships';
import type { Deps } from '../ports';

/**
 * Users by id, for a transport that names them so (GraphQL). A user is someone the actor may know of:
 * the token's own user, or a member of one of the organizations the token may use (as the organization's
 * member list shows them). Anyone else, and any unknown id, is null.
 */
async function knownUsers(deps: Deps, actor: Actor, ids: readonly string[]): Promise<Map<string, User>> {
  const wanted = distinctUuids(ids);
  const [found, memberships] = await Promise.all([
    deps.repos.lookups.users(wanted),
    usableMemberships(deps, actor),
  ]);
  return new Map(
    found
      .filter(
        ({ user, organizationIds }) =>
          user.id === actor.user.id || organizationIds.some((id) => memberships.has(id)),
      )
      .map(({ user }) => [user.id, user]),
  );
}

/**
 * Users the actor reads by id (`node`), each answered on its own: the token's user with `read_user` (as
 * `GET /v2/user`), another user with `read_organizations` (as the member list), else that scope's error.
 */
export const getUsersById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<User | null | DomainError>> => {
    const known = await knownUsers(deps, actor, ids);
    const mayReadMembers = hasScope(actor.scopes, 'read_organizations');
    return ids.map((id) => {
      const key = id.toLowerCase();
      const user = known.get(key) ?? null;
      if (key === actor.user.id && hasScope(actor.scopes, 'read_user')) return actor.user;
      if (mayReadMembers) return user;
      return key === actor.user.id ? missingScope('read_user') : missingScope('read_organizations');
    });
  };

/**
 * The people objects the actor sees point at (a team's or a pipeline's creator, a team member): shown
 * with the object, needing no scope of their own, as REST embeds them; null for users the actor may not
 * know of (one who left every organization the token may use).
 */
export const getPeopleById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<User | null>> => {
    const known = await knownUsers(deps, actor, ids);
    return ids.map((id) => known.get(id.toLowerCase()) ?? null);
  };
