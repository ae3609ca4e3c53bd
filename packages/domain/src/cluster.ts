import type { OrganizationRole } from './access';
import { readDescription, reasonsOf } from './body-fields';
import { type DomainError, unprocessable, validationFailed } from './errors';
import { decodeGraphqlId } from './graphql-id';
import { isUuid } from './ids';
import { isJsonObject } from './json-object';
import { err, ok, type Result } from './result';
import { isStorableText, UNSTORABLE_TEXT } from './storable-text';
import { parseTimestamp } from './timestamps';

/**
 * Clusters group queues of agents and the tokens agents register with (issue 28). A pipeline's command
 * jobs go to its cluster's agents, to the queue the step names or the default queue; a paused queue's
 * agents take no new job. Pipelines and agents without a cluster keep the unclustered rules.
 */
export interface Cluster {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  emoji: string | null;
  color: string | null;
  /** the queue jobs without a queue tag go to; null until the cluster has one */
  defaultQueueId: string | null;
  /** null: the user was deleted */
  createdById: string | null;
  createdAt: Date;
}

export const RETRY_AGENT_AFFINITIES = ['prefer-warmest', 'prefer-different'] as const;
export type RetryAgentAffinity = (typeof RETRY_AGENT_AFFINITIES)[number];

export interface ClusterQueue {
  id: string;
  clusterId: string;
  key: string;
  description: string | null;
  /** set while dispatch is paused; null otherwise */
  dispatchPausedAt: Date | null;
  dispatchPausedById: string | null;
  dispatchPausedNote: string | null;
  /** hosted-agent settings as given (GraphQL `hostedAgents`); there are no hosted agents here */
  hostedAgents: Record<string, unknown> | null;
  retryAgentAffinity: RetryAgentAffinity;
  createdById: string | null;
  createdAt: Date;
}

export interface ClusterToken {
  id: string;
  clusterId: string;
  description: string;
  /** Hex SHA-256 of the token; the token itself is shown once, at creation. */
  tokenHash: string;
  /** space-separated IP addresses and CIDR ranges agents may register from; null: any */
  allowedIpAddresses: string | null;
  expiresAt: Date | null;
  createdById: string | null;
  createdAt: Date;
}

export const MAX_CLUSTER_NAME_LENGTH = 255;
export const MAX_CLUSTER_TEXT_LENGTH = 1000;
export const MAX_CLUSTER_SHORT_TEXT_LENGTH = 255;
export const MAX_QUEUE_KEY_LENGTH = 255;
export const QUEUE_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Admins manage an organization's clusters, queues and tokens; every member may read them. */
export function mayManageClusters(role: OrganizationRole): boolean {
  return role === 'admin';
}

export interface NewCluster {
  name: string;
  description: string | null;
  emoji: string | null;
  color: string | null;
}

export interface ClusterChanges {
  name?: string;
  description?: string | null;
  emoji?: string | null;
  color?: string | null;
  /** null removes the default queue */
  defaultQueueId?: string | null;
}

export interface NewClusterQueue {
  key: string;
  description: string | null;
  hostedAgents: Record<string, unknown> | null;
  retryAgentAffinity: RetryAgentAffinity;
}

/** The key is fixed at creation, as in the public API: an update ignores it. */
export interface ClusterQueueChanges {
  description?: string | null;
  hostedAgents?: Record<string, unknown> | null;
  retryAgentAffinity?: RetryAgentAffinity;
}

export interface NewClusterToken {
  description: string;
  allowedIpAddresses: string | null;
  expiresAt: Date | null;
}

export interface ClusterTokenChanges {
  description?: string;
  allowedIpAddresses?: string | null;
}

type Fields = Record<string, unknown>;
const fieldsOf = (body: unknown): Fields => (isJsonObject(body) ? body : {});
const absent = <T>(): Result<T | undefined, string> => ok(undefined);

/**
 * Checks a cluster create or update body; every reason at once, in the Rails form the public API uses
 * (`Validation failed: Name can't be blank`). A body that is not a JSON object has none of the fields.
 */
