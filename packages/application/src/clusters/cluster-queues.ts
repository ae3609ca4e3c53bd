import {
  type ClusterQueue,
  clusterQueueKeyTaken,
  notFound,
  readPauseNote,
  validateClusterQueueInput,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { ClusterQueueWrite, Deps } from '../ports';
import { requireCluster, uuidOrNull } from './cluster-access';
import type { ClusterPage, ClusterQueueRef, ClusterQueueView, ClusterRef } from './cluster-views';

/** A cluster's queues, oldest first. */
export const listClusterQueues =
  (deps: Deps) =>
  async (actor: Actor, ref: ClusterRef, page: Page | RowWindow): Promise<ClusterPage<ClusterQueueView>> => {
    const { view } = await requireCluster(deps)(actor, 'listClusterQueues', ref, 'read');
    const clusterId = view.cluster.id;
    const [records, totalCount] = await Promise.all([
      deps.repos.clusters.listQueues({ clusterId, ...pageWindow(page) }),
      deps.repos.clusters.countQueues(clusterId),
    ]);
    return {
      items: records.map((record) => ({ ...record, organizationSlug: view.organizationSlug })),
      totalCount,
    };
  };

export const getClusterQueue =
  (deps: Deps) =>
  async (actor: Actor, ref: ClusterQueueRef): Promise<ClusterQueueView> =>
    requireQueue(deps, actor, 'getClusterQueue', ref, 'read');

/** The cluster's first queue becomes its default. */
export const createClusterQueue =
  (deps: Deps) =>
  async (actor: Actor, ref: ClusterRef, body: unknown): Promise<ClusterQueueView> => {
    const { view } = await requireCluster(deps)(actor, 'createClusterQueue', ref, 'manage');
    const input = validateClusterQueueInput(body, { creating: true });
    if (!input.ok) throw input.error;
    const queue: ClusterQueue = {
      ...input.value,
      id: deps.newId(),
      clusterId: view.cluster.id,
      dispatchPausedAt: null,
      dispatchPausedById: null,
      dispatchPausedNote: null,
      createdById: actor.user.id,
      createdAt: deps.clock.now(),
    };
    const inserted = await deps.repos.clusters.insertQueue(queue);
    if (inserted === 'key_taken') throw clusterQueueKeyTaken();
    if (inserted === 'cluster_not_found') throw notFound('cluster');
    const cluster = view.cluster.defaultQueueId
      ? view.cluster
      : { ...view.cluster, defaultQueueId: queue.id };
    return {
      queue,
      cluster,
      createdBy: actor.user,
      dispatchPausedBy: null,
      organizationSlug: view.organizationSlug,
    };
  };

/** Changes the description (and hosted-agent settings); the key is fixed at creation. */
export const updateClusterQueue =
  (deps: Deps) =>
  async (actor: Actor, ref: ClusterQueueRef, body: unknown): Promise<ClusterQueueView> => {
    const current = await requireQueue(deps, actor, 'updateClusterQueue', ref, 'manage');
    const changes = validateClusterQueueInput(body, { creating: false });
    if (!changes.ok) throw changes.error;
    if (Object.keys(changes.value).length === 0) return current;
    return writeQueue(deps, current, changes.value);
  };

export const deleteClusterQueue =
  (deps: Deps) =>
  async (actor: Actor, ref: ClusterQueueRef): Promise<void> => {
    const current = await requireQueue(deps, actor, 'deleteClusterQueue', ref, 'manage');
    if (!(await deps.repos.clusters.deleteQueue(current.cluster.id, current.queue.id))) {
      throw notFound('cluster_queue');
    }
  };

/**
 * Pauses dispatch with an optional note; pausing a paused queue keeps who paused it first and when, and
 * takes the new note. The queue's agents then take no new job until it is resumed.
 */
export const pauseClusterQueueDispatch =
  (deps: Deps) =>
  async (actor: Actor, ref: ClusterQueueRef, body: unknown): Promise<ClusterQueueView> => {
    const current = await requireQueue(deps, actor, 'pauseClusterQueueDispatch', ref, 'manage');
    const note = readPauseNote(body);
    if (!note.ok) throw note.error;
    const paused = current.queue.dispatchPausedAt !== null;
    return writeQueue(deps, current, {
      dispatchPausedAt: paused ? current.queue.dispatchPausedAt : deps.clock.now(),
      dispatchPausedById: paused ? current.queue.dispatchPausedById : actor.user.id,
      dispatchPausedNote: note.value,
    });
  };

export const resumeClusterQueueDispatch =
  (deps: Deps) =>
  async (actor: Actor, ref: ClusterQueueRef): Promise<ClusterQueueView> => {
    const current = await requireQueue(deps, actor, 'resumeClusterQueueDispatch', ref, 'manage');
    return writeQueue(deps, current, {
      dispatchPausedAt: null,
      dispatchPausedById: null,
      dispatchPausedNote: null,
    });
  };

async function requireQueue(
  deps: Deps,
  actor: Actor,
  operation: Parameters<ReturnType<typeof requireCluster>>[1],
  ref: ClusterQueueRef,
  intent: 'read' | 'manage',
): Promise<ClusterQueueView> {
  const { view } = await requireCluster(deps)(actor, operation, ref, intent);
  const queueId = uuidOrNull(ref.queue);
  const record = queueId ? await deps.repos.clusters.findQueue(view.cluster.id, queueId) : null;
  if (!record) throw notFound('cluster_queue');
  return { ...record, organizationSlug: view.organizationSlug };
}

async function writeQueue(
  deps: Deps,
  current: ClusterQueueView,
  changes: ClusterQueueWrite,
): Promise<ClusterQueueView> {
  const updated = await deps.repos.clusters.updateQueue({ id: current.queue.id, changes });
  // Deleted between the read and the write.
  if (updated === 'not_found') throw notFound('cluster_queue');
  return { ...updated, organizationSlug: current.organizationSlug };
}
