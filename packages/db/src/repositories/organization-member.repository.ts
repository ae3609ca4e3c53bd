import type { OrganizationMember, OrganizationMemberRepository } from '@ci/application';
import type { InferEntity } from '@mikro-orm/core';
import { OrganizationMemberEntity, toUser } from '../entities/organization.entity';
import type { EntityManagerSource } from '../orm';

/** A membership read with its user (`populate: ['user']`). */
export function toOrganizationMember(
  member: InferEntity<typeof OrganizationMemberEntity>,
): OrganizationMember {
  return {
    id: member.id,
    organizationId: member.organization.id,
    user: toUser(member.user),
    role: member.role,
    createdAt: member.createdAt,
  };
}

export function organizationMemberRepository(
  entityManager: EntityManagerSource,
): OrganizationMemberRepository {
  return {
    async list({ organizationId, offset, limit }) {
      // Longest-standing member first; the user id (time-ordered) settles members who joined together.
      const members = await entityManager().find(
        OrganizationMemberEntity,
        { organization: organizationId },
        { populate: ['user'], orderBy: { createdAt: 'asc', user: 'asc' }, limit, offset },
      );
      return members.map(toOrganizationMember);
    },
    count: (organizationId) =>
      entityManager().count(OrganizationMemberEntity, { organization: organizationId }),
  };
}
