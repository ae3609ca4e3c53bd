import type {
  ClusterQueueRecord,
  ClusterRecord,
  ClusterRepository,
  ClusterTokenRecord,
  ParentCount,
} from '@ci/application';
import { GONE_AGENT_STATES } from '@ci/domain';
import type { InferEntity } from '@mikro-orm/core';
import {
  type EntityManager,
  ForeignKeyConstraintViolationException,
  LockMode,
  UniqueConstraintViolationException,
} from '@mikro-orm/postgresql';
import { AgentEntity } from '../entities/agent.entity';
import {
  ClusterEntity,
  ClusterQueueEntity,
  ClusterTokenEntity,
  toCluster,
  toClusterQueue,
  toClusterToken,
} from '../entities/cluster.entity';
import { toUser } from '../entities/organization.entity';
import { PipelineEntity } from '../entities/pipeline.entity';
import { converted, type EntityManagerSource, updateReturning, violates } from '../orm';
import { inParentWindows } from './parent-windows';

/** The constraint that keeps queue keys unique per cluster (the entity's `uniques`). */
const KEY_CONSTRAINT = 'cluster_queues_cluster_id_key_unique';
const PIPELINES_CONSTRAINT = 'pipelines_cluster_id_foreign';

const keyTaken = (error: unknown) => violates(error, UniqueConstraintViolationException, KEY_CONSTRAINT);
const clusterGone = (error: unknown, table: 'cluster_queues' | 'cluster_tokens') =>
  violates(error, ForeignKeyConstraintViolationException, `${table}_cluster_id_foreign`);

const ORDER = { createdAt: 'asc', id: 'asc' } as const;
const CLUSTER_USERS = ['createdBy'] as const;
const QUEUE_PARTS = ['cluster', 'createdBy', 'dispatchPausedBy'] as const;
const TOKEN_PARTS = ['cluster', 'createdBy'] as const;

type ClusterRow = InferEntity<typeof ClusterEntity>;
type QueueRow = InferEntity<typeof ClusterQueueEntity>;
type TokenRow = InferEntity<typeof ClusterTokenEntity>;

/** Rows read with their users (and, for queues and tokens, their cluster) populated. */
const clusterRecord = (row: ClusterRow): ClusterRecord => ({
  cluster: toCluster(row),
  createdBy: row.createdBy ? toUser(row.createdBy) : null,
});
const queueRecord = (row: QueueRow): ClusterQueueRecord => ({
  queue: toClusterQueue(row),
  cluster: toCluster(row.cluster),
  createdBy: row.createdBy ? toUser(row.createdBy) : null,
  dispatchPausedBy: row.dispatchPausedBy ? toUser(row.dispatchPausedBy) : null,
});
const tokenRecord = (row: TokenRow): ClusterTokenRecord => ({
  token: toClusterToken(row),
  cluster: toCluster(row.cluster),
  createdBy: row.createdBy ? toUser(row.createdBy) : null,
});

/** Locks the cluster's row: deletes, default-queue changes and new queues of one cluster take turns. */
async function lockCluster(em: EntityManager, id: string): Promise<boolean> {
  // A statement of the query builder: a managed entity would be flushed back at commit.
  const locked = await converted(
    em,
    em
      .createQueryBuilder(ClusterEntity)
      .select('id')
      .where({ id })
      .setLockMode(LockMode.PESSIMISTIC_WRITE)
      .execute('get'),
  );
  return locked !== undefined && locked !== null;
}

/** How many queues (tokens) each cluster has, in one grouped count; clusters without any are left out. */
async function countsOf(
  em: EntityManager,
  entity: typeof ClusterQueueEntity | typeof ClusterTokenEntity,
  clusterIds: readonly string[],
): Promise<ParentCount[]> {
  if (clusterIds.length === 0) return [];
  const counts = await em.countBy(entity as typeof ClusterQueueEntity, 'cluster', {
    where: { cluster: { $in: [...clusterIds] } },
  });
  return Object.entries(counts).map(([parentId, count]) => ({ parentId, count }));
}

