import type {
  Organization,
  OrganizationBanner,
  OrganizationInvitation,
  OrganizationRole,
  TeamMemberRole,
  User,
} from '@ci/domain';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const OrganizationEntity = defineEntity({
  name: 'Organization',
  tableName: 'organizations',
  properties: {
    id: p.uuid().primary(),
    slug: p.string().length(255).unique(),
    name: p.string().length(255),
    createdAt: p.datetime(3),
    /** space-separated addresses and CIDR ranges (domain `ip-allowlist.ts`); '' restricts nothing */
    allowedApiIpAddresses: p.text().default(''),
    membersRequireTwoFactorAuthentication: p.boolean().default(false),
  },
});

export const UserEntity = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.uuid().primary(),
    name: p.string().length(255),
    email: p.string().length(255).unique(),
    avatarUrl: p.string().length(1024).nullable(),
    createdAt: p.datetime(3),
    memberships: () => p.oneToMany(OrganizationMemberEntity).mappedBy('user'),
  },
});

export const OrganizationMemberEntity = defineEntity({
  name: 'OrganizationMember',
  tableName: 'organization_members',
  properties: {
    /** The membership's own id (its GraphQL `OrganizationMember` id). */
    id: p.uuid().unique(),
    organization: () => p.manyToOne(OrganizationEntity).primary().deleteRule('cascade'),
    user: () => p.manyToOne(UserEntity).primary().deleteRule('cascade').index(),
    role: p.string().length(16).$type<OrganizationRole>(),
    createdAt: p.datetime(3),
  },
});

export const AccessTokenEntity = defineEntity({
  name: 'AccessToken',
  tableName: 'access_tokens',
  properties: {
    id: p.uuid().primary(),
    user: () => p.manyToOne(UserEntity).deleteRule('cascade').index(),
    /** hex SHA-256 of the token; the token itself is never stored */
    tokenHash: p.string().length(64).unique(),
    scopes: p.array().columnType('text[]'),
    /** null: every organization the user belongs to */
    organizationIds: p.array().columnType('uuid[]').nullable(),
    description: p.string().length(255).nullable(),
    createdAt: p.datetime(3),
    expiresAt: p.datetime(3).nullable(),
    revokedAt: p.datetime(3).nullable(),
  },
});

export function toOrganization(organization: InferEntity<typeof OrganizationEntity>): Organization {
  return {
    id: organization.id,
    slug: organization.slug,
    name: organization.name,
    createdAt: organization.createdAt,
    allowedApiIpAddresses: organization.allowedApiIpAddresses,
    membersRequireTwoFactorAuthentication: organization.membersRequireTwoFactorAuthentication,
  };
}

export function toUser(user: InferEntity<typeof UserEntity>): User {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    avatarUrl: user.avatarUrl ?? null,
    createdAt: user.createdAt,
  };
}

/** An organization's banner: one at most (the organization is its key). */
export const OrganizationBannerEntity = defineEntity({
  name: 'OrganizationBanner',
  tableName: 'organization_banners',
  properties: {
    id: p.uuid().primary(),
    organization: () => p.manyToOne(OrganizationEntity).unique().deleteRule('cascade'),
    message: p.text(),
    createdAt: p.datetime(3),
  },
});

/** An invitation to join an organization, with the teams the new member joins. */
export const OrganizationInvitationEntity = defineEntity({
  name: 'OrganizationInvitation',
  tableName: 'organization_invitations',
  properties: {
    id: p.uuid().primary(),
    organization: () => p.manyToOne(OrganizationEntity).deleteRule('cascade').index(),
    email: p.string().length(255),
    role: p.string().length(16).$type<OrganizationRole>(),
    teams: p.json<Array<{ teamId: string; role: TeamMemberRole }>>().default('[]'),
    createdBy: () => p.manyToOne(UserEntity).nullable().deleteRule('set null').index(),
    createdAt: p.datetime(3),
    acceptedAt: p.datetime(3).nullable(),
    acceptedBy: () => p.manyToOne(UserEntity).nullable().deleteRule('set null').index(),
  },
});

export function toOrganizationBanner(
  banner: InferEntity<typeof OrganizationBannerEntity>,
): OrganizationBanner {
  return {
    id: banner.id,
    organizationId: banner.organization.id,
    message: banner.message,
    createdAt: banner.createdAt,
  };
}

export function toOrganizationInvitation(
  invitation: InferEntity<typeof OrganizationInvitationEntity>,
): OrganizationInvitation {
  return {
    id: invitation.id,
    organizationId: invitation.organization.id,
    email: invitation.email,
    role: invitation.role,
    teams: invitation.teams,
    createdById: invitation.createdBy?.id ?? null,
    createdAt: invitation.createdAt,
    acceptedAt: invitation.acceptedAt ?? null,
    acceptedById: invitation.acceptedBy?.id ?? null,
  };
}
