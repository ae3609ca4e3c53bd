import type { ClusterQueueRef, ClusterRef, ClusterTokenRef } from '@ci/application';
import { z } from 'zod';
import { documented, documentedList } from '../documented';
import { listPage } from '../pagination';
import { bodyOf, organizationSlug, pageParameters } from '../parameters';
import { authed, router } from '../trpc';
import { presentCluster, presentClusterQueue, presentClusterToken, presentEach } from './cluster.presenter';
import {
  ClusterQueueWire,
  ClusterTokenWire,
  ClusterWire,
  type CreateClusterQueueRequest,
  type CreateClusterRequest,
  type CreateClusterTokenRequest,
  type PauseClusterQueueRequest,
  type UpdateClusterQueueRequest,
  type UpdateClusterRequest,
  type UpdateClusterTokenRequest,
} from './cluster.wire';

const CLUSTERS = '/organizations/{organization}/clusters';
const CLUSTER = `${CLUSTERS}/{cluster}`;
const QUEUES = `${CLUSTER}/queues`;
const QUEUE = `${QUEUES}/{queue}`;
const TOKENS = `${CLUSTER}/tokens`;
const TOKEN = `${TOKENS}/{token}`;

const organization = organizationSlug;
const cluster = z.string().meta({ description: 'cluster UUID' });
const queue = z.string().meta({ description: 'queue UUID' });
const token = z.string().meta({ description: 'cluster token UUID' });

const ClusterKey = z.object({ organization, cluster });
const QueueKey = z.object({ organization, cluster, queue });
const TokenKey = z.object({ organization, cluster, token });

const CLUSTER_TAGS = ['Clusters'];
const QUEUE_TAGS = ['Cluster queues'];
const TOKEN_TAGS = ['Cluster tokens'];

const clustersRouter = router({
  list: authed
    .meta({
      openapi: { method: 'GET', path: CLUSTERS, tags: CLUSTER_TAGS, summary: 'List clusters' },
      operation: 'listClusters',
    })
    .input(z.object({ organization, ...pageParameters }))
    .output(documentedList(ClusterWire))
    .query(async ({ ctx, input }) => {
      const { items } = await listPage(ctx, input, (page) =>
        ctx.useCases.listClusters(ctx.actor, input.organization, page),
      );
      return presentEach(items, presentCluster, ctx.urls);
    }),

  get: authed
    .meta({
      openapi: { method: 'GET', path: CLUSTER, tags: CLUSTER_TAGS, summary: 'Get a cluster' },
      operation: 'getCluster',
    })
    .input(ClusterKey)
    .output(documented(ClusterWire))
    .query(async ({ ctx, input }) =>
      presentCluster(await ctx.useCases.getCluster(ctx.actor, input), ctx.urls),
    ),

  create: authed
    .meta({
      openapi: {
        method: 'POST',
        path: CLUSTERS,
        tags: CLUSTER_TAGS,
        summary: 'Create a cluster',
        description: 'Admins only. The new cluster has no queue: its first queue becomes its default.',
      },
      operation: 'createCluster',
      successStatus: 201,
      requestBody: 'CreateClusterRequest',
    })
    .input(bodyOf<{ organization: string }, CreateClusterRequest>(z.object({ organization })))
    .output(documented(ClusterWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, ...body } = input;
      return presentCluster(await ctx.useCases.createCluster(ctx.actor, organization, body), ctx.urls);
    }),

  update: authed
    .meta({
      openapi: { method: 'PATCH', path: CLUSTER, tags: CLUSTER_TAGS, summary: 'Update a cluster' },
      operation: 'updateCluster',
      requestBody: 'UpdateClusterRequest',
    })
    .input(bodyOf<ClusterRef, UpdateClusterRequest>(ClusterKey))
    .output(documented(ClusterWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, cluster, ...body } = input;
      const view = await ctx.useCases.updateCluster(ctx.actor, { organization, cluster }, body);
      return presentCluster(view, ctx.urls);
    }),

  delete: authed
    .meta({
      openapi: {
        method: 'DELETE',
        path: CLUSTER,
        tags: CLUSTER_TAGS,
        summary: 'Delete a cluster',
        description: 'With its queues and tokens; refused (422) while pipelines use the cluster.',
      },
      operation: 'deleteCluster',
      successStatus: 204,
    })
    .input(ClusterKey)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.useCases.deleteCluster(ctx.actor, input);
    }),
});

