import type { Cluster, ClusterQueue, ClusterToken, RetryAgentAffinity } from '@ci/domain';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationEntity, UserEntity } from './organization.entity';

export const ClusterEntity = defineEntity({
  name: 'Cluster',
  tableName: 'clusters',
  indexes: [{ properties: ['organization', 'createdAt', 'id'] }],
  properties: {
    id: p.uuid().primary(),
    organization: () => p.manyToOne(OrganizationEntity).deleteRule('cascade'),
    name: p.string().length(255),
    description: p.text().nullable(),
    emoji: p.string().length(255).nullable(),
    color: p.string().length(255).nullable(),
    /** Deleting the default queue leaves the cluster without one. */
    defaultQueue: () => p.manyToOne(ClusterQueueEntity).nullable().deleteRule('set null').index(),
    createdBy: () => p.manyToOne(UserEntity).nullable().deleteRule('set null').index(),
    createdAt: p.datetime(3),
  },
});

export const ClusterQueueEntity = defineEntity({
  name: 'ClusterQueue',
  tableName: 'cluster_queues',
  uniques: [{ properties: ['cluster', 'key'] }],
  properties: {
    id: p.uuid().primary(),
    cluster: () => p.manyToOne(ClusterEntity).deleteRule('cascade'),
    key: p.string().length(255),
    description: p.text().nullable(),
    dispatchPausedAt: p.datetime(3).nullable(),
    dispatchPausedBy: () => p.manyToOne(UserEntity).nullable().deleteRule('set null').index(),
    dispatchPausedNote: p.text().nullable(),
    /** hosted-agent settings as given; stored only */
    hostedAgents: p.json<Record<string, unknown>>().nullable(),
    retryAgentAffinity: p.string().length(32).default('prefer-warmest').$type<RetryAgentAffinity>(),
    createdBy: () => p.manyToOne(UserEntity).nullable().deleteRule('set null').index(),
    createdAt: p.datetime(3),
  },
});

export const ClusterTokenEntity = defineEntity({
  name: 'ClusterToken',
  tableName: 'cluster_tokens',
  indexes: [{ properties: ['cluster', 'createdAt', 'id'] }],
  properties: {
    id: p.uuid().primary(),
    cluster: () => p.manyToOne(ClusterEntity).deleteRule('cascade'),
    description: p.text(),
    /** hex SHA-256 of the token; the token itself is shown once and never stored */
    tokenHash: p.string().length(64).unique(),
    allowedIpAddresses: p.text().nullable(),
    expiresAt: p.datetime(3).nullable(),
    createdBy: () => p.manyToOne(UserEntity).nullable().deleteRule('set null').index(),
    createdAt: p.datetime(3),
  },
});

export function toCluster(cluster: InferEntity<typeof ClusterEntity>): Cluster {
  return {
    id: cluster.id,
    organizationId: cluster.organization.id,
    name: cluster.name,
    description: cluster.description ?? null,
    emoji: cluster.emoji ?? null,
    color: cluster.color ?? null,
    defaultQueueId: cluster.defaultQueue?.id ?? null,
    createdById: cluster.createdBy?.id ?? null,
    createdAt: cluster.createdAt,
  };
}

export function toClusterQueue(queue: InferEntity<typeof ClusterQueueEntity>): ClusterQueue {
  return {
    id: queue.id,
    clusterId: queue.cluster.id,
    key: queue.key,
    description: queue.description ?? null,
    dispatchPausedAt: queue.dispatchPausedAt ?? null,
    dispatchPausedById: queue.dispatchPausedBy?.id ?? null,
    dispatchPausedNote: queue.dispatchPausedNote ?? null,
    hostedAgents: queue.hostedAgents ?? null,
    retryAgentAffinity: queue.retryAgentAffinity,
    createdById: queue.createdBy?.id ?? null,
    createdAt: queue.createdAt,
  };
}

export function toClusterToken(token: InferEntity<typeof ClusterTokenEntity>): ClusterToken {
  return {
    id: token.id,
    clusterId: token.cluster.id,
    description: token.description,
    tokenHash: token.tokenHash,
    allowedIpAddresses: token.allowedIpAddresses ?? null,
    expiresAt: token.expiresAt ?? null,
    createdById: token.createdBy?.id ?? null,
    createdAt: token.createdAt,
  };
}
