import type { Ecosystem, Registry } from '@ci/domain';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationEntity } from './organization.entity';

export const RegistryEntity = defineEntity({
  name: 'Registry',
  tableName: 'registries',
  uniques: [{ properties: ['organization', 'slug'] }],
  properties: {
    id: p.uuid().primary(),
    organization: () => p.manyToOne(OrganizationEntity).deleteRule('cascade'),
    slug: p.string().length(255),
    name: p.string().length(255),
    ecosystem: p.string().length(32).$type<Ecosystem>(),
    description: p.text().nullable(),
    emoji: p.string().length(255).nullable(),
    color: p.string().length(255).nullable(),
    public: p.boolean().default(false),
    oidcPolicy: p.text().nullable(),
    createdAt: p.datetime(3),
  },
});

export function toRegistry(registry: InferEntity<typeof RegistryEntity>): Registry {
  return {
    id: registry.id,
    organizationId: registry.organization.id,
    slug: registry.slug,
    name: registry.name,
    ecosystem: registry.ecosystem,
    description: registry.description ?? null,
    emoji: registry.emoji ?? null,
    color: registry.color ?? null,
    public: registry.public,
    oidcPolicy: registry.oidcPolicy ?? null,
    createdAt: registry.createdAt,
  };
}
