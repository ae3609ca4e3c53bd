import { type ClusterToken, notFound, validateClusterTokenInput } from '@ci/domain';
import { generateAgentSecret, hashAgentSecret } from '../agents/agent-secrets';
import type { Actor } from '../auth/actor';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { Deps } from '../ports';
import { requireCluster, uuidOrNull } from './cluster-access';
import type { ClusterPage, ClusterRef, ClusterTokenRef, ClusterTokenView } from './cluster-views';

/** A cluster's agent tokens, oldest first; their secrets are never shown again. */
export const listClusterTokens =
  (deps: Deps) =>
  async (actor: Actor, ref: ClusterRef, page: Page | RowWindow): Promise<ClusterPage<ClusterTokenView>> => {
    const { view } = await requireCluster(deps)(actor, 'listClusterTokens', ref, 'read');
    const clusterId = view.cluster.id;
    const [records, totalCount] = await Promise.all([
      deps.repos.clusters.listTokens({ clusterId, ...pageWindow(page) }),
      deps.repos.clusters.countTokens(clusterId),
    ]);
    return {
      items: records.map((record) => ({ ...record, organizationSlug: view.organizationSlug })),
      totalCount,
    };
  };

export const getClusterToken =
  (deps: Deps) =>
  async (actor: Actor, ref: ClusterTokenRef): Promise<ClusterTokenView> =>
    requireToken(deps, actor, 'getClusterToken', ref, 'read');

/**
 * Makes a token agents will register with (an agent registration token's form, `bkrt_…`): shown once in
 * this answer, stored only as its SHA-256 like every other token; it registers agents into the cluster.
 */
export const createClusterToken =
  (deps: Deps) =>
  async (actor: Actor, ref: ClusterRef, body: unknown): Promise<ClusterTokenView> => {
    const { view } = await requireCluster(deps)(actor, 'createClusterToken', ref, 'manage');
    const input = validateClusterTokenInput(body, { creating: true });
    if (!input.ok) throw input.error;
    const secret = generateAgentSecret('registration');
    const token: ClusterToken = {
      ...input.value,
      id: deps.newId(),
      clusterId: view.cluster.id,
      tokenHash: hashAgentSecret(secret),
      createdById: actor.user.id,
      createdAt: deps.clock.now(),
    };
    if ((await deps.repos.clusters.insertToken(token)) === 'cluster_not_found') throw notFound('cluster');
    return {
      token,
      cluster: view.cluster,
      createdBy: actor.user,
      organizationSlug: view.organizationSlug,
      secret,
    };
  };

/** Changes the description and the allowed IP addresses. */
export const updateClusterToken =
  (deps: Deps) =>
  async (actor: Actor, ref: ClusterTokenRef, body: unknown): Promise<ClusterTokenView> => {
    const current = await requireToken(deps, actor, 'updateClusterToken', ref, 'manage');
    const changes = validateClusterTokenInput(body, { creating: false });
    if (!changes.ok) throw changes.error;
    if (Object.keys(changes.value).length === 0) return current;
    const updated = await deps.repos.clusters.updateToken({ id: current.token.id, changes: changes.value });
    if (updated === 'not_found') throw notFound('cluster_token');
    return { ...updated, organizationSlug: current.organizationSlug };
  };

/** Revokes the token by deleting it. */
export const deleteClusterToken =
  (deps: Deps) =>
  async (actor: Actor, ref: ClusterTokenRef): Promise<void> => {
    const current = await requireToken(deps, actor, 'deleteClusterToken', ref, 'manage');
    if (!(await deps.repos.clusters.deleteToken(current.cluster.id, current.token.id))) {
      throw notFound('cluster_token');
    }
  };

async function requireToken(
  deps: Deps,
  actor: Actor,
  operation: Parameters<ReturnType<typeof requireCluster>>[1],
  ref: ClusterTokenRef,
  intent: 'read' | 'manage',
): Promise<ClusterTokenView> {
  const { view } = await requireCluster(deps)(actor, operation, ref, intent);
  const tokenId = uuidOrNull(ref.token);
  const record = tokenId ? await deps.repos.clusters.findToken(view.cluster.id, tokenId) : null;
  if (!record) throw notFound('cluster_token');
  return { ...record, organizationSlug: view.organizationSlug };
}
