import {
  type Agent,
  type AgentAction,
  addressAllowed,
  addressNotAllowed,
  agentAction,
  agentMayRun,
  badRequest,
  type Cluster,
  connectionStateAfterDisconnect,
  DomainError,
  forbidden,
  isActiveJob,
  isGone,
  isStorableText,
  isUuid,
  type Job,
  jobTransition,
  mayTakeNewJob,
  notFound,
  queueDispatches,
  queueForAgent,
  queueKeyOf,
  UNSTORABLE_TEXT,
  unauthenticated,
  unprocessable,
} from '@ci/domain';
import { findOrganization } from '../admin/organizations';
import { changeJob } from '../jobs/change-job';
import type { BuildView, Deps } from '../ports';
import type { AgentRegistrationToken, JobLocation } from './agent-ports';
import { agentSecretFrom, generateAgentSecret, hashAgentSecret } from './agent-secrets';

/** How often agents call and how long silence lasts before their job is lost (seconds; tests use fractions). */
export interface AgentTimings {
  pingInterval: number;
  jobStatusInterval: number;
  heartbeatInterval: number;
  lostAfter: number;
}

export const DEFAULT_AGENT_TIMINGS: AgentTimings = {
  pingInterval: 5,
  jobStatusInterval: 5,
  heartbeatInterval: 30,
  lostAfter: 120,
};

export interface RegisterRequest {
  name?: string;
  hostname?: string;
  tags: string[];
  userAgent: string | null;
  ipAddress: string | null;
  /** what the agent says of itself (the public agent sends both) */
  version?: string;
  pid?: string;
}

export const createAgentToken =
  (deps: Deps) =>
  async (input: {
    organization: string;
    description?: string | null;
    creatorId?: string | null;
    public?: boolean;
  }): Promise<{ token: AgentRegistrationToken; secret: string }> => {
    const organization = await findOrganization(deps)(input.organization);
    const secret = generateAgentSecret('registration');
    const token: AgentRegistrationToken = {
      id: deps.newId(),
      organizationId: organization.id,
      tokenHash: hashAgentSecret(secret),
      description: input.description ?? null,
      createdAt: deps.clock.now(),
      creatorId: input.creatorId ?? null,
      public: input.public ?? false,
      revokedAt: null,
      revokedById: null,
      revokedReason: null,
    };
    await deps.repos.agents.insertRegistrationToken(token);
    return { token, secret };
  };

const TAG = /^[A-Za-z0-9_.:/-]{1,100}=[^\n]{0,255}$/;

/** Where a new agent belongs: its organization, and its cluster and queue when a cluster's token registers it. */
interface AgentHome {
  organizationId: string;
  clusterId: string | null;
  clusterQueueId: string | null;
  /** the agent's tags, with `queue=<key>` added when it joins its cluster's default queue without one */
  tags: string[];
}

/**
 * The registration token: an organization's (not revoked) registers unclustered agents; a cluster's (not
 * deleted, not expired, used from an allowed address) registers agents of that cluster.
 */
async function registrationTokenFor(
  deps: Deps,
  secret: string | null,
  ipAddress: string | null,
): Promise<{ organizationId: string; cluster: null } | { organizationId: string; cluster: Cluster }> {
  if (!secret) throw unauthenticated();
  const hash = hashAgentSecret(secret);
  const token = await deps.repos.agents.findRegistrationTokenByHash(hash);
  if (token) {
    // A revoked token registers nothing, as one that never existed.
    if (token.revokedAt) throw unauthenticated();
    return { organizationId: token.organizationId, cluster: null };
  }
  const found = await deps.repos.clusters.findTokenByHash(hash);
  if (!found) throw unauthenticated();
  const { token: clusterToken, cluster } = found;
  if (clusterToken.expiresAt && clusterToken.expiresAt.getTime() <= deps.clock.now().getTime()) {
    throw unauthenticated();
  }
  if (clusterToken.allowedIpAddresses && !addressAllowed(clusterToken.allowedIpAddresses, ipAddress)) {
    throw addressNotAllowed();
  }
  return { organizationId: cluster.organizationId, cluster };
}