export function validateClusterInput(body: unknown, options: { creating: true }): Result<NewCluster>;
export function validateClusterInput(body: unknown, options: { creating: false }): Result<ClusterChanges>;
export function validateClusterInput(
  body: unknown,
  { creating }: { creating: boolean },
): Result<NewCluster | ClusterChanges> {
  const input = fieldsOf(body);
  const name =
    creating || input.name !== undefined
      ? readName(input.name, 'Name', MAX_CLUSTER_NAME_LENGTH)
      : absent<string>();
  const description = optional(input.description, (v) => readDescription(v, MAX_CLUSTER_TEXT_LENGTH));
  const emoji = optional(input.emoji, (v) => readOptionalText(v, 'Emoji', MAX_CLUSTER_SHORT_TEXT_LENGTH));
  const color = optional(input.color, (v) => readOptionalText(v, 'Color', MAX_CLUSTER_SHORT_TEXT_LENGTH));
  const defaultQueue = creating ? absent<string | null>() : optional(input.default_queue_id, readQueueId);
  if (!name.ok || !description.ok || !emoji.ok || !color.ok || !defaultQueue.ok) {
    return err(invalid(reasonsOf(name, description, emoji, color, defaultQueue)));
  }
  if (creating) {
    return ok({
      name: name.value as string,
      description: description.value ?? null,
      emoji: emoji.value ?? null,
      color: color.value ?? null,
    });
  }
  return ok(
    defined({
      name: name.value,
      description: description.value,
      emoji: emoji.value,
      color: color.value,
      defaultQueueId: defaultQueue.value,
    }),
  );
}

/** Checks a queue create or update body (`key`, `description`, `hosted_agents`, `retry_agent_affinity`). */
export function validateClusterQueueInput(
  body: unknown,
  options: { creating: true },
): Result<NewClusterQueue>;
export function validateClusterQueueInput(
  body: unknown,
  options: { creating: false },
): Result<ClusterQueueChanges>;
export function validateClusterQueueInput(
  body: unknown,
  { creating }: { creating: boolean },
): Result<NewClusterQueue | ClusterQueueChanges> {
  const input = fieldsOf(body);
  const key = creating ? readQueueKey(input.key) : absent<string>();
  const description = optional(input.description, (v) => readDescription(v, MAX_CLUSTER_TEXT_LENGTH));
  const hostedAgents = optional(input.hosted_agents, readHostedAgents);
  const affinity = optional(input.retry_agent_affinity, readRetryAgentAffinity);
  if (!key.ok || !description.ok || !hostedAgents.ok || !affinity.ok) {
    return err(invalid(reasonsOf(key, description, hostedAgents, affinity)));
  }
  if (creating) {
    return ok({
      key: key.value as string,
      description: description.value ?? null,
      hostedAgents: hostedAgents.value ?? null,
      retryAgentAffinity: affinity.value ?? 'prefer-warmest',
    });
  }
  return ok(
    defined({
      description: description.value,
      hostedAgents: hostedAgents.value,
      retryAgentAffinity: affinity.value,
    }),
  );
}

/** The note of a pause (`{note}`), or null for none. */
export function readPauseNote(body: unknown): Result<string | null> {
  const note = fieldsOf(body).note;
  if (note === undefined || note === null) return ok(null);
  const read = readOptionalText(note, 'Note', MAX_CLUSTER_TEXT_LENGTH);
  return read.ok ? ok(read.value) : err(invalid([read.error]));
}

/** Checks a cluster token create or update body (`description`, `allowed_ip_addresses`, `expires_at`). */
export function validateClusterTokenInput(
  body: unknown,
  options: { creating: true },
): Result<NewClusterToken>;
export function validateClusterTokenInput(
  body: unknown,
  options: { creating: false },
): Result<ClusterTokenChanges>;
export function validateClusterTokenInput(
  body: unknown,
  { creating }: { creating: boolean },
): Result<NewClusterToken | ClusterTokenChanges> {
  const input = fieldsOf(body);
  const description =
    creating || input.description !== undefined
      ? readName(input.description, 'Description', MAX_CLUSTER_TEXT_LENGTH)
      : absent<string>();
  const allowed = optional(input.allowed_ip_addresses, readAllowedIpAddresses);
  const expiresAt = creating ? optional(input.expires_at, readExpiry) : absent<Date | null>();
  if (!description.ok || !allowed.ok || !expiresAt.ok) {
    return err(invalid(reasonsOf(description, allowed, expiresAt)));
  }
  if (creating) {
    return ok({
      description: description.value as string,
      allowedIpAddresses: allowed.value ?? null,
      expiresAt: expiresAt.value ?? null,
    });
  }
  return ok(defined({ description: description.value, allowedIpAddresses: allowed.value }));
}

/** A queue key taken by another queue of the cluster. */
export function clusterQueueKeyTaken(): DomainError {
  return invalid(['Key has already been taken']);
}

/** A `default_queue_id` that names no queue of the cluster. */
export function clusterDefaultQueueUnknown(): DomainError {
  return invalid(['Default queue must be a queue of this cluster']);
}

