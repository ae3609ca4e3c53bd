import { defineEntity, p } from '@mikro-orm/core';
import { OrganizationEntity, UserEntity } from './organization.entity';

export const AgentEntity = defineEntity({
  name: 'Agent',
  tableName: 'agents',
  indexes: [
    // An organization's agents are listed oldest first (GraphQL `Organization.agents`).
    {
      name: 'agents_organization_order_idx',
      expression:
        'create index "agents_organization_order_idx" on "agents" ("organization_id", "created_at", "id")',
    },
  ],
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
    /** Hex SHA-256 of the agent's access token (shown once at registration). */
    accessTokenHash: p.string().length(64).nullable().unique(),
    lastSeenAt: p.datetime(3).nullable(),
    /** What the agent said of itself at registration. */
    version: p.string().length(255).nullable(),
    pid: p.string().length(32).nullable(),
    connectedAt: p.datetime(3).nullable(),
    disconnectedAt: p.datetime(3).nullable(),
    heartbeatAt: p.datetime(3).nullable(),
  },
});

/** An organization's agent registration token, stored hashed like access tokens. */
export const AgentRegistrationTokenEntity = defineEntity({
  name: 'AgentRegistrationToken',
  tableName: 'agent_registration_tokens',
  properties: {
    id: p.uuid().primary(),
    organization: () => p.manyToOne(OrganizationEntity).deleteRule('cascade').index(),
    tokenHash: p.string().length(64).unique(),
    description: p.string().length(255).nullable(),
    createdAt: p.datetime(3),
  },
});