export function clusterRepository(entityManager: EntityManagerSource): ClusterRepository {
  return {
    async findCluster(organizationId, clusterId) {
      const row = await entityManager().findOne(
        ClusterEntity,
        { id: clusterId, organization: organizationId },
        { populate: CLUSTER_USERS, refresh: true },
      );
      return row ? clusterRecord(row) : null;
    },
    async listClusters({ organizationId, offset, limit }) {
      const rows = await entityManager().find(
        ClusterEntity,
        { organization: organizationId },
        { populate: CLUSTER_USERS, orderBy: ORDER, offset, limit },
      );
      return rows.map(clusterRecord);
    },
    countClusters: (organizationId) => entityManager().count(ClusterEntity, { organization: organizationId }),
    async insertCluster({ organizationId, defaultQueueId, createdById, ...cluster }) {
      await entityManager().insert(ClusterEntity, {
        ...cluster,
        organization: organizationId,
        defaultQueue: defaultQueueId,
        createdBy: createdById,
      });
    },
    async updateCluster({ id, changes: { defaultQueueId, ...changes } }) {
      return entityManager().transactional(async (em) => {
        if (defaultQueueId) {
          // The queue's row lock keeps it from being deleted before this commits.
          const queue = await converted(
            em,
            em
              .createQueryBuilder(ClusterQueueEntity)
              .select('id')
              .where({ id: defaultQueueId, cluster: id })
              .setLockMode(LockMode.PESSIMISTIC_READ)
              .execute('get'),
          );
          if (!queue) return 'queue_not_found';
        }
        const row = await updateReturning(
          em,
          ClusterEntity,
          { id },
          {
            ...changes,
            ...(defaultQueueId !== undefined && { defaultQueue: defaultQueueId }),
          },
        );
        if (!row) return 'not_found';
        await em.populate(row, CLUSTER_USERS);
        return clusterRecord(row);
      });
    },
    async deleteCluster(id) {
      const inUse = async (em: EntityManager) => {
        const [pipelines, agents] = await Promise.all([
          em.count(PipelineEntity, { cluster: id }),
          em.count(AgentEntity, { cluster: id, connectionState: { $nin: [...GONE_AGENT_STATES] } }),
        ]);
        return { pipelines, agents };
      };
      try {
        return await entityManager().transactional(async (em) => {
          // New pipelines and agents of the cluster wait for this lock (their foreign key check shares
          // the row); agents that have gone stay, unclustered (`on delete set null`).
          if (!(await lockCluster(em, id))) return 'not_found' as const;
          const use = await inUse(em);
          if (use.pipelines > 0 || use.agents > 0) return use;
          await em.nativeDelete(ClusterEntity, { id });
          return 'deleted' as const;
        });
      } catch (error) {
        if (!violates(error, ForeignKeyConstraintViolationException, PIPELINES_CONSTRAINT)) throw error;
        return inUse(entityManager());
      }
    },
    async placement(clusterId) {
      const em = entityManager();
      const [cluster, queues] = await Promise.all([
        em.findOne(ClusterEntity, { id: clusterId }, { fields: ['name', 'defaultQueue'], refresh: true }),
        em.find(ClusterQueueEntity, { cluster: clusterId }, { fields: ['key'] }),
      ]);
      if (!cluster) return null;
      return {
        clusterId,
        name: cluster.name,
        defaultQueueId: cluster.defaultQueue?.id ?? null,
        queueIds: new Map(queues.map((queue) => [queue.key, queue.id])),
      };
    },
    async findTokenByHash(hash) {
      const row = await entityManager().findOne(
        ClusterTokenEntity,
        { tokenHash: hash },
        { populate: ['cluster'], refresh: true },
      );
      return row ? { token: toClusterToken(row), cluster: toCluster(row.cluster) } : null;
    },
    countPipelines: (clusterId) => entityManager().count(PipelineEntity, { cluster: clusterId }),

    async findQueue(clusterId, queueId) {
      const row = await entityManager().findOne(
        ClusterQueueEntity,
        { id: queueId, cluster: clusterId },
        { populate: QUEUE_PARTS, refresh: true },
      );
      return row ? queueRecord(row) : null;
    },
    async listQueues({ clusterId, offset, limit }) {
      const rows = await entityManager().find(
        ClusterQueueEntity,
        { cluster: clusterId },
        { populate: QUEUE_PARTS, orderBy: ORDER, offset, limit },
      );
      return rows.map(queueRecord);
    },
    countQueues: (clusterId) => entityManager().count(ClusterQueueEntity, { cluster: clusterId }),
    async insertQueue({ clusterId, createdById, dispatchPausedById, ...queue }) {
      try {
        return await entityManager().transactional(async (em) => {
          if (!(await lockCluster(em, clusterId))) return 'cluster_not_found' as const;
          await em.insert(ClusterQueueEntity, {
            ...queue,
            cluster: clusterId,
            createdBy: createdById,
            dispatchPausedBy: dispatchPausedById,
          });
          // The cluster's first queue becomes its default.
          await em.nativeUpdate(
            ClusterEntity,
            { id: clusterId, defaultQueue: null },
            { defaultQueue: queue.id },
          );
          return 'inserted' as const;
        });
      } catch (error) {
        if (keyTaken(error)) return 'key_taken';
        if (clusterGone(error, 'cluster_queues')) return 'cluster_not_found';
        throw error;
      }
    },
    async updateQueue({ id, changes: { dispatchPausedById, ...changes } }) {
      const em = entityManager();
      const row = await updateReturning(
        em,
        ClusterQueueEntity,
        { id },
        {
          ...changes,
          ...(dispatchPausedById !== undefined && { dispatchPausedBy: dispatchPausedById }),
        },
      );
      if (!row) return 'not_found';
      await em.populate(row, QUEUE_PARTS, { refresh: true });
      return queueRecord(row);
    },
    async deleteQueue(clusterId, queueId) {
      return (
        (await entityManager().nativeDelete(ClusterQueueEntity, { id: queueId, cluster: clusterId })) > 0
      );
    },

    async findToken(clusterId, tokenId) {
      const row = await entityManager().findOne(
        ClusterTokenEntity,
        { id: tokenId, cluster: clusterId },
        { populate: TOKEN_PARTS, refresh: true },
      );
      return row ? tokenRecord(row) : null;
    },
    async listTokens({ clusterId, offset, limit }) {
      const rows = await entityManager().find(
        ClusterTokenEntity,
        { cluster: clusterId },
        { populate: TOKEN_PARTS, orderBy: ORDER, offset, limit },
      );
      return rows.map(tokenRecord);
    },
    countTokens: (clusterId) => entityManager().count(ClusterTokenEntity, { cluster: clusterId }),
    async insertToken({ clusterId, createdById, ...token }) {
      try {
        await entityManager().insert(ClusterTokenEntity, {
          ...token,
          cluster: clusterId,
          createdBy: createdById,
        });
        return 'inserted';
      } catch (error) {
        if (clusterGone(error, 'cluster_tokens')) return 'cluster_not_found';
        throw error;
      }
    },
    async updateToken({ id, changes }) {
      const em = entityManager();
      const row = await updateReturning(em, ClusterTokenEntity, { id }, changes);
      if (!row) return 'not_found';
      await em.populate(row, TOKEN_PARTS);
      return tokenRecord(row);
    },
    async deleteToken(clusterId, tokenId) {
      return (
        (await entityManager().nativeDelete(ClusterTokenEntity, { id: tokenId, cluster: clusterId })) > 0
      );
    },

    async listQueuesOfClusters(windows) {
      if (windows.every((window) => window.limit === 0)) return [];
      const rows = await entityManager().find(
        ClusterQueueEntity,
        {
          [inParentWindows(
            windows,
            `select q.id from cluster_queues q where q.cluster_id = w.parent_id
             order by q.created_at, q.id offset w.off limit w.lim`,
          )]: [],
        },
        { populate: QUEUE_PARTS, orderBy: ORDER },
      );
      return rows.map(queueRecord);
    },
    countQueuesOfClusters: (clusterIds) => countsOf(entityManager(), ClusterQueueEntity, clusterIds),
    async listTokensOfClusters(windows) {
      if (windows.every((window) => window.limit === 0)) return [];
      const rows = await entityManager().find(
        ClusterTokenEntity,
        {
          [inParentWindows(
            windows,
            `select t.id from cluster_tokens t where t.cluster_id = w.parent_id
             order by t.created_at, t.id offset w.off limit w.lim`,
          )]: [],
        },
        { populate: TOKEN_PARTS, orderBy: ORDER },
      );
      return rows.map(tokenRecord);
    },
    countTokensOfClusters: (clusterIds) => countsOf(entityManager(), ClusterTokenEntity, clusterIds),

    async clustersById(ids) {
      const rows = await entityManager().find(
        ClusterEntity,
        { id: { $in: [...ids] } },
        { populate: CLUSTER_USERS },
      );
      return rows.map(clusterRecord);
    },
    async queuesById(ids) {
      const rows = await entityManager().find(
        ClusterQueueEntity,
        { id: { $in: [...ids] } },
        { populate: QUEUE_PARTS },
      );
      return rows.map(queueRecord);
    },
    async tokensById(ids) {
      const rows = await entityManager().find(
        ClusterTokenEntity,
        { id: { $in: [...ids] } },
        { populate: TOKEN_PARTS },
      );
      return rows.map(tokenRecord);
    },
  };
}