const clusterQueuesRouter = router({
  list: authed
    .meta({
      openapi: { method: 'GET', path: QUEUES, tags: QUEUE_TAGS, summary: "List a cluster's queues" },
      operation: 'listClusterQueues',
    })
    .input(z.object({ organization, cluster, ...pageParameters }))
    .output(documentedList(ClusterQueueWire))
    .query(async ({ ctx, input }) => {
      const { items } = await listPage(ctx, input, (page) =>
        ctx.useCases.listClusterQueues(ctx.actor, input, page),
      );
      return presentEach(items, presentClusterQueue, ctx.urls);
    }),

  get: authed
    .meta({
      openapi: { method: 'GET', path: QUEUE, tags: QUEUE_TAGS, summary: 'Get a queue' },
      operation: 'getClusterQueue',
    })
    .input(QueueKey)
    .output(documented(ClusterQueueWire))
    .query(async ({ ctx, input }) =>
      presentClusterQueue(await ctx.useCases.getClusterQueue(ctx.actor, input), ctx.urls),
    ),

  create: authed
    .meta({
      openapi: { method: 'POST', path: QUEUES, tags: QUEUE_TAGS, summary: 'Create a queue' },
      operation: 'createClusterQueue',
      successStatus: 201,
      requestBody: 'CreateClusterQueueRequest',
    })
    .input(bodyOf<ClusterRef, CreateClusterQueueRequest>(ClusterKey))
    .output(documented(ClusterQueueWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, cluster, ...body } = input;
      const view = await ctx.useCases.createClusterQueue(ctx.actor, { organization, cluster }, body);
      return presentClusterQueue(view, ctx.urls);
    }),

  update: authed
    .meta({
      openapi: { method: 'PATCH', path: QUEUE, tags: QUEUE_TAGS, summary: 'Update a queue' },
      operation: 'updateClusterQueue',
      requestBody: 'UpdateClusterQueueRequest',
    })
    .input(bodyOf<ClusterQueueRef, UpdateClusterQueueRequest>(QueueKey))
    .output(documented(ClusterQueueWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, cluster, queue, ...body } = input;
      const view = await ctx.useCases.updateClusterQueue(ctx.actor, { organization, cluster, queue }, body);
      return presentClusterQueue(view, ctx.urls);
    }),

  delete: authed
    .meta({
      openapi: { method: 'DELETE', path: QUEUE, tags: QUEUE_TAGS, summary: 'Delete a queue' },
      operation: 'deleteClusterQueue',
      successStatus: 204,
    })
    .input(QueueKey)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.useCases.deleteClusterQueue(ctx.actor, input);
    }),

  pauseDispatch: authed
    .meta({
      openapi: {
        method: 'POST',
        path: `${QUEUE}/pause_dispatch`,
        tags: QUEUE_TAGS,
        summary: "Pause a queue's dispatch",
        description: 'Stored and shown; dispatch does not read it yet.',
      },
      operation: 'pauseClusterQueueDispatch',
      requestBody: 'PauseClusterQueueRequest',
    })
    .input(bodyOf<ClusterQueueRef, PauseClusterQueueRequest>(QueueKey))
    .output(documented(ClusterQueueWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, cluster, queue, ...body } = input;
      const view = await ctx.useCases.pauseClusterQueueDispatch(
        ctx.actor,
        { organization, cluster, queue },
        body,
      );
      return presentClusterQueue(view, ctx.urls);
    }),

  resumeDispatch: authed
    .meta({
      openapi: {
        method: 'POST',
        path: `${QUEUE}/resume_dispatch`,
        tags: QUEUE_TAGS,
        summary: "Resume a queue's dispatch",
      },
      operation: 'resumeClusterQueueDispatch',
    })
    .input(z.looseObject(QueueKey.shape))
    .output(documented(ClusterQueueWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, cluster, queue } = input;
      const view = await ctx.useCases.resumeClusterQueueDispatch(ctx.actor, { organization, cluster, queue });
      return presentClusterQueue(view, ctx.urls);
    }),
});

const clusterTokensRouter = router({
  list: authed
    .meta({
      openapi: { method: 'GET', path: TOKENS, tags: TOKEN_TAGS, summary: "List a cluster's agent tokens" },
      operation: 'listClusterTokens',
    })
    .input(z.object({ organization, cluster, ...pageParameters }))
    .output(documentedList(ClusterTokenWire))
    .query(async ({ ctx, input }) => {
      const { items } = await listPage(ctx, input, (page) =>
        ctx.useCases.listClusterTokens(ctx.actor, input, page),
      );
      return presentEach(items, presentClusterToken, ctx.urls);
    }),

  get: authed
    .meta({
      openapi: { method: 'GET', path: TOKEN, tags: TOKEN_TAGS, summary: 'Get a cluster agent token' },
      operation: 'getClusterToken',
    })
    .input(TokenKey)
    .output(documented(ClusterTokenWire))
    .query(async ({ ctx, input }) =>
      presentClusterToken(await ctx.useCases.getClusterToken(ctx.actor, input), ctx.urls),
    ),

  create: authed
    .meta({
      openapi: {
        method: 'POST',
        path: TOKENS,
        tags: TOKEN_TAGS,
        summary: 'Create a cluster agent token',
        description: 'The answer shows `token` once; only its SHA-256 is stored.',
      },
      operation: 'createClusterToken',
      successStatus: 201,
      requestBody: 'CreateClusterTokenRequest',
    })
    .input(bodyOf<ClusterRef, CreateClusterTokenRequest>(ClusterKey))
    .output(documented(ClusterTokenWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, cluster, ...body } = input;
      const view = await ctx.useCases.createClusterToken(ctx.actor, { organization, cluster }, body);
      return presentClusterToken(view, ctx.urls);
    }),

  update: authed
    .meta({
      openapi: { method: 'PATCH', path: TOKEN, tags: TOKEN_TAGS, summary: 'Update a cluster agent token' },
      operation: 'updateClusterToken',
      requestBody: 'UpdateClusterTokenRequest',
    })
    .input(bodyOf<ClusterTokenRef, UpdateClusterTokenRequest>(TokenKey))
    .output(documented(ClusterTokenWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, cluster, token, ...body } = input;
      const view = await ctx.useCases.updateClusterToken(ctx.actor, { organization, cluster, token }, body);
      return presentClusterToken(view, ctx.urls);
    }),

  delete: authed
    .meta({
      openapi: { method: 'DELETE', path: TOKEN, tags: TOKEN_TAGS, summary: 'Revoke a cluster agent token' },
      operation: 'deleteClusterToken',
      successStatus: 204,
    })
    .input(TokenKey)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.useCases.deleteClusterToken(ctx.actor, input);
    }),
});

export { clusterQueuesRouter, clustersRouter, clusterTokensRouter };
