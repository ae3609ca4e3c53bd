import {
  type DomainError,
  distinctUuids,
  isUuid,
  type NotFoundResource,
  notFound,
  type Operation,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireScope } from '../auth/authorize';
import { usableMemberships } from '../auth/usable-memberships';
import { type ListPart, type PartRequest, readParts } from '../page';
import type { Deps, OrganizationAccess, ParentCount, ParentWindow } from '../ports';
import {
  createClusterQueue,
  deleteClusterQueue,
  pauseClusterQueueDispatch,
  resumeClusterQueueDispatch,
  updateClusterQueue,
} from './cluster-queues';
import { createClusterToken, deleteClusterToken, updateClusterToken } from './cluster-tokens';
import type { ClusterQueueView, ClusterRef, ClusterTokenView, ClusterView } from './cluster-views';
import { createCluster, deleteCluster, getCluster, updateCluster } from './clusters';

/**
 * The cluster use cases for a transport that names objects by UUID (GraphQL): reads that decide
 * visibility for a batch (members of the organization see its clusters), and changes that find the REST
 * address among the actor's organizations and call the REST use case, so every rule is decided once. An
 * object of an organization the actor may not use, or of another organization than the one named,
 * answers as one that does not exist.
 */

/**
 * Reads by id, keeping those of the actor's organizations, in the order given (null for the others),
 * after the operation's scope (null: the caller has checked the scope of its own operation).
 */
async function visibleById<Record>(
  deps: Deps,
  actor: Actor,
  input: {
    operation: Operation | null;
    ids: readonly string[];
    read: (ids: string[]) => Promise<Record[]>;
    idOf: (record: Record) => string;
    organizationOf: (record: Record) => string;
  },
): Promise<Array<(Record & { organizationSlug: string }) | null>> {
  if (input.operation) requireScope(actor, input.operation);
  const wanted = distinctUuids(input.ids);
  const [records, memberships] = await Promise.all([
    wanted.length ? input.read(wanted) : Promise.resolve([]),
    usableMemberships(deps, actor),
  ]);
  const visible = new Map<string, Record & { organizationSlug: string }>();
  for (const record of records) {
    const membership = memberships.get(input.organizationOf(record));
    if (membership) {
      visible.set(input.idOf(record), { ...record, organizationSlug: membership.organization.slug });
    }
  }
  return input.ids.map((id) => visible.get(id.toLowerCase()) ?? null);
}

export const getClustersById =
  (deps: Deps, operation: Operation | null = 'getCluster') =>
  (actor: Actor, ids: readonly string[]): Promise<Array<ClusterView | null>> =>
    visibleById(deps, actor, {
      operation,
      ids,
      read: (wanted) => deps.repos.clusters.clustersById(wanted),
      idOf: (record) => record.cluster.id,
      organizationOf: (record) => record.cluster.organizationId,
    });

export const getClusterQueuesById =
  (deps: Deps, operation: Operation | null = 'getClusterQueue') =>
  (actor: Actor, ids: readonly string[]): Promise<Array<ClusterQueueView | null>> =>
    visibleById(deps, actor, {
      operation,
      ids,
      read: (wanted) => deps.repos.clusters.queuesById(wanted),
      idOf: (record) => record.queue.id,
      organizationOf: (record) => record.cluster.organizationId,
    });

export const getClusterTokensById =
  (deps: Deps, operation: Operation | null = 'getClusterToken') =>
  (actor: Actor, ids: readonly string[]): Promise<Array<ClusterTokenView | null>> =>
    visibleById(deps, actor, {
      operation,
      ids,
      read: (wanted) => deps.repos.clusters.tokensById(wanted),
      idOf: (record) => record.token.id,
      organizationOf: (record) => record.cluster.organizationId,
    });

/** The organization the actor may use with this UUID; anything else answers `No organization found`. */
async function usableOrganization(
  deps: Deps,
  actor: Actor,
  organizationId: string | null,
): Promise<OrganizationAccess> {
  const memberships = await usableMemberships(deps, actor);
  const membership = organizationId ? memberships.get(organizationId.toLowerCase()) : undefined;
  if (!membership) throw notFound('organization');
  return membership;
}

/**
 * The REST address of an object by UUID (of the organization `organizationId` names, when one is
 * named), after the operation's scope.
 */
