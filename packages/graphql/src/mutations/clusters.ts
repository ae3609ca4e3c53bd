import { encodeGraphqlId, type GraphqlType } from '@ci/domain';
import type { ObjectRef } from '@pothos/core';
import { builder, type Types } from '../builder';
import { uuidOf } from '../global-id';
import { ClusterQueueRef, ClusterRef, ClusterTokenRef } from '../types/cluster';
import { type Echoed, publicMutation } from './client-mutation-id';

/**
 * The cluster mutations of the public schema (those the Terraform provider and the bk CLI use), on the
 * REST use cases, so with REST's scopes (`write_clusters`), roles (admins), validation and messages.
 * Hosted-agent settings are stored as given; there are no hosted agents here.
 */

const HostedAgentInstanceShapeName = builder.enumType('HostedAgentInstanceShapeName', {
  values: [
    'LINUX_AMD64_2X4',
    'LINUX_AMD64_4X16',
    'LINUX_AMD64_8X32',
    'LINUX_AMD64_16X64',
    'LINUX_AMD64_32X128',
    'LINUX_AMD64_64X256',
    'LINUX_ARM64_2X4',
    'LINUX_ARM64_4X16',
    'LINUX_ARM64_8X32',
    'LINUX_ARM64_16X64',
    'LINUX_ARM64_32X128',
    'LINUX_ARM64_64X256',
    'MACOS_ARM64_M4_6X28',
    'MACOS_ARM64_M4_12X56',
  ] as const,
});

const HostedAgentMacOSVersion = builder.enumType('HostedAgentMacOSVersion', {
  values: ['GOLDEN_GATE', 'SEQUOIA', 'SONOMA', 'TAHOE', 'TAHOE_26_6', 'TAHOE_SLIM'] as const,
});

const HostedAgentsLinuxPlatformSettingsInput = builder.inputType('HostedAgentsLinuxPlatformSettingsInput', {
  fields: (t) => ({ agentImageRef: t.string() }),
});

const HostedAgentsMacosPlatformSettingsInput = builder.inputType('HostedAgentsMacosPlatformSettingsInput', {
  fields: (t) => ({
    macosVersion: t.field({ type: HostedAgentMacOSVersion }),
    xcodeVersion: t.string(),
  }),
});

const HostedAgentsPlatformSettingsInput = builder.inputType('HostedAgentsPlatformSettingsInput', {
  fields: (t) => ({
    linux: t.field({ type: HostedAgentsLinuxPlatformSettingsInput }),
    macos: t.field({ type: HostedAgentsMacosPlatformSettingsInput }),
  }),
});

const HostedAgentsQueueSettingsCreateInput = builder.inputType('HostedAgentsQueueSettingsCreateInput', {
  description: 'Stored as given: there are no hosted agents here',
  fields: (t) => ({
    instanceShape: t.field({ type: HostedAgentInstanceShapeName, required: true }),
    platformSettings: t.field({ type: HostedAgentsPlatformSettingsInput }),
  }),
});

const HostedAgentsQueueSettingsUpdateInput = builder.inputType('HostedAgentsQueueSettingsUpdateInput', {
  description: 'Stored as given: there are no hosted agents here',
  fields: (t) => ({
    agentImageRef: t.string(),
    instanceShape: t.field({ type: HostedAgentInstanceShapeName }),
    platformSettings: t.field({ type: HostedAgentsPlatformSettingsInput }),
  }),
});

/** The REST body of a GraphQL input: the fields given (null included), under their REST names. */
function bodyOf(input: object, names: Record<string, string>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [field, key] of Object.entries(names)) {
    const value = (input as Record<string, unknown>)[field];
    if (value !== undefined) body[key] = value instanceof Date ? value.toISOString() : value;
  }
  return body;
}

/** A GraphQL ID of this type, or a bare UUID (clients of the public API pass both). */
function idOf(id: string | number, type: GraphqlType): string | null {
  const text = String(id);
  return uuidOf(text, type) ?? (text.includes('-') ? text : null);
}

publicMutation('clusterCreate', {
  description: 'Create a cluster (REST `POST …/clusters`; admins only).',
  inputFields: (t) => ({
    organizationId: t.id({ required: true }),
    name: t.string({ required: true }),
    description: t.string(),
    emoji: t.string(),
    color: t.string(),
  }),
  resolve: async (input, ctx) => {
    const cluster = await ctx.useCases.byId.createCluster(
      ctx.actor,
      idOf(input.organizationId, 'Organization'),
      bodyOf(input, { name: 'name', description: 'description', emoji: 'emoji', color: 'color' }),
    );
    return { cluster };
  },
  payloadFields: (t) => ({
    cluster: t.field({ type: ClusterRef, nullable: false, resolve: (payload) => payload.cluster }),
  }),
});

