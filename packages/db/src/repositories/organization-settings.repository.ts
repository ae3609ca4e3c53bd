import type { OrganizationSettingsRepository } from '@ci/application';
import {
  OrganizationBannerEntity,
  OrganizationEntity,
  OrganizationInvitationEntity,
  toOrganization,
  toOrganizationBanner,
  toOrganizationInvitation,
} from '../entities/organization.entity';
import { TeamEntity } from '../entities/team.entity';
import { converted, type EntityManagerSource, updateReturning } from '../orm';

export function organizationSettingsRepository(
  entityManager: EntityManagerSource,
): OrganizationSettingsRepository {
  return {
    async update({ organizationId, changes }) {
      const organization = await updateReturning(
        entityManager(),
        OrganizationEntity,
        { id: organizationId },
        changes,
      );
      return organization ? toOrganization(organization) : null;
    },
    async putBanner({ id, organizationId, message, createdAt }) {
      const em = entityManager();
      // The organization is the key: concurrent upserts leave one banner, the last message.
      await converted(
        em,
        em
          .createQueryBuilder(OrganizationBannerEntity)
          .insert({ id, organization: organizationId, message, createdAt })
          .onConflict(['organization'])
          .merge(['message'])
          .execute('run'),
      );
      const banner = await em.findOneOrFail(
        OrganizationBannerEntity,
        { organization: organizationId },
        { refresh: true },
      );
      return toOrganizationBanner(banner);
    },
    async deleteBanner(organizationId) {
      const em = entityManager();
      const banner = await em.findOne(
        OrganizationBannerEntity,
        { organization: organizationId },
        { refresh: true },
      );
      if (!banner) return null;
      // Removed meanwhile by another request: that one answers its id.
      const removed = await em.nativeDelete(OrganizationBannerEntity, { id: banner.id });
      return removed > 0 ? banner.id : null;
    },
    async bannersOf(organizationIds) {
      if (organizationIds.length === 0) return [];
      const banners = await entityManager().find(
        OrganizationBannerEntity,
        { organization: { $in: [...organizationIds] } },
        { refresh: true },
      );
      return banners.map(toOrganizationBanner);
    },
    async bannersByIds(ids) {
      if (ids.length === 0) return [];
      const banners = await entityManager().find(
        OrganizationBannerEntity,
        { id: { $in: [...ids] } },
        { refresh: true },
      );
      return banners.map(toOrganizationBanner);
    },
    async teamsIn({ organizationId, teamIds }) {
      if (teamIds.length === 0) return [];
      const teams = await entityManager().find(
        TeamEntity,
        { organization: organizationId, id: { $in: [...teamIds] } },
        { fields: ['id'] },
      );
      return teams.map((team) => team.id);
    },
    async insertInvitations(invitations) {
      if (invitations.length === 0) return;
      await entityManager().insertMany(
        OrganizationInvitationEntity,
        invitations.map(({ organizationId, createdById, acceptedById, teams, ...invitation }) => ({
          ...invitation,
          teams: [...teams],
          organization: organizationId,
          createdBy: createdById,
          acceptedBy: acceptedById,
        })),
      );
    },
    async findInvitation(id) {
      const invitation = await entityManager().findOne(
        OrganizationInvitationEntity,
        { id },
        { refresh: true },
      );
      return invitation ? toOrganizationInvitation(invitation) : null;
    },
    async invitationsByIds(ids) {
      if (ids.length === 0) return [];
      const invitations = await entityManager().find(
        OrganizationInvitationEntity,
        { id: { $in: [...ids] } },
        { refresh: true },
      );
      return invitations.map(toOrganizationInvitation);
    },
    async invitationsOf(organizationId) {
      const invitations = await entityManager().find(
        OrganizationInvitationEntity,
        { organization: organizationId },
        { orderBy: { createdAt: 'desc', id: 'desc' }, refresh: true },
      );
      return invitations.map(toOrganizationInvitation);
    },
    async acceptInvitation({ id, userId, at }) {
      const changed = await entityManager().nativeUpdate(
        OrganizationInvitationEntity,
        { id, acceptedAt: null },
        { acceptedAt: at, acceptedBy: userId },
      );
      return changed > 0;
    },
  };
}
