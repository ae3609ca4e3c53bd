import type { Scope, User } from '@ci/domain';
import type { PipelineAccessReadAhead } from '../ports';

/** Who is calling: the token's user, what the token may do, and where. */
export interface Actor {
  tokenId: string;
  user: User;
  scopes: readonly Scope[];
  /** null: every organization the user belongs to */
  organizationIds: readonly string[] | null;
  /**
   * What the user may see of the pipeline the request names, read with the token (one round trip less);
   * for this request only, never kept across requests.
   */
  pipelineAccess?: PipelineAccessReadAhead;
}

export function mayUseOrganization(actor: Actor, organizationId: string): boolean {
  return actor.organizationIds === null || actor.organizationIds.includes(organizationId);
}