publicMutation('clusterUpdate', {
  description: 'Update a cluster, its default queue too (REST `PATCH …/clusters/{id}`).',
  inputFields: (t) => ({
    organizationId: t.id({ required: true }),
    id: t.id({ required: true }),
    name: t.string(),
    description: t.string(),
    emoji: t.string(),
    color: t.string(),
    defaultQueueId: t.id({ description: 'A queue of this cluster; null removes the default queue' }),
  }),
  resolve: async (input, ctx) => {
    const body = bodyOf(input, {
      name: 'name',
      description: 'description',
      emoji: 'emoji',
      color: 'color',
    });
    if (input.defaultQueueId !== undefined) {
      body.default_queue_id =
        input.defaultQueueId === null ? null : (idOf(input.defaultQueueId, 'ClusterQueue') ?? 'unknown');
    }
    const cluster = await ctx.useCases.byId.updateCluster(ctx.actor, {
      organizationId: idOf(input.organizationId, 'Organization'),
      clusterId: idOf(input.id, 'Cluster'),
      body,
    });
    return { cluster };
  },
  payloadFields: (t) => ({
    cluster: t.field({ type: ClusterRef, nullable: false, resolve: (payload) => payload.cluster }),
  }),
});

publicMutation('clusterDelete', {
  description: 'Delete a cluster with its queues and tokens; refused while pipelines use it.',
  inputFields: (t) => ({
    organizationId: t.id({ required: true }),
    id: t.id({ required: true }),
  }),
  resolve: async (input, ctx) => {
    const deleted = await ctx.useCases.byId.deleteCluster(ctx.actor, {
      organizationId: idOf(input.organizationId, 'Organization'),
      clusterId: idOf(input.id, 'Cluster'),
    });
    return {
      deletedClusterId: encodeGraphqlId('Cluster', deleted),
    };
  },
  payloadFields: (t) => ({
    deletedClusterId: t.exposeID('deletedClusterId', { nullable: false }),
  }),
});

/** A payload's field `key` holding the queue or token the mutation made or changed, never null. */
function changed<Key extends string, Value>(key: Key, ref: ObjectRef<Types, Value>) {
  return (t: PothosSchemaTypes.ObjectFieldBuilder<Types, Echoed<Record<Key, Value>>>) => ({
    // TypeScript cannot follow Pothos's resolver type through a generic `Value`; `ref` fixes it.
    [key]: t.field({ type: ref, nullable: false, resolve: (payload) => payload[key] as never }),
  });
}

const QUEUE_FIELDS = {
  key: 'key',
  description: 'description',
  hostedAgents: 'hosted_agents',
  retryAgentAffinity: 'retry_agent_affinity',
};

publicMutation('clusterQueueCreate', {
  description: 'Create a queue in a cluster; the first becomes its default (REST `POST …/queues`).',
  inputFields: (t) => ({
    organizationId: t.id({ required: true }),
    clusterId: t.id({ required: true }),
    key: t.string({ required: true }),
    description: t.string(),
    hostedAgents: t.field({ type: HostedAgentsQueueSettingsCreateInput }),
    retryAgentAffinity: t.string(),
  }),
  resolve: async (input, ctx) => {
    const clusterQueue = await ctx.useCases.byId.createClusterQueue(ctx.actor, {
      organizationId: idOf(input.organizationId, 'Organization'),
      clusterId: idOf(input.clusterId, 'Cluster'),
      body: bodyOf(input, QUEUE_FIELDS),
    });
    return { clusterQueue };
  },
  payloadFields: changed('clusterQueue', ClusterQueueRef),
});

publicMutation('clusterQueueUpdate', {
  description: 'Update a queue (REST `PATCH …/queues/{id}`); its key is fixed.',
  inputFields: (t) => ({
    organizationId: t.id({ required: true }),
    id: t.id({ required: true }),
    description: t.string(),
    hostedAgents: t.field({ type: HostedAgentsQueueSettingsUpdateInput }),
    retryAgentAffinity: t.string(),
  }),
  resolve: async (input, ctx) => {
    const clusterQueue = await ctx.useCases.byId.updateClusterQueue(ctx.actor, {
      organizationId: idOf(input.organizationId, 'Organization'),
      queueId: idOf(input.id, 'ClusterQueue'),
      body: bodyOf(input, QUEUE_FIELDS),
    });
    return { clusterQueue };
  },
  payloadFields: changed('clusterQueue', ClusterQueueRef),
});

