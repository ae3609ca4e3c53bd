import { defineEntity, p } from '@mikro-orm/core';
import { OrganizationEntity, UserEntity } from './organization.entity';

export const AgentEntity = defineEntity({
  name: 'Agent',
  tableName: 'agents',
  properties: {
    id: p.uuid().primary(),
    organization: () => p.manyToOne(OrganizationEntity).deleteRule('cascade'),
    name: p.string().length(255),
    hostname: p.string().length(255).nullable(),
    ipAddress: p.string().length(64).nullable(),
    userAgent: p.string().length(255).nullable(),
    connectionState: p.string().length(32),
    tags: p.array().columnType('text[]'),
    creator: () => p.manyToOne(UserEntity).nullable().deleteRule('set null'),
    createdAt: p.datetime(3),
  },
});