/** Deleting a cluster that pipelines still use or connected agents are still in: 422 naming why. */
export function clusterInUse({ pipelines, agents }: { pipelines: number; agents: number }): DomainError {
  const use = `${pipelines} ${pipelines === 1 ? 'pipeline uses' : 'pipelines use'} it`;
  const inIt = `${agents} connected ${agents === 1 ? 'agent is' : 'agents are'} in it`;
  const them = (count: number) => (count === 1 ? 'it' : 'them');
  const why =
    agents === 0
      ? `${use}. Move ${them(pipelines)} to another cluster first.`
      : pipelines === 0
        ? `${inIt}. Stop ${them(agents)} first.`
        : `${use} and ${inIt}. Move the pipelines to another cluster and stop the agents first.`;
  return unprocessable('cluster_in_use', `This cluster can't be deleted: ${why}`);
}

/** What placing a pipeline's jobs needs of its cluster. */
export interface ClusterPlacement {
  clusterId: string;
  defaultQueueId: string | null;
  /** the cluster's queues: key → id */
  queueIds: ReadonlyMap<string, string>;
}

/** The value of the `queue` rule or tag among `key=value` entries, if there is one. */
export function queueKeyOf(entries: readonly string[]): string | null {
  const entry = entries.find((candidate) => candidate.startsWith('queue='));
  return entry === undefined ? null : entry.slice('queue='.length);
}

/**
 * The queue a command step's jobs wait in: the cluster's queue its `queue=` rule names, or the default
 * queue when it names none; null (no agent will take them) when the cluster has no such queue.
 */
export function queueForRules(rules: readonly string[], cluster: ClusterPlacement): string | null {
  const key = queueKeyOf(rules);
  if (key === null) return cluster.defaultQueueId;
  return cluster.queueIds.get(key) ?? null;
}

/**
 * The queue an agent registering with a cluster's token joins: the one its `queue` tag names, or the
 * default queue without one. Refused when the cluster has no such queue (or no default).
 */
export function queueForAgent(
  tags: readonly string[],
  cluster: ClusterPlacement & { name: string },
): Result<{ queueId: string; key: string }> {
  const key = queueKeyOf(tags);
  if (key === null) {
    const defaultKey = [...cluster.queueIds].find(([, id]) => id === cluster.defaultQueueId)?.[0];
    if (cluster.defaultQueueId === null || defaultKey === undefined) {
      return err(
        unprocessable(
          'cluster_queue_unknown',
          `The cluster "${cluster.name}" has no default queue: give the agent a queue tag (queue=<key>) naming one of its queues`,
        ),
      );
    }
    return ok({ queueId: cluster.defaultQueueId, key: defaultKey });
  }
  const queueId = cluster.queueIds.get(key);
  if (queueId === undefined) {
    const known = [...cluster.queueIds.keys()].sort();
    return err(
      unprocessable(
        'cluster_queue_unknown',
        `The queue "${key.slice(0, 100)}" is not a queue of the cluster "${cluster.name}" (its queues: ${known.length ? known.join(', ') : 'none'})`,
      ),
    );
  }
  return ok({ queueId, key });
}

/**
 * Cluster queue ids as a filter takes them (GraphQL `clusterQueue: [ID!]`): each a queue's GraphQL id or
 * its UUID. Null when none is given (no filter); a list of UUIDs otherwise, empty when none names a queue
 * (the filter then matches nothing).
 */
export function readClusterQueueIds(values: readonly string[] | null | undefined): string[] | null {
  if (!values?.length) return null;
  const ids = values.map((value) => {
    const decoded = decodeGraphqlId(value);
    if (decoded) return decoded.type === 'ClusterQueue' ? decoded.id : null;
    return isUuid(value) ? value.toLowerCase() : null;
  });
  return [...new Set(ids.filter((id): id is string => id !== null))];
}

/** Whether a queue hands out new jobs: not while its dispatch is paused (running jobs finish). */
export function queueDispatches(queue: Pick<ClusterQueue, 'dispatchPausedAt'> | null): boolean {
  return queue === null || queue.dispatchPausedAt === null;
}

/** A pipeline's `cluster_id` that names no cluster of its organization (the pipelines' 422 form). */
export function pipelineClusterUnknown(clusterId: string): DomainError {
  return validationFailed([
    {
      field: 'cluster_id',
      code: 'invalid',
      message: `cluster_id names ${clusterId}, which is not a cluster of this organization`,
    },
  ]);
}

/**
 * `allowed_ip_addresses`: IPv4 or IPv6 addresses and CIDR ranges separated by spaces (the public API's
 * form, `"1.1.1.1 10.0.0.0/8"`); blank or null for none. Answers the list normalised to single spaces.
 */