publicMutation('clusterQueueDelete', {
  description: 'Delete a queue (REST `DELETE …/queues/{id}`).',
  inputFields: (t) => ({
    organizationId: t.id({ required: true }),
    id: t.id({ required: true }),
  }),
  resolve: async (input, ctx) => {
    const deleted = await ctx.useCases.byId.deleteClusterQueue(ctx.actor, {
      organizationId: idOf(input.organizationId, 'Organization'),
      queueId: idOf(input.id, 'ClusterQueue'),
    });
    return {
      deletedClusterQueueId: encodeGraphqlId('ClusterQueue', deleted),
    };
  },
  payloadFields: (t) => ({
    deletedClusterQueueId: t.exposeID('deletedClusterQueueId', { nullable: false }),
  }),
});

publicMutation('clusterQueuePauseDispatch', {
  description: "Pause a queue's dispatch (stored: dispatch does not read it yet).",
  inputFields: (t) => ({
    id: t.id({ required: true }),
    note: t.string(),
  }),
  resolve: async (input, ctx) => {
    const queue = await ctx.useCases.byId.pauseClusterQueueDispatch(ctx.actor, {
      queueId: idOf(input.id, 'ClusterQueue'),
      body: bodyOf(input, { note: 'note' }),
    });
    return { queue };
  },
  payloadFields: (t) => ({
    queue: t.field({ type: ClusterQueueRef, nullable: false, resolve: (payload) => payload.queue }),
  }),
});

publicMutation('clusterQueueResumeDispatch', {
  description: "Resume a queue's dispatch.",
  inputFields: (t) => ({
    id: t.id({ required: true }),
  }),
  resolve: async (input, ctx) => {
    const queue = await ctx.useCases.byId.resumeClusterQueueDispatch(ctx.actor, {
      queueId: idOf(input.id, 'ClusterQueue'),
    });
    return { queue };
  },
  payloadFields: (t) => ({
    queue: t.field({ type: ClusterQueueRef, nullable: false, resolve: (payload) => payload.queue }),
  }),
});

const TOKEN_FIELDS = {
  description: 'description',
  allowedIpAddresses: 'allowed_ip_addresses',
  expiresAt: 'expires_at',
};

publicMutation('clusterAgentTokenCreate', {
  description: 'Create a cluster agent token; `tokenValue` is the only time it is shown.',
  inputFields: (t) => ({
    organizationId: t.id({ required: true }),
    clusterId: t.id({ required: true }),
    description: t.string({ required: true }),
    allowedIpAddresses: t.string(),
    expiresAt: t.field({ type: 'DateTime' }),
  }),
  resolve: async (input, ctx) => {
    const token = await ctx.useCases.byId.createClusterToken(ctx.actor, {
      organizationId: idOf(input.organizationId, 'Organization'),
      clusterId: idOf(input.clusterId, 'Cluster'),
      body: bodyOf(input, TOKEN_FIELDS),
    });
    return { clusterAgentToken: token };
  },
  payloadFields: (t) => ({
    ...changed('clusterAgentToken', ClusterTokenRef)(t),
    tokenValue: t.string({ nullable: false, resolve: (payload) => payload.clusterAgentToken.secret ?? '' }),
  }),
});

publicMutation('clusterAgentTokenUpdate', {
  description: 'Update a cluster agent token (REST `PATCH …/tokens/{id}`).',
  inputFields: (t) => ({
    organizationId: t.id({ required: true }),
    id: t.id({ required: true }),
    description: t.string({ required: true }),
    allowedIpAddresses: t.string(),
  }),
  resolve: async (input, ctx) => {
    const clusterAgentToken = await ctx.useCases.byId.updateClusterToken(ctx.actor, {
      organizationId: idOf(input.organizationId, 'Organization'),
      tokenId: idOf(input.id, 'ClusterToken'),
      body: bodyOf(input, TOKEN_FIELDS),
    });
    return { clusterAgentToken };
  },
  payloadFields: changed('clusterAgentToken', ClusterTokenRef),
});

publicMutation('clusterAgentTokenRevoke', {
  description: 'Revoke (delete) a cluster agent token (REST `DELETE …/tokens/{id}`).',
  inputFields: (t) => ({
    organizationId: t.id({ required: true }),
    id: t.id({ required: true }),
  }),
  resolve: async (input, ctx) => {
    const deleted = await ctx.useCases.byId.deleteClusterToken(ctx.actor, {
      organizationId: idOf(input.organizationId, 'Organization'),
      tokenId: idOf(input.id, 'ClusterToken'),
    });
    return {
      deletedClusterAgentTokenId: encodeGraphqlId('ClusterToken', deleted),
    };
  },
  payloadFields: (t) => ({
    deletedClusterAgentTokenId: t.exposeID('deletedClusterAgentTokenId', { nullable: false }),
  }),
});
