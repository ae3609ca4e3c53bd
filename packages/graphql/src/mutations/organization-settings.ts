import { encodeGraphqlId } from '@ci/domain';
import { builder } from '../builder';
import { cursorFor } from '../connection';
import { uuidOf } from '../global-id';
import { OrganizationRef } from '../types/organization';
import { OrganizationMemberRole } from '../types/organization-member';
import { OrganizationBannerRef, OrganizationInvitationEdge } from '../types/organization-settings';
import { TeamMemberRole } from '../types/team';
import { publicMutation } from './client-mutation-id';

/** Only organization admins change these (the use cases decide: `No organization found`, `Forbidden`). */

publicMutation('organizationApiIpAllowlistUpdate', {
  typeName: 'OrganizationAPIIPAllowlistUpdateMutation',
  description: "Update an organization's API IP allowlist.",
  inputFields: (t) => ({
    ipAddresses: t.string({
      required: true,
      description: 'Space-separated IP addresses and CIDR ranges; empty lifts the restriction',
    }),
    organizationID: t.id({ required: true }),
  }),
  resolve: async (input, ctx) => ({
    organization: await ctx.useCases.byId.updateApiIpAllowlist(
      ctx.actor,
      uuidOf(input.organizationID, 'Organization'),
      input.ipAddresses,
    ),
  }),
  payloadFields: (t) => ({
    organization: t.field({
      type: OrganizationRef,
      nullable: true,
      resolve: (payload) => payload.organization,
    }),
  }),
});

publicMutation('organizationEnforceTwoFactorAuthenticationForMembersUpdate', {
  typeName: 'OrganizationEnforceTwoFactorAuthenticationForMembersUpdateMutation',
  description: 'Sets whether the organization requires two-factor authentication for all members.',
  inputFields: (t) => ({
    membersRequireTwoFactorAuthentication: t.boolean({ required: true }),
    organizationId: t.id({ required: true }),
  }),
  resolve: async (input, ctx) => ({
    organization: await ctx.useCases.byId.updateTwoFactorRequirement(
      ctx.actor,
      uuidOf(input.organizationId, 'Organization'),
      input.membersRequireTwoFactorAuthentication,
    ),
  }),
  payloadFields: (t) => ({
    organization: t.field({
      type: OrganizationRef,
      nullable: false,
      resolve: (payload) => payload.organization,
    }),
  }),
});

publicMutation('organizationBannerUpsert', {
  description: 'Sets the banner of an organization.',
  inputFields: (t) => ({
    message: t.string({ required: true }),
    organizationId: t.id({ required: true }),
  }),
  resolve: async (input, ctx) => ({
    banner: await ctx.useCases.byId.upsertBanner(
      ctx.actor,
      uuidOf(input.organizationId, 'Organization'),
      input.message,
    ),
  }),
  payloadFields: (t) => ({
    banner: t.field({ type: OrganizationBannerRef, nullable: false, resolve: (payload) => payload.banner }),
  }),
});

publicMutation('organizationBannerDelete', {
  description: 'Removes the banner of an organization.',
  inputFields: (t) => ({ organizationId: t.id({ required: true }) }),
  resolve: async (input, ctx) => {
    const id = await ctx.useCases.byId.deleteBanner(ctx.actor, uuidOf(input.organizationId, 'Organization'));
    return { deletedBannerId: encodeGraphqlId('OrganizationBanner', id) };
  },
  payloadFields: (t) => ({ deletedBannerId: t.exposeID('deletedBannerId', { nullable: false }) }),
});

const OrganizationInvitationTeamAssignmentInput = builder.inputType(
  'OrganizationInvitationTeamAssignmentInput',
  {
    description: 'Team assignment for an invitation',
    fields: (t) => ({
      id: t.id({ required: true, description: 'The team' }),
      role: t.field({ type: TeamMemberRole, required: true }),
    }),
  },
);

publicMutation('organizationInvitationCreate', {
  description: 'Send email invitations to this organization.',
  inputFields: (t) => ({
    emails: t.stringList({ required: true }),
    organizationID: t.id({ required: true }),
    role: t.field({ type: OrganizationMemberRole }),
    teams: t.field({ type: [OrganizationInvitationTeamAssignmentInput] }),
  }),
  resolve: (input, ctx) =>
    ctx.useCases.byId.createInvitations(ctx.actor, uuidOf(input.organizationID, 'Organization'), {
      emails: input.emails,
      role: input.role ?? null,
      teams: (input.teams ?? []).map((team) => ({ teamId: uuidOf(team.id, 'Team'), role: team.role })),
    }),
  payloadFields: (t) => ({
    invitationEdges: t.field({
      type: [OrganizationInvitationEdge],
      nullable: { list: true, items: true },
      resolve: (payload) =>
        payload.invitations.map((invitation, index) => ({ cursor: cursorFor(index), node: invitation })),
    }),
    organization: t.field({
      type: OrganizationRef,
      nullable: true,
      resolve: (payload) => payload.organization,
    }),
  }),
});
