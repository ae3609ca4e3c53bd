import type { Scope, User } from '@ci/domain';

/** Who is calling: the token's user, what the token may do, and where. */
export interface Actor {
  tokenId: string;
  user: User;
  scopes: readonly Scope[];
  /** null: every organization the user belongs to */
  organizationIds: readonly string[] | null;
}

export function mayUseOrganization(actor: Actor, organizationId: string): boolean {
  return actor.organizationIds === null || actor.organizationIds.includes(organizationId);
}
