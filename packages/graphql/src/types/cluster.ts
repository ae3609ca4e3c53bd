import type { ClusterQueueView, ClusterTokenView, ClusterView } from '@ci/application';
import { decodeGraphqlId, hasScope } from '@ci/domain';
import { builder, type GraphqlContext } from '../builder';
import { OrganizationRef, organizationOf } from './organization';
import { AgentRef } from './refs';
import { ConnectionInterface } from './scalars';
import { UserRef } from './user';

export const ClusterRef = builder.objectRef<ClusterView>('Cluster');
export const ClusterQueueRef = builder.objectRef<ClusterQueueView>('ClusterQueue');
export const ClusterTokenRef = builder.objectRef<ClusterTokenView>('ClusterToken');

/** The cluster of a queue or token the actor sees, as a cluster the actor sees. */
const clusterOf = ({ cluster, organizationSlug }: ClusterQueueView | ClusterTokenView): ClusterView => ({
  cluster,
  organizationSlug,
  // The creator of the cluster itself is read with the cluster.
  createdBy: null,
});

builder.node(ClusterRef, {
  description: 'A cluster of agents: its queues and the tokens its agents register with',
  id: { resolve: ({ cluster }) => cluster.id },
  fields: (t) => ({
    uuid: t.id({ nullable: false, resolve: ({ cluster }) => cluster.id }),
    name: t.string({ nullable: false, resolve: ({ cluster }) => cluster.name }),
    description: t.string({ nullable: true, resolve: ({ cluster }) => cluster.description }),
    emoji: t.string({ nullable: true, resolve: ({ cluster }) => cluster.emoji }),
    color: t.string({ nullable: true, resolve: ({ cluster }) => cluster.color }),
    createdBy: t.field({
      type: UserRef,
      nullable: true,
      resolve: async (view, _args, ctx) =>
        view.createdBy ?? (await ctx.loaders.clusters.load(view.cluster.id))?.createdBy ?? null,
    }),
    defaultQueue: t.field({
      type: ClusterQueueRef,
      nullable: true,
      description: 'The queue jobs without a queue go to (stored: dispatch does not use it yet)',
      resolve: ({ cluster }, _args, ctx) =>
        cluster.defaultQueueId ? ctx.loaders.clusterQueues.load(cluster.defaultQueueId) : null,
    }),
    organization: t.field({
      type: OrganizationRef,
      nullable: true,
      resolve: ({ cluster }, _args, ctx) => organizationOf(cluster.organizationId, ctx),
    }),
  }),
});

builder.node(ClusterQueueRef, {
  description: 'A queue of a cluster',
  id: { resolve: ({ queue }) => queue.id },
  fields: (t) => ({
    uuid: t.id({ nullable: false, resolve: ({ queue }) => queue.id }),
    key: t.string({ nullable: false, resolve: ({ queue }) => queue.key }),
    description: t.string({ nullable: true, resolve: ({ queue }) => queue.description }),
    cluster: t.field({ type: ClusterRef, nullable: true, resolve: clusterOf }),
    createdBy: t.field({ type: UserRef, nullable: true, resolve: ({ createdBy }) => createdBy }),
    dispatchPaused: t.boolean({
      nullable: false,
      description: 'Whether dispatch is paused: its agents take no new job until it resumes',
      resolve: ({ queue }) => queue.dispatchPausedAt !== null,
    }),
    dispatchPausedAt: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: ({ queue }) => queue.dispatchPausedAt,
    }),
    dispatchPausedBy: t.field({
      type: UserRef,
      nullable: true,
      resolve: ({ dispatchPausedBy }) => dispatchPausedBy,
    }),
    dispatchPausedNote: t.string({ nullable: true, resolve: ({ queue }) => queue.dispatchPausedNote }),
    hosted: t.boolean({
      nullable: false,
      description: 'Always false: there are no hosted agents here',
      resolve: () => false,
    }),
    retryAgentAffinity: t.string({ nullable: false, resolve: ({ queue }) => queue.retryAgentAffinity }),
  }),
});

