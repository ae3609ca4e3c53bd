import type { Agent, AgentListFilter, Build, BuildSnapshot, BuildState, ClusterQueue, Job } from '@ci/domain';

export interface AgentRegistrationToken {
  id: string;
  organizationId: string;
  tokenHash: string;
  description: string | null;
  createdAt: Date;
  /** the admin who created it over the API; null for the operator's CLI */
  creatorId: string | null;
  /** stored as given; nothing reads it yet (docs/compatibility.md) */
  public: boolean;
  revokedAt: Date | null;
  revokedById: string | null;
  revokedReason: string | null;
}

/** A list of an organization's registration tokens: all, or only the revoked (true) or usable (false) ones. */
export interface AgentTokenScope {
  organizationId: string;
  revoked: boolean | null;
}

/** What a change to a build sees: the build locked, with every job (retried runs too). */
export interface BuildWork {
  build: BuildSnapshot & { id: string };
  jobs: Job[];
}

/** What a change writes back: the new build state and the jobs it changed or added. */
export interface BuildChange<T> {
  build: BuildSnapshot;
  jobs: readonly Job[];
  changed: ReadonlySet<string>;
  /** jobs to delete (an upload's `--replace`: steps no agent took yet) */
  removed?: ReadonlySet<string>;
  /**
   * Keys merged into the build's meta-data in the same transaction (a block step's fields on unblock); a
   * new key past `maxKeys` refuses the whole change with `tooManyMetaDataKeys`.
   */
  metaData?: { values: Readonly<Record<string, string>>; maxKeys: number };
  result: T;
}

export interface JobLocation {
  job: Job;
  buildId: string;
  buildNumber: number;
  pipelineId: string;
  organizationId: string;
}

/** A trigger job with something for the server to do: a build to make, or the build it waits for. */
export interface TriggerJobDue {
  job: Job;
  organization: { id: string; slug: string };
  /** the triggering build's pipeline */
  sourcePipelineId: string;
  parent: Pick<Build, 'message' | 'author' | 'creatorId'>;
  /** the state of the build it made; null while that build is not written */
  triggeredBuildState: BuildState | null;
}

export interface LogChunk {
  sequence: number;
  offset: number;
  content: string;
  receivedAt: Date;
}

export interface JobRepository {
  /**
   * Runs `change` with the build row and its jobs locked (so changes to one build are serialised across
   * processes) and writes what it returns; `null` writes nothing. Resolves `null` when the build is gone.
   */
  changeBuild<T>(buildId: string, change: (work: BuildWork) => BuildChange<T> | null): Promise<T | null>;
  /** {@link changeBuild} of a pipeline's build by its number: a change needs no read of the build first. */
  changeBuildNumbered<T>(
    build: { pipelineId: string; number: number },
    change: (work: BuildWork) => BuildChange<T> | null,
  ): Promise<T | null>;
  /**
   * {@link changeBuild} for many builds in one transaction: all of them and their jobs locked (the builds
   * in id order, so two batches never wait on each other in a cycle), `change` run on each, the changed
   * builds written in one statement and their jobs in another. Resolves the results of those it changed.
   */
  changeBuilds<T>(
    buildIds: readonly string[],
    change: (work: BuildWork) => BuildChange<T> | null,
  ): Promise<T[]>;
  find(jobId: string): Promise<JobLocation | null>;
  /**
   * Offers the agent's organization's runnable jobs, oldest first, to `assign` (which says whether the
   * agent may take it and how it looks assigned) and writes the first one it accepts. Each row is locked
   * with SKIP LOCKED before it is taken, so no job is given to two agents, in any number of processes.
   */
  claim(input: {
    agentId: string;
    organizationId: string;
    /**
     * Whether the agent, as it is now, in its cluster queue as it is now (null: unclustered), may take a
     * job; both are read with locks that a stop or pause waits for.
     */
    mayTake: (agent: Agent, queue: Pick<ClusterQueue, 'dispatchPausedAt'> | null) => boolean;
    assign: (candidate: Job) => Job | null;
  }): Promise<Job | null>;
  /** The job an agent holds (assigned, accepted, running or canceling), if any. */
  activeJobOf(agentId: string): Promise<JobLocation | null>;
  /** Jobs held by agents not seen since `before`. */
  heldByAgentsSilentSince(before: Date): Promise<{ jobId: string; buildId: string }[]>;
  /**
   * Trigger jobs with something to do, oldest first: scheduled ones (a build to make) and running ones
   * whose build is not written yet, is `async`, or has stopped.
   */
  triggerJobsDue(limit: number): Promise<TriggerJobDue[]>;
  /** How many builds the chain of trigger jobs that led to this build holds, itself included (at most `limit + 1`). */
  triggerChainLength(buildId: string, limit: number): Promise<number>;
  /** Stores a chunk; the same sequence sent again is ignored. */
  appendLogChunk(jobId: string, chunk: LogChunk): Promise<void>;
  logChunks(jobId: string): Promise<LogChunk[]>;
  /** At most `limit` chunks after `afterSequence`, in order: a page of a log that is never read whole. */
  logChunksAfter(input: { jobId: string; afterSequence: number; limit: number }): Promise<LogChunk[]>;
  /** Removes every chunk of the job's log (REST `DELETE …/log`). */
  deleteLog(jobId: string): Promise<void>;
}

