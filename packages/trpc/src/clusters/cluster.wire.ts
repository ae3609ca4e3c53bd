import { MAX_CLUSTER_NAME_LENGTH, MAX_CLUSTER_TEXT_LENGTH, RETRY_AGENT_AFFINITIES } from '@ci/domain';
import { z } from 'zod';
import { UserWire } from '../users/user.wire';

const timestamp = z.string().meta({ description: 'ISO 8601 UTC with milliseconds', format: 'date-time' });

/** The wire shape of a cluster, keys in the order of the recorded responses (cluster_retrieve.json). */
export const ClusterWire = z
  .strictObject({
    id: z.uuid(),
    graphql_id: z.string().meta({ description: 'base64 of `Cluster---<id>`' }),
    default_queue_id: z.uuid().nullable().meta({ description: "the cluster's first queue unless changed" }),
    name: z.string(),
    description: z.string().nullable(),
    emoji: z.string().nullable(),
    color: z.string().nullable(),
    url: z.string(),
    web_url: z.string(),
    queues_url: z.string(),
    default_queue_url: z.string().nullable(),
    created_at: timestamp,
    created_by: UserWire.nullable().meta({ description: 'null when the user was deleted' }),
  })
  .meta({ id: 'Cluster' });
export type ClusterWire = z.infer<typeof ClusterWire>;

/** The wire shape of a queue (cluster_queue_retrieve.json). */
export const ClusterQueueWire = z
  .strictObject({
    id: z.uuid(),
    graphql_id: z.string().meta({ description: 'base64 of `ClusterQueue---<id>`' }),
    key: z.string(),
    description: z.string().nullable(),
    url: z.string(),
    web_url: z.string(),
    cluster_url: z.string(),
    dispatch_paused: z.boolean().meta({ description: 'stored only: dispatch does not read it yet' }),
    dispatch_paused_by: UserWire.nullable(),
    dispatch_paused_at: timestamp.nullable(),
    dispatch_paused_note: z.string().nullable(),
    created_at: timestamp,
    created_by: UserWire.nullable(),
  })
  .meta({ id: 'ClusterQueue' });
export type ClusterQueueWire = z.infer<typeof ClusterQueueWire>;

/** The wire shape of a cluster agent token (cluster_token_retrieve.json); `token` only on create. */
export const ClusterTokenWire = z
  .strictObject({
    id: z.uuid(),
    graphql_id: z.string().meta({ description: 'base64 of `ClusterToken---<id>`' }),
    description: z.string(),
    url: z.string(),
    cluster_url: z.string(),
    created_at: timestamp,
    created_by: UserWire.nullable(),
    token: z.string().optional().meta({ description: 'the secret, shown once: in the answer of the create' }),
    allowed_ip_addresses: z
      .string()
      .nullable()
      .meta({ description: 'space-separated addresses and CIDR ranges' }),
  })
  .meta({ id: 'ClusterToken' });
export type ClusterTokenWire = z.infer<typeof ClusterTokenWire>;

const name = z.string().max(MAX_CLUSTER_NAME_LENGTH);
const text = z.string().max(MAX_CLUSTER_TEXT_LENGTH).nullable().optional();

/** Documented as inputs: the domain validates the bodies (422), keys it does not know are ignored. */
export const CreateClusterRequest = z
  .object({ name, description: text, emoji: text, color: text })
  .meta({ id: 'CreateClusterRequest', unusedIO: 'input' });
export type CreateClusterRequest = z.input<typeof CreateClusterRequest>;

export const UpdateClusterRequest = z
  .object({
    name: name.optional(),
    description: text,
    emoji: text,
    color: text,
    default_queue_id: z
      .uuid()
      .nullable()
      .optional()
      .meta({ description: 'a queue of this cluster; null: none' }),
  })
  .meta({ id: 'UpdateClusterRequest', unusedIO: 'input' });
export type UpdateClusterRequest = z.input<typeof UpdateClusterRequest>;

const hostedAgents = z
  .record(z.string(), z.unknown())
  .nullable()
  .optional()
  .meta({ description: 'hosted-agent settings, stored as given (there are no hosted agents here)' });
const retryAgentAffinity = z.enum(RETRY_AGENT_AFFINITIES).optional();

export const CreateClusterQueueRequest = z
  .object({
    key: z
      .string()
      .meta({ description: 'letters, digits, dots, hyphens and underscores; fixed once created' }),
    description: text,
    hosted_agents: hostedAgents,
    retry_agent_affinity: retryAgentAffinity,
  })
  .meta({ id: 'CreateClusterQueueRequest', unusedIO: 'input' });
export type CreateClusterQueueRequest = z.input<typeof CreateClusterQueueRequest>;

export const UpdateClusterQueueRequest = z
  .object({ description: text, hosted_agents: hostedAgents, retry_agent_affinity: retryAgentAffinity })
  .meta({ id: 'UpdateClusterQueueRequest', unusedIO: 'input' });
export type UpdateClusterQueueRequest = z.input<typeof UpdateClusterQueueRequest>;

export const PauseClusterQueueRequest = z
  .object({ note: text })
  .meta({ id: 'PauseClusterQueueRequest', unusedIO: 'input' });
export type PauseClusterQueueRequest = z.input<typeof PauseClusterQueueRequest>;

const allowedIpAddresses = z
  .string()
  .nullable()
  .optional()
  .meta({ description: 'space-separated IP addresses and CIDR ranges; null or blank: any' });

export const CreateClusterTokenRequest = z
  .object({
    description: z.string().max(MAX_CLUSTER_TEXT_LENGTH),
    allowed_ip_addresses: allowedIpAddresses,
    expires_at: timestamp.nullable().optional(),
  })
  .meta({ id: 'CreateClusterTokenRequest', unusedIO: 'input' });
export type CreateClusterTokenRequest = z.input<typeof CreateClusterTokenRequest>;

export const UpdateClusterTokenRequest = z
  .object({
    description: z.string().max(MAX_CLUSTER_TEXT_LENGTH).optional(),
    allowed_ip_addresses: allowedIpAddresses,
  })
  .meta({ id: 'UpdateClusterTokenRequest', unusedIO: 'input' });
export type UpdateClusterTokenRequest = z.input<typeof UpdateClusterTokenRequest>;