builder.node(ClusterTokenRef, {
  description: "A token agents register with in a cluster (its value is shown once, by the create's payload)",
  id: { resolve: ({ token }) => token.id },
  fields: (t) => ({
    uuid: t.id({ nullable: false, resolve: ({ token }) => token.id }),
    description: t.string({ nullable: true, resolve: ({ token }) => token.description }),
    allowedIpAddresses: t.string({ nullable: true, resolve: ({ token }) => token.allowedIpAddresses }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, resolve: ({ token }) => token.expiresAt }),
    cluster: t.field({ type: ClusterRef, nullable: true, resolve: clusterOf }),
    createdBy: t.field({ type: UserRef, nullable: true, resolve: ({ createdBy }) => createdBy }),
  }),
});

export const ClusterConnection = builder.connectionObject(
  { type: ClusterRef, name: 'ClusterConnection', interfaces: [ConnectionInterface] },
  { name: 'ClusterEdge' },
);
export const ClusterQueueConnection = builder.connectionObject(
  { type: ClusterQueueRef, name: 'ClusterQueueConnection', interfaces: [ConnectionInterface] },
  { name: 'ClusterQueueEdge' },
);
export const ClusterAgentTokenConnection = builder.connectionObject(
  { type: ClusterTokenRef, name: 'ClusterAgentTokenConnection', interfaces: [ConnectionInterface] },
  { name: 'ClusterAgentTokenEdge' },
);

builder.objectField(ClusterRef, 'queues', (t) =>
  t.connection(
    {
      type: ClusterQueueRef,
      description:
        "The cluster's queues, oldest first (as the REST list), read for a page of clusters at once",
      resolve: ({ cluster }, args, ctx, info) =>
        ctx.loaders
          .connection({
            field: 'Cluster.queues',
            args,
            info,
            idOf: (id: string) => id,
            read: (requests) => ctx.useCases.byId.queuesOfClusters(ctx.actor, requests),
          })
          .load(cluster.id),
    },
    ClusterQueueConnection,
  ),
);

// The public schema pages a cluster's tokens by `first` and `last` only.
builder.objectField(ClusterRef, 'agentTokens', (t) =>
  t.field({
    type: ClusterAgentTokenConnection,
    nullable: true,
    description: "The cluster's agent tokens, oldest first (as the REST list)",
    args: { first: t.arg.int(), last: t.arg.int() },
    resolve: ({ cluster }, args, ctx, info) =>
      ctx.loaders
        .connection({
          field: 'Cluster.agentTokens',
          args,
          info,
          idOf: (id: string) => id,
          read: (requests) => ctx.useCases.byId.tokensOfClusters(ctx.actor, requests),
        })
        .load(cluster.id),
  }),
);

builder.objectField(OrganizationRef, 'clusters', (t) =>
  t.connection(
    {
      type: ClusterRef,
      description: "The organization's clusters, oldest first (as the REST list)",
      resolve: (organization, args, ctx) =>
        ctx.loaders.list({
          field: 'Organization.clusters',
          parentId: organization.id,
          args,
          read: (window) => ctx.useCases.listClusters(ctx.actor, organization.slug, window),
        }),
    },
    ClusterConnection,
  ),
);

builder.objectField(OrganizationRef, 'cluster', (t) =>
  t.field({
    type: ClusterRef,
    nullable: true,
    description: "One of the organization's clusters, by UUID (or its GraphQL ID)",
    args: { id: t.arg.id({ required: true }) },
    resolve: (organization, { id }, ctx) => {
      const decoded = decodeGraphqlId(String(id));
      const clusterId = decoded?.type === 'Cluster' ? decoded.id : String(id);
      return ctx.useCases.byId.findClusterOfOrganization(ctx.actor, {
        organizationSlug: organization.slug,
        clusterId,
      });
    },
  }),
);

/** A job's or agent's cluster queue, as the viewer may see it; null for a token without `read_clusters`. */
export function clusterQueueOf(queueId: string | null, ctx: GraphqlContext) {
  if (!queueId || !hasScope(ctx.actor.scopes, 'read_clusters')) return null;
  return ctx.loaders.clusterQueues.load(queueId);
}

builder.objectField(AgentRef, 'clusterQueue', (t) =>
  t.field({
    type: ClusterQueueRef,
    nullable: true,
    description:
      "The cluster queue the agent takes jobs from (its cluster token's); null: unclustered, or the token may not read clusters",
    resolve: (agent, _args, ctx) => clusterQueueOf(agent.clusterQueueId, ctx),
  }),
);