export function readAllowedIpAddresses(value: unknown): Result<string | null, string> {
  if (value === null) return ok(null);
  if (typeof value !== 'string') return err('Allowed ip addresses is invalid');
  const entries = value.trim().split(/\s+/).filter(Boolean);
  if (entries.length === 0) return ok(null);
  const wrong = entries.find((entry) => !isIpRange(entry));
  if (wrong !== undefined) return err(`Allowed ip addresses contains an invalid address: ${wrong}`);
  const joined = entries.join(' ');
  if (joined.length > MAX_CLUSTER_TEXT_LENGTH) {
    return err(`Allowed ip addresses is too long (maximum is ${MAX_CLUSTER_TEXT_LENGTH} characters)`);
  }
  return ok(joined);
}

export function isIpRange(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  if (address === undefined || rest.length > 0) return false;
  const v4 = isIpv4(address);
  const v6 = !v4 && isIpv6(address);
  if (!v4 && !v6) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (v4 ? 32 : 128);
}

function isIpv4(address: string): boolean {
  const parts = address.split('.');
  return parts.length === 4 && parts.every((part) => /^(0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255);
}

function isIpv6(address: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(address)) return false;
  const halves = address.split('::');
  if (halves.length > 2) return false;
  const groups = (half: string | undefined) => (half ? half.split(':') : []);
  const all = [...groups(halves[0]), ...groups(halves[1])];
  const last = all.at(-1);
  const embeddedV4 = last?.includes('.') ? isIpv4(last) : null;
  if (embeddedV4 === false) return false;
  const hex = embeddedV4 ? all.slice(0, -1) : all;
  if (!hex.every((group) => /^[0-9A-Fa-f]{1,4}$/.test(group))) return false;
  const count = hex.length + (embeddedV4 ? 2 : 0);
  return halves.length === 2 ? count < 8 : count === 8;
}

function optional<T>(
  value: unknown,
  read: (value: unknown) => Result<T, string>,
): Result<T | undefined, string> {
  return value === undefined ? ok(undefined) : read(value);
}

function readName(value: unknown, label: string, maxLength: number): Result<string, string> {
  const name = typeof value === 'string' ? value.trim() : value;
  if (name === undefined || name === null || name === '') return err(`${label} can't be blank`);
  if (typeof name !== 'string') return err(`${label} is invalid`);
  if (!isStorableText(name)) return err(`${label} ${UNSTORABLE_TEXT}`);
  if (name.length > maxLength) return err(`${label} is too long (maximum is ${maxLength} characters)`);
  return ok(name);
}

function readOptionalText(value: unknown, label: string, maxLength: number): Result<string | null, string> {
  if (value === null) return ok(null);
  if (typeof value !== 'string') return err(`${label} is invalid`);
  if (!isStorableText(value)) return err(`${label} ${UNSTORABLE_TEXT}`);
  if (value.length > maxLength) return err(`${label} is too long (maximum is ${maxLength} characters)`);
  return ok(value);
}

function readQueueId(value: unknown): Result<string | null, string> {
  if (value === null || value === '') return ok(null);
  if (typeof value !== 'string' || !isUuid(value)) return err('Default queue is invalid');
  return ok(value.toLowerCase());
}

function readQueueKey(value: unknown): Result<string, string> {
  const key = typeof value === 'string' ? value.trim() : value;
  if (key === undefined || key === null || key === '') return err("Key can't be blank");
  if (typeof key !== 'string') return err('Key is invalid');
  if (key.length > MAX_QUEUE_KEY_LENGTH) {
    return err(`Key is too long (maximum is ${MAX_QUEUE_KEY_LENGTH} characters)`);
  }
  if (!QUEUE_KEY_PATTERN.test(key)) {
    return err('Key may only contain letters, digits, dots, hyphens and underscores');
  }
  return ok(key);
}

function readHostedAgents(value: unknown): Result<Record<string, unknown> | null, string> {
  if (value === null) return ok(null);
  return isJsonObject(value) ? ok(value) : err('Hosted agents is invalid');
}

function readRetryAgentAffinity(value: unknown): Result<RetryAgentAffinity, string> {
  return typeof value === 'string' && (RETRY_AGENT_AFFINITIES as readonly string[]).includes(value)
    ? ok(value as RetryAgentAffinity)
    : err('Retry agent affinity is not included in the list');
}

function readExpiry(value: unknown): Result<Date | null, string> {
  if (value === null) return ok(null);
  const at = typeof value === 'string' ? parseTimestamp(value) : null;
  return at ? ok(at) : err('Expires at is invalid');
}

/** The keys whose value is not undefined: what an update names. */
function defined<T extends object>(changes: T): T {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as T;
}

function invalid(reasons: readonly string[]): DomainError {
  return unprocessable('invalid_cluster', `Validation failed: ${reasons.join(', ')}`);
}
