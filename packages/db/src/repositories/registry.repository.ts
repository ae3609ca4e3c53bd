import type { RegistryRepository } from '@ci/application';
import { UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { RegistryEntity, toRegistry } from '../entities/registry.entity';
import { type EntityManagerSource, updateReturning, violates } from '../orm';

/** The constraint that keeps slugs unique per organization (the entity's `uniques`). */
const SLUG_CONSTRAINT = 'registries_organization_id_slug_unique';

const slugTaken = (error: unknown) => violates(error, UniqueConstraintViolationException, SLUG_CONSTRAINT);

export function registryRepository(entityManager: EntityManagerSource): RegistryRepository {
  return {
    async findBySlug(organizationId, slug) {
      const registry = await entityManager().findOne(RegistryEntity, { organization: organizationId, slug });
      return registry ? toRegistry(registry) : null;
    },
    async list({ organizationId, offset, limit }) {
      const registries = await entityManager().find(
        RegistryEntity,
        { organization: organizationId },
        { orderBy: { createdAt: 'asc', id: 'asc' }, limit, offset },
      );
      return registries.map(toRegistry);
    },
    count: (organizationId) => entityManager().count(RegistryEntity, { organization: organizationId }),
    async insert({ organizationId, ...registry }) {
      try {
        await entityManager().insert(RegistryEntity, { ...registry, organization: organizationId });
        return 'inserted';
      } catch (error) {
        if (slugTaken(error)) return 'slug_taken';
        throw error;
      }
    },
    async update({ id, changes }) {
      try {
        const registry = await updateReturning(entityManager(), RegistryEntity, { id }, changes);
        return registry ? toRegistry(registry) : 'not_found';
      } catch (error) {
        if (slugTaken(error)) return 'slug_taken';
        throw error;
      }
    },
    async delete(organizationId, slug) {
      return (await entityManager().nativeDelete(RegistryEntity, { organization: organizationId, slug })) > 0;
    },
  };
}
