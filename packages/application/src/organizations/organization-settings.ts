import {
  canChangeOrganizationSettings,
  distinctUuids,
  forbidden,
  hasScope,
  type InvitationState,
  invitationState,
  invitationTeamNotFound,
  isUuid,
  notFound,
  type Operation,
  type Organization,
  type OrganizationBanner,
  type OrganizationInvitation,
  type OrganizationRole,
  parseBannerMessage,
  parseInvitationEmails,
  parseIpAllowlist,
  scopeFor,
  type TeamMemberRole,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireScope } from '../auth/authorize';
import { usableMemberships } from '../auth/usable-memberships';
import type { Deps, OrganizationAccess, OrganizationSettings } from '../ports';

/**
 * The organization settings of the public GraphQL API, addressed by the organization's UUID: the
 * operation's scope, an organization the actor may use (any other, or one whose API IP allowlist
 * refuses the request, answers `No organization found`), then only admins change anything (403).
 */

async function requireAdminOf(
  deps: Deps,
  actor: Actor,
  operation: Operation,
  organizationId: string | null,
): Promise<OrganizationAccess> {
  requireScope(actor, operation);
  const memberships = await usableMemberships(deps, actor);
  const membership = organizationId ? memberships.get(organizationId.toLowerCase()) : undefined;
  if (!membership) throw notFound('organization');
  if (!canChangeOrganizationSettings(membership.role)) throw forbidden();
  return membership;
}

async function changeSettings(
  deps: Deps,
  organizationId: string,
  changes: Partial<OrganizationSettings>,
): Promise<Organization> {
  const organization = await deps.repos.organizationSettings.update({ organizationId, changes });
  // Deleted between the read and the write.
  if (!organization) throw notFound('organization');
  return organization;
}

/**
 * Sets the API IP allowlist (space-separated addresses and ranges; '' lifts it). From the next request
 * on, requests from elsewhere are refused for the organization's resources (ip-allowlist.ts).
 */
export const updateApiIpAllowlist =
  (deps: Deps) =>
  async (actor: Actor, organizationId: string | null, ipAddresses: string): Promise<Organization> => {
    const { organization } = await requireAdminOf(deps, actor, 'updateOrganizationSettings', organizationId);
    const allowlist = parseIpAllowlist(ipAddresses);
    if (!allowlist.ok) throw allowlist.error;
    return changeSettings(deps, organization.id, { allowedApiIpAddresses: allowlist.value });
  };

/** Sets whether members must use two-factor authentication: stored and shown, nothing here signs users in. */
export const updateTwoFactorRequirement =
  (deps: Deps) =>
  async (actor: Actor, organizationId: string | null, required: boolean): Promise<Organization> => {
    const { organization } = await requireAdminOf(deps, actor, 'updateOrganizationSettings', organizationId);
    return changeSettings(deps, organization.id, { membersRequireTwoFactorAuthentication: required });
  };

/** Sets the organization's one banner (a new message keeps the banner's id). */
export const upsertBanner =
  (deps: Deps) =>
  async (actor: Actor, organizationId: string | null, message: string): Promise<OrganizationBanner> => {
    const { organization } = await requireAdminOf(deps, actor, 'updateOrganizationSettings', organizationId);
    const text = parseBannerMessage(message);
    if (!text.ok) throw text.error;
    return deps.repos.organizationSettings.putBanner({
      id: deps.newId(),
      organizationId: organization.id,
      message: text.value,
      createdAt: deps.clock.now(),
    });
  };

/** Removes the organization's banner; its id. An organization without one: `No banner found`. */
export const deleteBanner =
  (deps: Deps) =>
  async (actor: Actor, organizationId: string | null): Promise<string> => {
    const { organization } = await requireAdminOf(deps, actor, 'updateOrganizationSettings', organizationId);
    const id = await deps.repos.organizationSettings.deleteBanner(organization.id);
    if (!id) throw notFound('banner');
    return id;
  };

/**
 * The banners of these organizations (the actor's, which the transport already found), by organization
 * id: every member sees them, in one read for a page of organizations.
 */
export const bannersOfOrganizations =
  (deps: Deps) =>
  async (actor: Actor, organizationIds: readonly string[]): Promise<OrganizationBanner[][]> => {
    requireScope(actor, 'getOrganization');
    const usable = await usableMemberships(deps, actor);
    const wanted = organizationIds.filter((id) => usable.has(id));
    const banners = await deps.repos.organizationSettings.bannersOf(wanted);
    return organizationIds.map((id) => banners.filter((banner) => banner.organizationId === id));
  };

