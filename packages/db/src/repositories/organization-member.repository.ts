import type {
  OrganizationMember,
  OrganizationMemberRepository,
  OrganizationMemberScope,
} from '@ci/application';
import type { InferEntity } from '@mikro-orm/core';
import { OrganizationMemberEntity, toUser } from '../entities/organization.entity';
import type { EntityManagerSource } from '../orm';
import { likeLiteral } from '../sql';

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

/** The organization's memberships whose user the filters name. */
function inScope({ organizationId, email, search }: OrganizationMemberScope) {
  const pattern = search === null ? null : `%${likeLiteral(search)}%`;
  return {
    organization: organizationId,
    ...(email === null && pattern === null
      ? {}
      : {
          user: {
            ...(email === null ? {} : { email: { $ilike: likeLiteral(email) } }),
            ...(pattern === null
              ? {}
              : { $or: [{ name: { $ilike: pattern } }, { email: { $ilike: pattern } }] }),
          },
        }),
  };
}

export function organizationMemberRepository(
  entityManager: EntityManagerSource,
): OrganizationMemberRepository {
  return {
    async list({ offset, limit, ...scope }) {
      // Longest-standing member first; the user id (time-ordered) settles members who joined together.
      const members = await entityManager().find(OrganizationMemberEntity, inScope(scope), {
        populate: ['user'],
        orderBy: { createdAt: 'asc', user: 'asc' },
        limit,
        offset,
      });
      return members.map(toOrganizationMember);
    },
    count: (scope) => entityManager().count(OrganizationMemberEntity, inScope(scope)),
  };
}