export interface AgentRepository {
  insertRegistrationToken(token: AgentRegistrationToken): Promise<void>;
  findRegistrationTokenByHash(hash: string): Promise<AgentRegistrationToken | null>;
  registrationTokens(ids: readonly string[]): Promise<AgentRegistrationToken[]>;
  /** A page of an organization's registration tokens, oldest first. */
  listRegistrationTokens(
    input: AgentTokenScope & { offset: number; limit: number },
  ): Promise<AgentRegistrationToken[]>;
  countRegistrationTokens(scope: AgentTokenScope): Promise<number>;
  /** Revokes a token not yet revoked; answers it as revoked, or null when it is gone or was revoked already. */
  revokeRegistrationToken(input: {
    id: string;
    at: Date;
    byId: string;
    reason: string;
  }): Promise<AgentRegistrationToken | null>;
  /** `cluster_gone`: the agent's cluster or queue was deleted meanwhile; nothing was written. */
  insert(agent: Agent, accessTokenHash: string): Promise<'inserted' | 'cluster_gone'>;
  findByAccessTokenHash(hash: string): Promise<Agent | null>;
  /**
   * Records that the agent was heard from; a connect or disconnect also sets the connection state and
   * its time, a heartbeat its time.
   */
  touch(agentId: string, at: Date, event?: AgentEvent): Promise<void>;
  /** Makes `lost` the agents of LOSABLE_AGENT_STATES last heard of before `silentSince`; answers how many. */
  markLost(silentSince: Date): Promise<number>;
  /** An organization's agents, oldest first (creation time, then id). */
  list(input: {
    organizationId: string;
    filter: AgentListFilter;
    offset: number;
    limit: number;
  }): Promise<Agent[]>;
  count(input: { organizationId: string; filter: AgentListFilter }): Promise<number>;
  /**
   * Runs `change` (which may throw a domain refusal) on the agent with its row locked and writes its
   * connection state and pause; null when the agent is gone.
   */
  change(agentId: string, change: (agent: Agent) => Agent): Promise<Agent | null>;
}

export type AgentEvent = 'connect' | 'disconnect' | 'heartbeat';

/** A build's meta-data as its jobs set and read it (`buildkite-agent meta-data`). */
export interface BuildMetaDataRepository {
  /**
   * Sets one key in one statement that merges into the stored object, so concurrent sets lose nothing;
   * false (nothing written) when the key is new and the build holds `maxKeys` keys already.
   */
  set(input: { buildId: string; key: string; value: string; maxKeys: number }): Promise<boolean>;
  /** null when the build is gone */
  read(buildId: string): Promise<Record<string, string> | null>;
}