/** What an invitation request asks for. */
export interface InvitationRequest {
  emails: readonly string[];
  role: OrganizationRole | null;
  teams: ReadonlyArray<{ teamId: string | null; role: TeamMemberRole }>;
}

/**
 * Invites people by email (one invitation each), as members unless `role` says admin, into the teams
 * named (each the organization's). The invited user accepts through the admin CLI (`invitation accept`).
 */
export const createInvitations =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationId: string | null,
    request: InvitationRequest,
  ): Promise<{ organization: Organization; invitations: OrganizationInvitation[] }> => {
    const { organization } = await requireAdminOf(deps, actor, 'inviteOrganizationMembers', organizationId);
    const emails = parseInvitationEmails(request.emails);
    if (!emails.ok) throw emails.error;
    const teamIds = request.teams.map((team) => team.teamId?.toLowerCase() ?? '');
    const known = new Set(
      await deps.repos.organizationSettings.teamsIn({
        organizationId: organization.id,
        teamIds: teamIds.filter(isUuid),
      }),
    );
    if (teamIds.some((id) => !known.has(id))) throw invitationTeamNotFound();
    const now = deps.clock.now();
    const teams = request.teams.map((team, index) => ({ teamId: teamIds[index] as string, role: team.role }));
    const invitations: OrganizationInvitation[] = emails.value.map((email) => ({
      id: deps.newId(),
      organizationId: organization.id,
      email,
      role: request.role ?? 'member',
      teams,
      createdById: actor.user.id,
      createdAt: now,
      acceptedAt: null,
      acceptedById: null,
    }));
    await deps.repos.organizationSettings.insertInvitations(invitations);
    return { organization, invitations };
  };

/** Which of an organization's invitations to list, and in which order. */
export interface InvitationFilter {
  /** only invitations in one of these states; absent: all */
  states?: readonly InvitationState[];
  /** newest first (the default), or by email */
  order?: 'newest' | 'email';
}

/** The organization's invitations, newest first or by email: for its admins only (a member gets 403). */
export const listInvitations =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationId: string,
    filter: InvitationFilter = {},
  ): Promise<OrganizationInvitation[]> => {
    const { organization } = await requireAdminOf(deps, actor, 'inviteOrganizationMembers', organizationId);
    const invitations = await deps.repos.organizationSettings.invitationsOf(organization.id);
    const wanted = filter.states
      ? invitations.filter((invitation) => filter.states?.includes(invitationState(invitation)))
      : invitations;
    return filter.order === 'email' ? wanted.sort((a, b) => a.email.localeCompare(b.email)) : wanted;
  };

/**
 * Banners by id (GraphQL's `node`): those of the organizations the actor may use, in the order given,
 * null for the others.
 */
export const bannersById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<OrganizationBanner | null>> => {
    requireScope(actor, 'getOrganization');
    const wanted = distinctUuids(ids);
    const [banners, usable] = await Promise.all([
      deps.repos.organizationSettings.bannersByIds(wanted),
      usableMemberships(deps, actor),
    ]);
    const visible = new Map(
      banners.filter((banner) => usable.has(banner.organizationId)).map((banner) => [banner.id, banner]),
    );
    return ids.map((id) => visible.get(id.toLowerCase()) ?? null);
  };

/**
 * Invitations by id (GraphQL's `node`): those of organizations where the actor is an admin (who alone
 * list them), in the order given, null for the others and for a token that may not invite.
 */
export const invitationsById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<OrganizationInvitation | null>> => {
    const scope = scopeFor('inviteOrganizationMembers');
    if (scope && !hasScope(actor.scopes, scope)) return ids.map(() => null);
    const wanted = distinctUuids(ids);
    const [invitations, usable] = await Promise.all([
      deps.repos.organizationSettings.invitationsByIds(wanted),
      usableMemberships(deps, actor),
    ]);
    const visible = new Map(
      invitations
        .filter((invitation) => {
          const membership = usable.get(invitation.organizationId);
          return membership !== undefined && canChangeOrganizationSettings(membership.role);
        })
        .map((invitation) => [invitation.id, invitation]),
    );
    return ids.map((id) => visible.get(id.toLowerCase()) ?? null);
  };