async function addressOf<View extends { cluster: { id: string; organizationId: string } }>(
  actor: Actor,
  input: {
    operation: Operation;
    organizationId?: string | null;
    id: string | null;
    read: (ids: readonly string[]) => Promise<Array<View | null>>;
    resource: NotFoundResource;
  },
): Promise<View & { organizationSlug: string }> {
  requireScope(actor, input.operation);
  const [found] = input.id && isUuid(input.id) ? await input.read([input.id]) : [null];
  const sameOrganization =
    input.organizationId === undefined ||
    found?.cluster.organizationId === input.organizationId?.toLowerCase();
  if (!found || !sameOrganization) throw notFound(input.resource);
  return found as View & { organizationSlug: string };
}

const refOf = (view: ClusterView | ClusterQueueView | ClusterTokenView): ClusterRef => ({
  organization: view.organizationSlug,
  cluster: view.cluster.id,
});

export const createClusterInOrganizationId =
  (deps: Deps) =>
  async (actor: Actor, organizationId: string | null, body: unknown): Promise<ClusterView> => {
    requireScope(actor, 'createCluster');
    const { organization } = await usableOrganization(deps, actor, organizationId);
    return createCluster(deps)(actor, organization.slug, body);
  };

const clusterAddress =
  (deps: Deps) =>
  (actor: Actor, operation: Operation, organizationId: string | null, clusterId: string | null) =>
    addressOf(actor, {
      operation,
      organizationId,
      id: clusterId,
      read: (ids) => getClustersById(deps, null)(actor, ids),
      resource: 'cluster',
    });

export const updateClusterById =
  (deps: Deps) =>
  async (
    actor: Actor,
    input: { organizationId: string | null; clusterId: string | null; body: unknown },
  ): Promise<ClusterView> => {
    const view = await clusterAddress(deps)(actor, 'updateCluster', input.organizationId, input.clusterId);
    return updateCluster(deps)(actor, refOf(view), input.body);
  };

export const deleteClusterById =
  (deps: Deps) =>
  async (
    actor: Actor,
    input: { organizationId: string | null; clusterId: string | null },
  ): Promise<string> => {
    const view = await clusterAddress(deps)(actor, 'deleteCluster', input.organizationId, input.clusterId);
    await deleteCluster(deps)(actor, refOf(view));
    return view.cluster.id;
  };

/** `Organization.cluster(id:)`: one of the organization's clusters by UUID, with REST's refusals. */
export const findClusterOfOrganization =
  (deps: Deps) =>
  (actor: Actor, input: { organizationSlug: string; clusterId: string }): Promise<ClusterView> =>
    getCluster(deps)(actor, { organization: input.organizationSlug, cluster: input.clusterId });

export const createClusterQueueInClusterId =
  (deps: Deps) =>
  async (
    actor: Actor,
    input: { organizationId: string | null; clusterId: string | null; body: unknown },
  ): Promise<ClusterQueueView> => {
    const view = await clusterAddress(deps)(
      actor,
      'createClusterQueue',
      input.organizationId,
      input.clusterId,
    );
    return createClusterQueue(deps)(actor, refOf(view), input.body);
  };

const queueAddress =
  (deps: Deps) =>
  async (
    actor: Actor,
    operation: Operation,
    organizationId: string | null | undefined,
    queueId: string | null,
  ) => {
    const view = await addressOf(actor, {
      operation,
      organizationId,
      id: queueId,
      read: (ids) => getClusterQueuesById(deps, null)(actor, ids),
      resource: 'cluster_queue',
    });
    return { ...refOf(view), queue: view.queue.id };
  };

export const updateClusterQueueById =
  (deps: Deps) =>
  async (
    actor: Actor,
    input: { organizationId: string | null; queueId: string | null; body: unknown },
  ): Promise<ClusterQueueView> => {
    const ref = await queueAddress(deps)(actor, 'updateClusterQueue', input.organizationId, input.queueId);
    return updateClusterQueue(deps)(actor, ref, input.body);
  };

export const deleteClusterQueueById =
  (deps: Deps) =>
  async (actor: Actor, input: { organizationId: string | null; queueId: string | null }): Promise<string> => {
    const ref = await queueAddress(deps)(actor, 'deleteClusterQueue', input.organizationId, input.queueId);
    await deleteClusterQueue(deps)(actor, ref);
    return ref.queue;
  };

/** The public schema's pause and resume name the queue alone. */
export const pauseClusterQueueDispatchById =
  (deps: Deps) =>
  async (actor: Actor, input: { queueId: string | null; body: unknown }): Promise<ClusterQueueView> => {
    const ref = await queueAddress(deps)(actor, 'pauseClusterQueueDispatch', undefined, input.queueId);
    return pauseClusterQueueDispatch(deps)(actor, ref, input.body);
  };

