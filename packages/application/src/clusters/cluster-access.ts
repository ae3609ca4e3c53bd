import {
  forbidden,
  isUuid,
  mayManageClusters,
  notFound,
  type Operation,
  pipelineClusterUnknown,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization } from '../auth/authorize';
import type { Deps, OrganizationAccess } from '../ports';
import type { ClusterRef, ClusterView } from './cluster-views';

/**
 * Decides, in this order: the scope, the organization (404), the cluster (404, also for a cluster of
 * another organization or a path that is no UUID), then whether the role may change it (admins only:
 * 403 `Forbidden`). Reading needs membership alone.
 */
export const requireCluster =
  (deps: Deps) =>
  async (
    actor: Actor,
    operation: Operation,
    ref: ClusterRef,
    intent: 'read' | 'manage',
  ): Promise<OrganizationAccess & { view: ClusterView }> => {
    const access = await requireOrganization(deps)(actor, operation, ref.organization);
    const record = isUuid(ref.cluster)
      ? await deps.repos.clusters.findCluster(access.organization.id, ref.cluster.toLowerCase())
      : null;
    if (!record) throw notFound('cluster');
    if (intent === 'manage') requireManager(access);
    return { ...access, view: { ...record, organizationSlug: access.organization.slug } };
  };

/** Admins manage clusters; members may read them. */
export function requireManager(access: OrganizationAccess): void {
  if (!mayManageClusters(access.role)) throw forbidden();
}

/** A path UUID, lowercase; anything else names nothing. */
export function uuidOrNull(id: string): string | null {
  return isUuid(id) ? id.toLowerCase() : null;
}

/** A pipeline's `cluster_id` must name a cluster of its organization (422 otherwise); null names none. */
export async function requirePipelineCluster(
  deps: Deps,
  organizationId: string,
  clusterId: string | null | undefined,
): Promise<void> {
  if (!clusterId) return;
  if (!(await deps.repos.clusters.findCluster(organizationId, clusterId))) {
    throw pipelineClusterUnknown(clusterId);
  }
}
