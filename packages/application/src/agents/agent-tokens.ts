import {
  agentTokenText,
  distinctUuids,
  forbidden,
  isUuid,
  notFound,
  type Organization,
  unprocessable,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization, requireScope, requireSlugParts } from '../auth/authorize';
import { usableById, usableMemberships } from '../auth/usable-memberships';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { Deps, OrganizationAccess } from '../ports';
import type { AgentRegistrationToken } from './agent-ports';
import { createAgentToken } from './agent-protocol';

/**
 * An organization's agent (registration) tokens, for its admins only, as in the public API: read with
 * `read_agents`, created and revoked with `write_agents`. Secrets are shown once, when created, and kept
 * as SHA-256 hashes; a revoked token registers no more agents.
 */

export interface AgentTokenView {
  token: AgentRegistrationToken;
  organization: Organization;
}

function requireAdmin(membership: OrganizationAccess): void {
  if (membership.role !== 'admin') throw forbidden();
}

/** These tokens, in the order given; null for the unknown and those of organizations the actor does not administer. */
export const getAgentTokensById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<AgentTokenView | null>> => {
    requireScope(actor, 'getAgentToken');
    const [tokens, memberships] = await Promise.all([
      deps.repos.agents.registrationTokens(distinctUuids(ids)),
      usableMemberships(deps, actor),
    ]);
    const visible = new Map<string, AgentTokenView>();
    for (const token of tokens) {
      const membership = memberships.get(token.organizationId);
      if (membership?.role === 'admin')
        visible.set(token.id, { token, organization: membership.organization });
    }
    return ids.map((id) => visible.get(id.toLowerCase()) ?? null);
  };

/** A token by its slug, `<organization>/<uuid>`: a member who is not an admin is refused. */
export const findAgentToken =
  (deps: Deps) =>
  async (actor: Actor, slug: string): Promise<AgentTokenView> => {
    const [organizationSlug, id] = requireSlugParts(actor, 'getAgentToken', slug, {
      count: 2,
      resource: 'agent_token',
    }) as [string, string];
    const membership = await requireOrganization(deps)(actor, 'getAgentToken', organizationSlug);
    requireAdmin(membership);
    const [token] = isUuid(id) ? await deps.repos.agents.registrationTokens([id.toLowerCase()]) : [];
    if (!token || token.organizationId !== membership.organization.id) throw notFound('agent_token');
    return { token, organization: membership.organization };
  };

/** An organization's tokens, oldest first; `revoked` picks the revoked (true) or the usable (false) ones. */
export const listAgentTokens =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationSlug: string,
    query: { revoked?: boolean | null | undefined },
    page: Page | RowWindow,
  ): Promise<{ items: AgentTokenView[]; totalCount: number }> => {
    const membership = await requireOrganization(deps)(actor, 'getAgentToken', organizationSlug);
    requireAdmin(membership);
    const scope = { organizationId: membership.organization.id, revoked: query.revoked ?? null };
    const [tokens, totalCount] = await Promise.all([
      deps.repos.agents.listRegistrationTokens({ ...scope, ...pageWindow(page) }),
      deps.repos.agents.countRegistrationTokens(scope),
    ]);
    return { items: tokens.map((token) => ({ token, organization: membership.organization })), totalCount };
  };

/** Creates a token in the organization with this UUID; the secret is in the answer and nowhere else. */
export const createAgentTokenInOrganizationId =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationId: string | null,
    input: { description?: string | null; public?: boolean | null },
  ): Promise<AgentTokenView & { secret: string }> => {
    requireScope(actor, 'createAgentToken');
    const memberships = await usableMemberships(deps, actor);
    const membership = organizationId ? memberships.get(organizationId.toLowerCase()) : undefined;
    if (!membership) throw notFound('organization');
    requireAdmin(membership);
    const description = agentTokenText('Description', input.description);
    if (!description.ok) throw description.error;
    const { token, secret } = await createAgentToken(deps)({
      organization: membership.organization.slug,
      description: description.value,
      creatorId: actor.user.id,
      public: input.public ?? false,
    });
    return { token, organization: membership.organization, secret };
  };

/** Revokes the token with this UUID, with the reason given; a token revoked already is refused. */
export const revokeAgentTokenById =
  (deps: Deps) =>
  async (actor: Actor, tokenId: string | null, input: { reason: string }): Promise<AgentTokenView> => {
    requireScope(actor, 'revokeAgentToken');
    const { found, membership } = await usableById(deps, actor, {
      id: tokenId,
      read: (id) => deps.repos.agents.registrationTokens([id]),
      organizationOf: (token) => token.organizationId,
      resource: 'agent_token',
    });
    requireAdmin(membership);
    const reason = agentTokenText('Reason', input.reason);
    if (!reason.ok) throw reason.error;
    if (found.revokedAt) throw alreadyRevoked();
    const revoked = await deps.repos.agents.revokeRegistrationToken({
      id: found.id,
      at: deps.clock.now(),
      byId: actor.user.id,
      reason: reason.value ?? '',
    });
    if (!revoked) throw alreadyRevoked();
    return { token: revoked, organization: membership.organization };
  };

function alreadyRevoked() {
  return unprocessable('agent_token_revoked', 'This agent token has already been revoked');
}
