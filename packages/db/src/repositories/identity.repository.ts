import type { OrganizationRepository, UserRepository } from '@ci/application';
import type { Organization, User } from '@ci/domain';
import {
  OrganizationEntity,
  OrganizationMemberEntity,
  toOrganization,
  toUser,
  UserEntity,
} from '../entities/organization.entity';
import { TeamMemberEntity } from '../entities/team.entity';
import { converted, type EntityManagerSource } from '../orm';
import { prefixedColumns, toDate } from '../rows';

type Row = Record<string, unknown>;

// Users and organizations as the statements still written in SQL (tokens, pipelines, builds) read them.
const USER_COLUMN_NAMES = ['id', 'name', 'email', 'avatar_url', 'created_at'];

/** The columns of users `u`, as {@link userFromRow} reads them. */
export const USER_COLUMNS = USER_COLUMN_NAMES.map((column) => `u.${column}`).join(', ');

/** The columns of users `u` beside another table's, each named `u_<column>`: for `userFromRow(row, 'u_')`. */
export const USER_COLUMNS_PREFIXED = prefixedColumns('u', USER_COLUMN_NAMES);

export function userFromRow(row: Row, prefix = ''): User {
  return {
    id: row[`${prefix}id`] as string,
    name: row[`${prefix}name`] as string,
    email: row[`${prefix}email`] as string,
    avatarUrl: (row[`${prefix}avatar_url`] as string | null) ?? null,
    createdAt: toDate(row[`${prefix}created_at`]),
  };
}

/** The user of a left join read with {@link USER_COLUMNS_PREFIXED}; null when there was none. */
export function joinedUserFromRow(row: Row): User | null {
  return row.u_id ? userFromRow(row, 'u_') : null;
}

/** The columns of a pipeline's creator, users `pu`, each named `pu_<column>` ({@link pipelineCreatorFromRow}). */
export const PIPELINE_CREATOR_COLUMNS = prefixedColumns('pu', USER_COLUMN_NAMES);

/** The pipeline's creator of a row read with {@link PIPELINE_CREATOR_COLUMNS}; null when none. */
export function pipelineCreatorFromRow(row: Row): User | null {
  return row.pu_id ? userFromRow(row, 'pu_') : null;
}

export function organizationFromRow(row: Row, prefix = ''): Organization {
  return {
    id: row[`${prefix}id`] as string,
    slug: row[`${prefix}slug`] as string,
    name: row[`${prefix}name`] as string,
    createdAt: toDate(row[`${prefix}created_at`]),
    allowedApiIpAddresses: row[`${prefix}allowed_api_ip_addresses`] as string,
    membersRequireTwoFactorAuthentication: row[
      `${prefix}members_require_two_factor_authentication`
    ] as boolean,
  };
}

export function userRepository(entityManager: EntityManagerSource): UserRepository {
  return {
    async findByEmail(email) {
      const user = await entityManager().findOne(UserEntity, { email });
      return user ? toUser(user) : null;
    },
    async insert(user) {
      await entityManager().insert(UserEntity, { ...user });
    },
  };
}

export function organizationRepository(entityManager: EntityManagerSource): OrganizationRepository {
  return {
    async findBySlug(slug) {
      const organization = await entityManager().findOne(OrganizationEntity, { slug });
      return organization ? toOrganization(organization) : null;
    },
    async insert(organization) {
      await entityManager().insert(OrganizationEntity, { ...organization });
    },
    putMember({ id, organizationId, userId, role, at, teamsIfNew = [] }) {
      // A new membership and the teams it joins are written together, or neither is.
      return entityManager().transactional(async (em) => {
        const membership = { organization: organizationId, user: userId };
        for (;;) {
          // The (organization, user) key decides, however close the race: one insert, the others none.
          const inserted = await converted(
            em,
            em
              .createQueryBuilder(OrganizationMemberEntity)
              .insert({ id, ...membership, role, createdAt: at })
              .onConflict(['organization', 'user'])
              .ignore()
              .execute('run'),
          );
          if (inserted.affectedRows > 0) {
            if (teamsIfNew.length > 0) {
              await converted(
                em,
                em
                  .createQueryBuilder(TeamMemberEntity)
                  .insert(
                    teamsIfNew.map((team) => ({
                      id: team.id,
                      team: team.teamId,
                      user: userId,
                      role: team.role,
                      createdAt: at,
                    })),
                  )
                  .onConflict(['team', 'user'])
                  .ignore()
                  .execute('run'),
              );
            }
            return 'added';
          }
          // An existing member's role changes; one removed meanwhile is added again on the next round.
          if ((await em.nativeUpdate(OrganizationMemberEntity, membership, { role })) > 0) return 'changed';
        }
      });
    },
    countAll: () => entityManager().count(OrganizationEntity),
  };
}
