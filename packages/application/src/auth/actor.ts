import { addressAllowed, addressNotAllowed, type Organization, type Scope, type User } from '@ci/domain';

/** Who is calling: the token's user, what the token may do, and where. */
export interface Actor {
  tokenId: string;
  user: User;
  scopes: readonly Scope[];
  /** null: every organization the user belongs to */
  organizationIds: readonly string[] | null;
  /** the request's network address; null or absent: none (the CLI on the database), which no allowlist refuses */
  clientAddress?: string | null;
}

/** The actor a usable token speaks for, from this address. */
export function actorOf(
  token: { id: string; scopes: readonly Scope[]; organizationIds: readonly string[] | null },
  user: User,
  clientAddress: string | null,
): Actor {
  return {
    tokenId: token.id,
    user,
    scopes: token.scopes,
    organizationIds: token.organizationIds,
    clientAddress,
  };
}

export function mayUseOrganization(actor: Actor, organizationId: string): boolean {
  return actor.organizationIds === null || actor.organizationIds.includes(organizationId);
}

/** Whether the organization's API IP allowlist lets the actor's request in (the domain's rule). */
export function reachesOrganization(
  actor: Actor,
  organization: Pick<Organization, 'allowedApiIpAddresses'>,
): boolean {
  // No allowlist, the common case, decides at once (and organizations of tests' fakes carry none).
  if (!organization.allowedApiIpAddresses) return true;
  return addressAllowed(organization.allowedApiIpAddresses, actor.clientAddress ?? null);
}

/** {@link reachesOrganization}, refused with a 403: for what names the organization (a slug, a path). */
export function requireReachable(
  actor: Actor,
  organization: Pick<Organization, 'allowedApiIpAddresses'>,
): void {
  if (!reachesOrganization(actor, organization)) throw addressNotAllowed();
}