/** In a cluster, the queue the `queue` tag names or the default queue (422 when it has no such queue). */
async function homeIn(deps: Deps, cluster: Cluster, tags: string[]): Promise<AgentHome> {
  const placement = await deps.repos.clusters.placement(cluster.id);
  if (!placement) throw unauthenticated();
  const queue = queueForAgent(tags, placement);
  if (!queue.ok) throw queue.error;
  const named = queueKeyOf(tags) !== null;
  return {
    organizationId: cluster.organizationId,
    clusterId: cluster.id,
    clusterQueueId: queue.value.queueId,
    tags: named ? tags : [...tags, `queue=${queue.value.key}`],
  };
}

export const registerAgent =
  (deps: Deps) =>
  async (
    authorization: string | undefined,
    request: RegisterRequest,
  ): Promise<{ agent: Agent; accessToken: string; timings: AgentTimings }> => {
    const token = await registrationTokenFor(deps, agentSecretFrom(authorization), request.ipAddress);
    const bad = request.tags.find((tag) => !TAG.test(tag) || !isStorableText(tag));
    if (bad !== undefined) throw badRequest('invalid_tag', `The tag "${bad.slice(0, 50)}" is not key=value`);
    for (const field of ['name', 'hostname', 'version', 'pid'] as const) {
      const value = request[field];
      if (value !== undefined && !isStorableText(value)) {
        throw badRequest('invalid_agent', `${field} ${UNSTORABLE_TEXT}`);
      }
    }
    const home: AgentHome = token.cluster
      ? await homeIn(deps, token.cluster, request.tags)
      : { organizationId: token.organizationId, clusterId: null, clusterQueueId: null, tags: request.tags };
    const id = deps.newId();
    const agent: Agent = {
      id,
      organizationId: home.organizationId,
      name: (request.name?.trim() || `agent-${id.slice(-8)}`).slice(0, 255),
      hostname: request.hostname?.slice(0, 255) ?? null,
      ipAddress: request.ipAddress?.slice(0, 64) ?? null,
      userAgent: request.userAgent?.slice(0, 255) ?? null,
      connectionState: 'registered',
      tags: home.tags,
      creatorId: null,
      createdAt: deps.clock.now(),
      version: request.version?.slice(0, 255) ?? null,
      pid: request.pid?.slice(0, 32) ?? null,
      connectedAt: null,
      disconnectedAt: null,
      heartbeatAt: null,
      pausedAt: null,
      pauseNote: null,
      pausedUntil: null,
      clusterId: home.clusterId,
      clusterQueueId: home.clusterQueueId,
    };
    const accessToken = generateAgentSecret('agent');
    // The cluster (or its queue) deleted since its token was read: as if the token were gone.
    if ((await deps.repos.agents.insert(agent, hashAgentSecret(accessToken))) === 'cluster_gone') {
      throw unauthenticated();
    }
    return { agent, accessToken, timings: deps.agentTimings ?? DEFAULT_AGENT_TIMINGS };
  };

export const authenticateAgent =
  (deps: Deps) =>
  async (authorization: string | undefined): Promise<Agent> => {
    const secret = agentSecretFrom(authorization);
    const agent = secret ? await deps.repos.agents.findByAccessTokenHash(hashAgentSecret(secret)) : null;
    if (!agent) throw unauthenticated();
    return agent;
  };

export const connectAgent = (deps: Deps) => async (authorization: string | undefined) => {
  const agent = await authenticateAgent(deps)(authorization);
  const at = deps.clock.now();
  await deps.repos.agents.touch(agent.id, at, 'connect');
  return { ...agent, connectionState: 'connected', connectedAt: at };
};

