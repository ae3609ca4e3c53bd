import {
  type Cluster,
  clusterDefaultQueueUnknown,
  clusterInUse,
  notFound,
  validateClusterInput,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization } from '../auth/authorize';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { Deps } from '../ports';
import { requireCluster, requireManager } from './cluster-access';
import type { ClusterPage, ClusterRef, ClusterView } from './cluster-views';

/** An organization's clusters, oldest first, so pages stay put while clusters are renamed. */
export const listClusters =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationSlug: string,
    page: Page | RowWindow,
  ): Promise<ClusterPage<ClusterView>> => {
    const { organization } = await requireOrganization(deps)(actor, 'listClusters', organizationSlug);
    const [records, totalCount] = await Promise.all([
      deps.repos.clusters.listClusters({ organizationId: organization.id, ...pageWindow(page) }),
      deps.repos.clusters.countClusters(organization.id),
    ]);
    return {
      items: records.map((record) => ({ ...record, organizationSlug: organization.slug })),
      totalCount,
    };
  };

export const getCluster =
  (deps: Deps) =>
  async (actor: Actor, ref: ClusterRef): Promise<ClusterView> =>
    (await requireCluster(deps)(actor, 'getCluster', ref, 'read')).view;

/** A new cluster has no queue (as the public API's create answers `default_queue_id: null`). */
export const createCluster =
  (deps: Deps) =>
  async (actor: Actor, organizationSlug: string, body: unknown): Promise<ClusterView> => {
    const access = await requireOrganization(deps)(actor, 'createCluster', organizationSlug);
    requireManager(access);
    const input = validateClusterInput(body, { creating: true });
    if (!input.ok) throw input.error;
    const cluster: Cluster = {
      ...input.value,
      id: deps.newId(),
      organizationId: access.organization.id,
      defaultQueueId: null,
      createdById: actor.user.id,
      createdAt: deps.clock.now(),
    };
    await deps.repos.clusters.insertCluster(cluster);
    return { cluster, createdBy: actor.user, organizationSlug: access.organization.slug };
  };

/** Changes what the body names; `default_queue_id` must name a queue of this cluster (null: none). */
export const updateCluster =
  (deps: Deps) =>
  async (actor: Actor, ref: ClusterRef, body: unknown): Promise<ClusterView> => {
    const { view } = await requireCluster(deps)(actor, 'updateCluster', ref, 'manage');
    const changes = validateClusterInput(body, { creating: false });
    if (!changes.ok) throw changes.error;
    if (Object.keys(changes.value).length === 0) return view;
    const updated = await deps.repos.clusters.updateCluster({ id: view.cluster.id, changes: changes.value });
    if (updated === 'queue_not_found') throw clusterDefaultQueueUnknown();
    // Deleted between the read and the write.
    if (updated === 'not_found') throw notFound('cluster');
    return { ...updated, organizationSlug: view.organizationSlug };
  };

/**
 * Deletes the cluster with its queues and tokens, unless pipelines still use it or connected agents are
 * still in it (422 naming how many).
 */
export const deleteCluster =
  (deps: Deps) =>
  async (actor: Actor, ref: ClusterRef): Promise<void> => {
    const { view } = await requireCluster(deps)(actor, 'deleteCluster', ref, 'manage');
    const deleted = await deps.repos.clusters.deleteCluster(view.cluster.id);
    if (deleted === 'not_found') throw notFound('cluster');
    if (deleted !== 'deleted') throw clusterInUse(deleted);
  };
