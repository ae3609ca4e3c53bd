import type { ClusterQueueView, ClusterTokenView, ClusterView } from '@ci/application';
import { type Cluster, encodeGraphqlId, formatTimestamp, webAddresses } from '@ci/domain';
import { apiAddresses } from '../api-addresses';
import type { PublicUrls } from '../trpc';
import { presentUser } from '../users/user.presenter';
import type { ClusterQueueWire, ClusterTokenWire, ClusterWire } from './cluster.wire';

/**
 * The wire forms of clusters, queues and tokens (REST and tRPC), as recorded from the public API, on
 * the configured API and web URLs. `avatars` remembers avatar addresses for a page of them.
 */
export function presentCluster(
  { cluster, createdBy, organizationSlug }: ClusterView,
  urls: PublicUrls,
  avatars = new Map<string, string>(),
): ClusterWire {
  const url = clusterUrl(urls, organizationSlug, cluster);
  return {
    id: cluster.id,
    graphql_id: encodeGraphqlId('Cluster', cluster.id),
    default_queue_id: cluster.defaultQueueId,
    name: cluster.name,
    description: cluster.description,
    emoji: cluster.emoji,
    color: cluster.color,
    url,
    web_url: webAddresses.cluster(urls.web, organizationSlug, cluster.id),
    queues_url: `${url}/queues`,
    default_queue_url: cluster.defaultQueueId ? `${url}/queues/${cluster.defaultQueueId}` : null,
    created_at: formatTimestamp(cluster.createdAt),
    created_by: createdBy ? presentUser(createdBy, avatars) : null,
  };
}

export function presentClusterQueue(
  { queue, cluster, createdBy, dispatchPausedBy, organizationSlug }: ClusterQueueView,
  urls: PublicUrls,
  avatars = new Map<string, string>(),
): ClusterQueueWire {
  const cluster_url = clusterUrl(urls, organizationSlug, cluster);
  return {
    id: queue.id,
    graphql_id: encodeGraphqlId('ClusterQueue', queue.id),
    key: queue.key,
    description: queue.description,
    url: `${cluster_url}/queues/${queue.id}`,
    web_url: `${webAddresses.cluster(urls.web, organizationSlug, cluster.id)}/queues/${queue.id}`,
    cluster_url,
    dispatch_paused: queue.dispatchPausedAt !== null,
    dispatch_paused_by: dispatchPausedBy ? presentUser(dispatchPausedBy, avatars) : null,
    dispatch_paused_at: formatTimestamp(queue.dispatchPausedAt),
    dispatch_paused_note: queue.dispatchPausedNote,
    created_at: formatTimestamp(queue.createdAt),
    created_by: createdBy ? presentUser(createdBy, avatars) : null,
  };
}

export function presentClusterToken(
  { token, cluster, createdBy, organizationSlug, secret }: ClusterTokenView,
  urls: PublicUrls,
  avatars = new Map<string, string>(),
): ClusterTokenWire {
  const cluster_url = clusterUrl(urls, organizationSlug, cluster);
  return {
    id: token.id,
    graphql_id: encodeGraphqlId('ClusterToken', token.id),
    description: token.description,
    url: `${cluster_url}/tokens/${token.id}`,
    cluster_url,
    created_at: formatTimestamp(token.createdAt),
    created_by: createdBy ? presentUser(createdBy, avatars) : null,
    ...(secret !== undefined && { token: secret }),
    allowed_ip_addresses: token.allowedIpAddresses,
  };
}

/** A page shares one map of avatar addresses. */
export function presentEach<V, W>(
  views: readonly V[],
  present: (view: V, urls: PublicUrls, avatars: Map<string, string>) => W,
  urls: PublicUrls,
): W[] {
  const avatars = new Map<string, string>();
  return views.map((view) => present(view, urls, avatars));
}

function clusterUrl(urls: PublicUrls, organizationSlug: string, cluster: Cluster): string {
  return apiAddresses.cluster(urls.api, organizationSlug, cluster.id);
}