export const disconnectAgent = (deps: Deps) => async (authorization: string | undefined) => {
  const agent = await authenticateAgent(deps)(authorization);
  const at = deps.clock.now();
  await deps.repos.agents.touch(agent.id, at, 'disconnect');
  return {
    ...agent,
    connectionState: connectionStateAfterDisconnect(agent.connectionState),
    disconnectedAt: at,
  };
};

export const heartbeatAgent = (deps: Deps) => async (authorization: string | undefined) => {
  const agent = await authenticateAgent(deps)(authorization);
  const at = deps.clock.now();
  await deps.repos.agents.touch(agent.id, at, 'heartbeat');
  return { receivedAt: at };
};

/**
 * Marks lost the jobs of agents silent for longer than `lostAfter`: every server process runs it on a
 * timer (main.ts), not on each ping. Safe in any number of processes at once: each job changes under its
 * build's lock and a job already lost refuses to be lost again.
 */
export const sweepLostJobs = (deps: Deps) => async (): Promise<number> => {
  const timings = deps.agentTimings ?? DEFAULT_AGENT_TIMINGS;
  const before = new Date(deps.clock.now().getTime() - timings.lostAfter * 1000);
  const silent = await deps.repos.jobs.heldByAgentsSilentSince(before);
  let lost = 0;
  for (const { jobId, buildId } of silent) {
    try {
      await changeJob(deps)({ buildId, jobId, trigger: { type: 'lose' } });
      lost++;
    } catch (error) {
      // Finished or lost meanwhile (another process swept it, or the agent answered): nothing to do.
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return lost;
};

/**
 * Marks `lost` the connected (or stopping) agents silent for longer than `lostAfter`, which reports
 * `agent.lost`; answers how many. One statement, so processes sweeping at once each mark an agent once.
 */
export const markSilentAgentsLost = (deps: Deps) => async (): Promise<number> => {
  const timings = deps.agentTimings ?? DEFAULT_AGENT_TIMINGS;
  return deps.repos.agents.markLost(new Date(deps.clock.now().getTime() - timings.lostAfter * 1000));
};

export interface DispatchedJob {
  location: JobLocation;
  view: BuildView;
  agent: Agent;
}

export type PingResult = { action: AgentAction; job: DispatchedJob | null };

/**
 * A ping: the agent's held job if it has not taken it yet (a stopping or paused agent finishes its job),
 * else, for an agent that may take one (not stopping, not paused), a new one its tags allow, if any.
 */
export const pingAgent =
  (deps: Deps) =>
  async (authorization: string | undefined): Promise<PingResult> => {
    const agent = await authenticateAgent(deps)(authorization);
    await deps.repos.agents.touch(agent.id, deps.clock.now());
    if (isGone(agent)) return { action: 'disconnect', job: null };
    const held = await deps.repos.jobs.activeJobOf(agent.id);
    if (held) {
      // Assigned but not yet accepted: the answer may have been lost on the way, so offer it again.
      if (held.job.state !== 'assigned') return { action: 'idle', job: null };
      return { action: 'idle', job: await dispatched(deps, held, agent) };
    }
    const at = deps.clock.now();
    const action = agentAction(agent, at);
    if (action !== 'idle') return { action, job: null };
    const claimed = await deps.repos.jobs.claim({
      agentId: agent.id,
      organizationId: agent.organizationId,
      mayTake: (current, queue) => mayTakeNewJob(current, at) && queueDispatches(queue),
      assign: (candidate) => {
        if (!agentMayRun(candidate, agent)) return null;
        const next = jobTransition(candidate, { type: 'assign', agentId: agent.id }, at);
        return next.ok ? next.value : null;
      },
    });
    if (!claimed) return { action: 'idle', job: null };
    const location = await deps.repos.jobs.find(claimed.id);
    if (!location) return { action: 'idle', job: null };
    return { action: 'idle', job: await dispatched(deps, location, agent) };
  };

export async function dispatched(deps: Deps, location: JobLocation, agent: Agent): Promise<DispatchedJob> {
  const view = await deps.repos.builds.findByNumber({
    pipelineId: location.pipelineId,
    number: location.buildNumber,
    includeRetriedJobs: true,
  });
  if (!view) throw notFound('job');
  return { location, view, agent };
}

/** The agent's own job: another agent's job, or one that does not exist, answers 404 alike. */
export async function ownJob(deps: Deps, agent: Agent, jobId: string): Promise<JobLocation> {
  const location = isUuid(jobId) ? await deps.repos.jobs.find(jobId) : null;
  if (!location || location.organizationId !== agent.organizationId) throw notFound('job');
  if (location.job.agentId !== agent.id) throw notFound('job');
  return location;
}

function heldBy(agent: Agent) {
  return (job: Job) => {
    if (job.agentId !== agent.id) throw forbidden();
  };
}

type FinishAction = {
  type: 'finish';
  exitStatus: number | null;
  signal: string | null;
  signalReason: string | null;
};

export type AgentJobAction = { type: 'accept' } | { type: 'start' } | FinishAction;

/** The end an agent reports, its texts checked and cut to what a job keeps. */
function finishTrigger(action: FinishAction): FinishAction {
  for (const [field, value] of [
    ['signal', action.signal],
    ['signal_reason', action.signalReason],
  ] as const) {
    if (value !== null && !isStorableText(value)) {
      throw badRequest('invalid_signal', `${field} ${UNSTORABLE_TEXT}`);
    }
  }
  return {
    ...action,
    signal: action.signal?.slice(0, 32) || null,
    signalReason: action.signalReason?.slice(0, 64) || null,
  };
}

export const agentJobAction =
  (deps: Deps) =>
  async (
    authorization: string | undefined,
    jobId: string,
    action: AgentJobAction,
  ): Promise<DispatchedJob> => {
    const agent = await authenticateAgent(deps)(authorization);
    const trigger = action.type === 'finish' ? finishTrigger(action) : action;
    await deps.repos.agents.touch(agent.id, deps.clock.now());
    const location = await ownJob(deps, agent, jobId);
    const job = await changeJob(deps)({ buildId: location.buildId, jobId, check: heldBy(agent), trigger });
    return dispatched(deps, { ...location, job }, agent);
  };

/** The job's state, for the agent to notice a cancel (`canceling`) while it runs the job. */
export const agentJobState =
  (deps: Deps) =>
  async (authorization: string | undefined, jobId: string): Promise<Job> => {
    const agent = await authenticateAgent(deps)(authorization);
    await deps.repos.agents.touch(agent.id, deps.clock.now());
    return (await ownJob(deps, agent, jobId)).job;
  };

/** The largest log chunk an agent may send (it is told so when it takes a job). */
export const MAX_CHUNK_BYTES = 1024 * 1024;

export const appendAgentLog =
  (deps: Deps) =>
  async (
    authorization: string | undefined,
    jobId: string,
    chunk: { sequence: number; offset: number; content: string },
  ): Promise<void> => {
    const agent = await authenticateAgent(deps)(authorization);
    const location = await ownJob(deps, agent, jobId);
    if (!Number.isSafeInteger(chunk.sequence) || chunk.sequence < 0) {
      throw badRequest('invalid_sequence', 'sequence must be a whole number, 0 or more');
    }
    if (!Number.isSafeInteger(chunk.offset) || chunk.offset < 0) {
      throw badRequest('invalid_offset', 'offset must be a whole number, 0 or more');
    }
    if (Buffer.byteLength(chunk.content) > MAX_CHUNK_BYTES) {
      throw badRequest('chunk_too_large', 'A chunk may hold at most 1 MiB');
    }
    if (!isActiveJob(location.job.state)) {
      throw unprocessable('job_finished', 'This job has finished');
    }
    await deps.repos.jobs.appendLogChunk(jobId, { ...chunk, receivedAt: deps.clock.now() });
  };
