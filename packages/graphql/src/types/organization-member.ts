import type { OrganizationMember } from '@ci/application';
import type { OrganizationRole } from '@ci/domain';
import { builder } from '../builder';
import { OrganizationRef, organizationOf } from './organization';
import { ConnectionInterface } from './scalars';
import { UserRef } from './user';

export const OrganizationMemberRole = builder.enumType('OrganizationMemberRole', {
  description: 'The roles a user can be within an organization',
  values: {
    ADMIN: { value: 'admin', description: 'Has full access to the entire organization' },
    MEMBER: { value: 'member', description: 'The user is a regular member of the organization' },
  } as const satisfies Record<string, { value: OrganizationRole; description: string }>,
});

export const OrganizationMemberRef = builder.objectRef<OrganizationMember>('OrganizationMember');

builder.node(OrganizationMemberRef, {
  description: 'A member of an organization',
  id: { resolve: (member) => member.id },
  fields: (t) => ({
    uuid: t.exposeString('id', { nullable: false }),
    role: t.field({ type: OrganizationMemberRole, nullable: false, resolve: (member) => member.role }),
    createdAt: t.field({ type: 'DateTime', nullable: false, resolve: (member) => member.createdAt }),
    user: t.field({ type: UserRef, nullable: false, resolve: (member) => member.user }),
    organization: t.field({
      type: OrganizationRef,
      nullable: false,
      resolve: (member, _args, ctx) => organizationOf(member.organizationId, ctx),
    }),
  }),
});

const OrganizationMemberConnection = builder.connectionObject(
  { type: OrganizationMemberRef, name: 'OrganizationMemberConnection', interfaces: [ConnectionInterface] },
  { name: 'OrganizationMemberEdge' },
);

builder.objectField(OrganizationRef, 'members', (t) =>
  t.connection(
    {
      type: OrganizationMemberRef,
      description: 'The members of this organization, longest-standing first (as the REST list)',
      args: {
        email: t.arg.string({ description: 'The member whose email this is, in any case' }),
        search: t.arg.string({ description: 'Members whose name or email holds this text, in any case' }),
      },
      resolve: (organization, args, ctx) =>
        ctx.loaders.list({
          field: 'Organization.members',
          parentId: organization.id,
          args,
          read: (window) =>
            ctx.useCases.listOrganizationMembers(ctx.actor, organization.slug, window, {
              email: args.email,
              search: args.search,
            }),
        }),
    },
    OrganizationMemberConnection,
  ),
);
