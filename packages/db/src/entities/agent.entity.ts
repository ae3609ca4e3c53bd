import type { Agent } from '@ci/domain';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { JobEntity } from './build.entity';
import { ClusterEntity, ClusterQueueEntity } from './cluster.entity';
import { OrganizationEntity, UserEntity } from './organization.entity';
import { referencesIndex } from './references-index';

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
    // The agents a sweep may mark lost, by when they were last heard of (Migration20261128020000).
    {
      name: 'agents_losable_idx',
      expression: `create index "agents_losable_idx" on "agents" ((coalesce("last_seen_at", "created_at")))
       where "connection_state" in ('connected', 'stopping')`,
    },
    referencesIndex('agents', 'creator_id'),
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
    /** The last pause (REST); the agent takes no new job while `pausedUntil` is in the future. */
    pausedAt: p.datetime(3).nullable(),
    pauseNote: p.text().nullable(),
    pausedUntil: p.datetime(3).nullable(),
    /**
     * The cluster whose token registered the agent and its queue; null: unclustered. A cluster with
     * connected agents is not deleted (the use case refuses); the gone ones become unclustered with it.
     */
    cluster: () => p.manyToOne(ClusterEntity).nullable().deleteRule('set null').index(),
    /** Deleting its queue leaves the agent in its cluster without a queue: it takes no job. */
    clusterQueue: () => p.manyToOne(ClusterQueueEntity).nullable().deleteRule('set null').index(),
    jobs: () => p.oneToMany(JobEntity).mappedBy('agent'),
  },
});

export function toAgent(agent: InferEntity<typeof AgentEntity>): Agent {
  return {
    id: agent.id,
    organizationId: agent.organization.id,
    name: agent.name,
    hostname: agent.hostname ?? null,
    ipAddress: agent.ipAddress ?? null,
    userAgent: agent.userAgent ?? null,
    connectionState: agent.connectionState,
    tags: agent.tags,
    creatorId: agent.creator?.id ?? null,
    createdAt: agent.createdAt,
    version: agent.version ?? null,
    pid: agent.pid ?? null,
    connectedAt: agent.connectedAt ?? null,
    disconnectedAt: agent.disconnectedAt ?? null,
    heartbeatAt: agent.heartbeatAt ?? null,
    pausedAt: agent.pausedAt ?? null,
    pauseNote: agent.pauseNote ?? null,
    pausedUntil: agent.pausedUntil ?? null,
    clusterId: agent.cluster?.id ?? null,
    clusterQueueId: agent.clusterQueue?.id ?? null,
  };
}

/** An organization's agent registration token, stored hashed like access tokens. */
export const AgentRegistrationTokenEntity = defineEntity({
  name: 'AgentRegistrationToken',
  tableName: 'agent_registration_tokens',
  indexes: [
    referencesIndex('agent_registration_tokens', 'creator_id'),
    referencesIndex('agent_registration_tokens', 'revoked_by_id'),
  ],
  properties: {
    id: p.uuid().primary(),
    organization: () => p.manyToOne(OrganizationEntity).deleteRule('cascade').index(),
    tokenHash: p.string().length(64).unique(),
    description: p.string().length(255).nullable(),
    createdAt: p.datetime(3),
    /** The admin who created it through the API; null for the operator's CLI. */
    creator: () => p.manyToOne(UserEntity).nullable().deleteRule('set null'),
    /** Stored as given; nothing reads it yet. */
    public: p.boolean().default(false),
    revokedAt: p.datetime(3).nullable(),
    revokedBy: () => p.manyToOne(UserEntity).nullable().deleteRule('set null'),
    revokedReason: p.string().length(255).nullable(),
  },
});