export const resumeClusterQueueDispatchById =
  (deps: Deps) =>
  async (actor: Actor, input: { queueId: string | null }): Promise<ClusterQueueView> => {
    const ref = await queueAddress(deps)(actor, 'resumeClusterQueueDispatch', undefined, input.queueId);
    return resumeClusterQueueDispatch(deps)(actor, ref);
  };

export const createClusterTokenInClusterId =
  (deps: Deps) =>
  async (
    actor: Actor,
    input: { organizationId: string | null; clusterId: string | null; body: unknown },
  ): Promise<ClusterTokenView> => {
    const view = await clusterAddress(deps)(
      actor,
      'createClusterToken',
      input.organizationId,
      input.clusterId,
    );
    return createClusterToken(deps)(actor, refOf(view), input.body);
  };

const tokenAddress =
  (deps: Deps) =>
  async (actor: Actor, operation: Operation, organizationId: string | null, tokenId: string | null) => {
    const view = await addressOf(actor, {
      operation,
      organizationId,
      id: tokenId,
      read: (ids) => getClusterTokensById(deps, null)(actor, ids),
      resource: 'cluster_token',
    });
    return { ...refOf(view), token: view.token.id };
  };

export const updateClusterTokenById =
  (deps: Deps) =>
  async (
    actor: Actor,
    input: { organizationId: string | null; tokenId: string | null; body: unknown },
  ): Promise<ClusterTokenView> => {
    const ref = await tokenAddress(deps)(actor, 'updateClusterToken', input.organizationId, input.tokenId);
    return updateClusterToken(deps)(actor, ref, input.body);
  };

export const deleteClusterTokenById =
  (deps: Deps) =>
  async (actor: Actor, input: { organizationId: string | null; tokenId: string | null }): Promise<string> => {
    const ref = await tokenAddress(deps)(actor, 'deleteClusterToken', input.organizationId, input.tokenId);
    await deleteClusterToken(deps)(actor, ref);
    return ref.token;
  };

/**
 * The queues, or the agent tokens, of several clusters at once (GraphQL's `Cluster.queues` and
 * `Cluster.agentTokens` on a page of clusters), oldest first as the REST lists, with their rules: the
 * list's scope, and a cluster of an organization the actor may not use answers `No cluster found`.
 */
async function partsOfClusters<View extends { cluster: { id: string } }>(
  deps: Deps,
  actor: Actor,
  input: {
    operation: Operation;
    requests: readonly PartRequest[];
    list: (windows: readonly ParentWindow[]) => Promise<Array<Omit<View, 'organizationSlug'>>>;
    count: (clusterIds: string[]) => Promise<ParentCount[]>;
  },
): Promise<Array<ListPart<View & { organizationSlug: string }>>> {
  requireScope(actor, input.operation);
  const parentIds = input.requests.map((request) => request.parentId);
  const clusters = new Map(
    (await getClustersById(deps, null)(actor, parentIds))
      .filter((view) => view !== null)
      .map((view) => [view.cluster.id, view]),
  );
  const refusals = new Map<string, DomainError>(
    parentIds.filter((id) => !clusters.has(id)).map((id) => [id, notFound('cluster')]),
  );
  return readParts({
    requests: input.requests,
    refusals,
    list: async (windows) =>
      (await input.list(windows)).map((record) => ({
        ...(record as View),
        organizationSlug: clusters.get(record.cluster.id)?.organizationSlug ?? '',
      })),
    count: input.count,
    parentOf: (view) => view.cluster.id,
  });
}

export const listQueuesOfClusters =
  (deps: Deps) =>
  (actor: Actor, requests: readonly PartRequest[]): Promise<Array<ListPart<ClusterQueueView>>> =>
    partsOfClusters<ClusterQueueView>(deps, actor, {
      operation: 'listClusterQueues',
      requests,
      list: (windows) => deps.repos.clusters.listQueuesOfClusters(windows),
      count: (ids) => deps.repos.clusters.countQueuesOfClusters(ids),
    });

export const listTokensOfClusters =
  (deps: Deps) =>
  (actor: Actor, requests: readonly PartRequest[]): Promise<Array<ListPart<ClusterTokenView>>> =>
    partsOfClusters<ClusterTokenView>(deps, actor, {
      operation: 'listClusterTokens',
      requests,
      list: (windows) => deps.repos.clusters.listTokensOfClusters(windows),
      count: (ids) => deps.repos.clusters.countTokensOfClusters(ids),
    });
