import type { Organization, OrganizationRole, User } from '@ci/domain';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const OrganizationEntity = defineEntity({
  name: 'Organization',
  tableName: 'organizations',
  properties: {
    id: p.uuid().primary(),
    slug: p.string().length(255).unique(),
    name: p.string().length(255),
    createdAt: p.datetime(3),
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
