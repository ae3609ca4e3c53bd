import type { OrganizationBanner, OrganizationInvitation } from '@ci/domain';
import { invitationState } from '@ci/domain';
import { builder } from '../builder';
import { OrganizationRef, organizationOf } from './organization';
import { OrganizationMemberRole } from './organization-member';
import { ConnectionInterface } from './scalars';
import { UserRef } from './user';

builder.objectFields(OrganizationRef, (t) => ({
  allowedApiIpAddresses: t.string({
    nullable: true,
    description:
      'A space-separated allowlist of IP addresses that can access the organization via the GraphQL or REST API',
    resolve: (organization) => organization.allowedApiIpAddresses,
  }),
  membersRequireTwoFactorAuthentication: t.boolean({
    nullable: true,
    description: 'Whether this organization requires 2FA to access (stored and shown; not enforced here)',
    resolve: (organization) => organization.membersRequireTwoFactorAuthentication,
  }),
}));

export const OrganizationBannerRef = builder.objectRef<OrganizationBanner>('OrganizationBanner');

builder.node(OrganizationBannerRef, {
  description: 'System banner of an organization',
  id: { resolve: (banner) => banner.id },
  fields: (t) => ({
    uuid: t.exposeString('id', { nullable: false }),
    message: t.exposeString('message', { nullable: false, description: 'The banner message' }),
  }),
});

interface BannerConnection {
  edges: Array<{ cursor: string; node: OrganizationBanner }>;
  pageInfo: unknown;
}

const OrganizationBannerEdge = builder
  .objectRef<{ cursor: string; node: OrganizationBanner }>('OrganizationBannerEdge')
  .implement({
    fields: (t) => ({
      cursor: t.exposeString('cursor', { nullable: false }),
      node: t.field({ type: OrganizationBannerRef, nullable: true, resolve: (edge) => edge.node }),
    }),
  });

// The reference's banner connection has `nodes` and no `count`: not one of the `Connection`s.
const OrganizationBannerConnection = builder
  .objectRef<BannerConnection>('OrganizationBannerConnection')
  .implement({
    fields: (t) => ({
      edges: t.field({
        type: [OrganizationBannerEdge],
        nullable: { list: true, items: true },
        resolve: (connection) => connection.edges,
      }),
      nodes: t.field({
        type: [OrganizationBannerRef],
        nullable: { list: true, items: true },
        resolve: (connection) => connection.edges.map((edge) => edge.node),
      }),
      pageInfo: t.field({
        type: builder.pageInfoRef(),
        nullable: false,
        resolve: (connection) => connection.pageInfo as never,
      }),
    }),
  });

builder.objectField(OrganizationRef, 'banners', (t) =>
  t.field({
    type: OrganizationBannerConnection,
    nullable: false,
    description: "The organization's banner (one at most), for every member",
    args: {
      after: t.arg.string(),
      before: t.arg.string(),
      first: t.arg.int(),
      last: t.arg.int(),
    },
    resolve: (organization, args, ctx) =>
      ctx.loaders.list({
        field: 'Organization.banners',
        parentId: organization.id,
        args,
        read: async (window) => {
          const [banners = []] = await ctx.useCases.byId.bannersOfOrganizations(ctx.actor, [organization.id]);
          return {
            items: banners.slice(window.offset, window.offset + window.limit),
            totalCount: banners.length,
          };
        },
      }),
  }),
);

const OrganizationInvitationStates = builder.enumType('OrganizationInvitationStates', {
  description: 'All possible states an organization invitation can be in',
  values: {
    ACCEPTED: { value: 'accepted', description: 'The invitation was accepted' },
    EXPIRED: { value: 'expired', description: 'The invitation expired (invitations do not expire here)' },
    PENDING: { value: 'pending', description: 'The invitation is waiting to be accepted' },
    REVOKED: { value: 'revoked', description: 'The invitation was revoked (nothing revokes one here)' },
  } as const,
});

export const OrganizationInvitationRef = builder.objectRef<OrganizationInvitation>('OrganizationInvitation');

builder.node(OrganizationInvitationRef, {
  description: 'A pending invitation to a user to join this organization',
  id: { resolve: (invitation) => invitation.id },
  fields: (t) => ({
    uuid: t.exposeString('id', { nullable: false }),
    email: t.exposeString('email', { nullable: false }),
    role: t.field({
      type: OrganizationMemberRole,
      nullable: false,
      resolve: (invitation) => invitation.role,
    }),
    state: t.field({
      type: OrganizationInvitationStates,
      nullable: false,
      resolve: (invitation) => invitationState(invitation),
    }),
    createdAt: t.field({ type: 'DateTime', nullable: true, resolve: (invitation) => invitation.createdAt }),
    acceptedAt: t.field({ type: 'DateTime', nullable: true, resolve: (invitation) => invitation.acceptedAt }),
    createdBy: t.field({
      type: UserRef,
      nullable: true,
      resolve: (invitation, _args, ctx) =>
        invitation.createdById ? ctx.loaders.people.load(invitation.createdById) : null,
    }),
    acceptedBy: t.field({
      type: UserRef,
      nullable: true,
      resolve: (invitation, _args, ctx) =>
        invitation.acceptedById ? ctx.loaders.people.load(invitation.acceptedById) : null,
    }),
    organization: t.field({
      type: OrganizationRef,
      nullable: true,
      resolve: (invitation, _args, ctx) => organizationOf(invitation.organizationId, ctx),
    }),
  }),
});

export const OrganizationInvitationEdge = builder.edgeObject({
  type: OrganizationInvitationRef,
  name: 'OrganizationInvitationEdge',
});

const OrganizationInvitationConnection = builder.connectionObject(
  {
    type: OrganizationInvitationRef,
    name: 'OrganizationInvitationConnection',
    interfaces: [ConnectionInterface],
  },
  OrganizationInvitationEdge,
);

const OrganizationInvitationOrders = builder.enumType('OrganizationInvitationOrders', {
  description: 'The order of a list of invitations',
  values: {
    EMAIL: { value: 'email', description: 'By email address' },
    RECENTLY_CREATED: { value: 'newest', description: 'Newest first' },
  } as const,
});

builder.objectField(OrganizationRef, 'invitations', (t) =>
  t.connection(
    {
      type: OrganizationInvitationRef,
      nullable: true,
      description: "The organization's invitations, for its admins (a member is refused)",
      args: {
        order: t.arg({ type: OrganizationInvitationOrders, defaultValue: 'newest' }),
        state: t.arg({ type: [OrganizationInvitationStates], required: false }),
      },
      resolve: (organization, args, ctx) =>
        ctx.loaders.list({
          field: 'Organization.invitations',
          parentId: organization.id,
          args,
          read: async (window) => {
            // Invitations never expire nor are revoked here: those states match none.
            const states = args.state?.filter((state) => state === 'accepted' || state === 'pending');
            const invitations = await ctx.useCases.byId.invitations(ctx.actor, organization.id, {
              order: args.order ?? 'newest',
              ...(states ? { states } : {}),
            });
            return {
              items: invitations.slice(window.offset, window.offset + window.limit),
              totalCount: invitations.length,
            };
          },
        }),
    },
    OrganizationInvitationConnection,
  ),
);
