import type { AccessLevel, OrganizationRole, TeamMemberRole } from './access';
import type { BuildSnapshot } from './build-state';
import type { PipelineVisibility } from './pipeline';
import type { Ecosystem } from './registry';
import type { Scope } from './scopes';
import type { JobMatrix, Matrix } from './step-matrix';

export interface Organization {
  id: string;
  slug: string;
  name: string;
  createdAt: Date;
  /** the API IP allowlist (ip-allowlist.ts): space-separated addresses and ranges; '' restricts nothing */
  allowedApiIpAddresses: string;
  /** stored and shown; nothing here signs users in, so nothing enforces it */
  membersRequireTwoFactorAuthentication: boolean;
}

export interface User {
  id: string;
  name: string;
  email: string;
  avatarUrl: string | null;
  createdAt: Date;
}

export interface OrganizationMembership {
  organizationId: string;
  userId: string;
  role: OrganizationRole;
}

export const TEAM_PRIVACIES = ['visible', 'secret'] as const;
export type TeamPrivacy = (typeof TEAM_PRIVACIES)[number];

export interface Team {
  id: string;
  organizationId: string;
  slug: string;
  name: string;
  description: string | null;
  privacy: TeamPrivacy;
  isDefaultTeam: boolean;
  /** the role a user added without one gets */
  defaultMemberRole: TeamMemberRole;
  membersCanCreatePipelines: boolean;
  /** the public API's suite and package registry settings: stored and shown, nothing here acts on them */
  membersCanCreateSuites: boolean;
  membersCanCreateRegistries: boolean;
  membersCanDestroyRegistries: boolean;
  membersCanDestroyPackages: boolean;
  /** null for teams made by the CLI or the seed, or whose creator was deleted */
  createdById: string | null;
  createdAt: Date;
}

export interface TeamMember {
  /** The membership's own id (its GraphQL `TeamMember` id). */
  id: string;
  teamId: string;
  userId: string;
  role: TeamMemberRole;
  createdAt: Date;
}

/** `id` is a uuid that stays the same while the step does, so jobs can point at their step. */
/**
 * When a step runs at all, read when a build makes its jobs: `branches` (the public branch filter) and
 * `if` (step-condition.ts). Absent in steps stored before they existed, as null.
 */
export interface StepFilters {
  branches?: string | null;
  condition?: string | null;
  /** the group step it came from: its `key`, else the group's step id; absent or null outside a group */
  groupKey?: string | null;
}

export interface CommandStep extends StepFilters {
  type: 'command';
  id: string;
  key: string | null;
  label: string | null;
  command: string;
  env: Record<string, string>;
  agentQueryRules: string[];
  softFail: boolean;
  parallelism: number | null;
  retry: { automatic: number | null } | null;
  artifactPaths: string | null;
  /** one job per combination (step-matrix.ts); absent in steps stored before it existed */
  matrix?: Matrix | null;
  /** `timeout_in_minutes`; absent: the pipeline's default, if any */
  timeoutInMinutes?: number | null;
  /** `concurrency` and `concurrency_group`: at most this many of the group's jobs held by agents at once */
  concurrency?: { limit: number; group: string } | null;
}

export interface WaitStep extends StepFilters {
  type: 'wait';
  id: string;
  key: string | null;
  continueOnFailure: boolean;
}

/**
 * A block step's input field (the public format's `text` and `select`): what unblocking asks for; each
 * value becomes the build's meta-data under `key`.
 */
export interface BlockField {
  type: 'text' | 'select';
  key: string;
  label: string;
  hint: string | null;
  required: boolean;
  /** text: its default; select: the values chosen at first (several only when `multiple`) */
  default: string | string[] | null;
  /** a select's choices; empty for text */
  options: { label: string; value: string }[];
  multiple: boolean;
}

export interface BlockStep extends StepFilters {
  type: 'block';
  id: string;
  key: string | null;
  label: string | null;
  /** `fields`: absent in steps stored before they existed, as none */
  fields?: BlockField[];
}

/**
 * What a trigger step asks of the build it creates (`build:` in the public format); what is left out
 * comes from the triggering build or the target pipeline when the build is made (`triggeredBuildRequest`).
 */
export interface TriggeredBuildFields {
  message: string | null;
  commit: string | null;
  branch: string | null;
  metaData: Record<string, string>;
  env: Record<string, string>;
}

/** A trigger step: the build of another pipeline of the organization it creates, and whether it waits. */
export interface TriggerStep extends StepFilters {
  type: 'trigger';
  id: string;
  key: string | null;
  label: string | null;
  /** the target pipeline's slug */
  pipeline: string;
  async: boolean;
  build: TriggeredBuildFields;
}

export type StepDefinition = CommandStep | WaitStep | BlockStep | TriggerStep;

export interface Pipeline {
  id: string;
  organizationId: string;
  slug: string;
  name: string;
  description: string | null;
  repository: string;
  defaultBranch: string | null;
  branchConfiguration: string | null;
  steps: StepDefinition[];
  provider: { id: string; settings: Record<string, unknown> };
  /** the secret of its inbound webhook URL; null: the webhook was deleted (`pipelineDeleteWebhook`) */
  webhookToken: string | null;
  skipQueuedBranchBuilds: boolean;
  skipQueuedBranchBuildsFilter: string | null;
  cancelRunningBranchBuilds: boolean;
  cancelRunningBranchBuildsFilter: string | null;
  nextBuildNumber: number;
  archivedAt: Date | null;
  createdAt: Date;
  /** Environment variables of the pipeline (its YAML `env`, or the request's `env`). */
  env: Record<string, string>;
  visibility: PipelineVisibility;
  tags: string[] | null;
  /** A cluster of the organization, or null. */
  clusterId: string | null;
  allowRebuilds: boolean;
  /** Shown as stored (REST and GraphQL); nothing here draws with them. */
  color: string | null;
  emoji: string | null;
  /** A command job's timeout when its step has none, and the most any may have (`jobTimeout`). */
  defaultTimeoutInMinutes: number | null;
  maximumTimeoutInMinutes: number | null;
  /** The YAML the steps were read from; null for pipelines defined by a `steps` list. */
  configuration: string | null;
  /** The pipeline template whose configuration gave the steps; null: none (or it was deleted). */
  pipelineTemplateId: string | null;
  /** null: created by an operator command, or the user was deleted. */
  createdById: string | null;
}

export const BUILD_SOURCES = ['api', 'webhook', 'ui', 'schedule', 'trigger_job'] as const;
export type BuildSource = (typeof BUILD_SOURCES)[number];

/** The state machine's fields are stored flat on the build. */
export interface Build extends BuildSnapshot {
  id: string;
  pipelineId: string;
  number: number;
  message: string | null;
  commit: string;
  branch: string;
  env: Record<string, string>;
  metaData: Record<string, string>;
  source: BuildSource;
  author: { name: string; email: string } | null;
  creatorId: string | null;
  rebuiltFromId: string | null;
  pullRequest: { id: string; base: string | null; repository: string | null } | null;
  cleanCheckout: boolean;
  createdAt: Date;
  scheduledAt: Date;
}

/** The public API's job states. */
export const JOB_STATES = [
  'pending',
  'waiting',
  'waiting_failed',
  'blocked',
  'blocked_failed',
  'unblocked',
  'unblocked_failed',
  'limiting',
  'limited',
  'scheduled',
  'assigned',
  'accepted',
  'running',
  'passed',
  'failed',
  'canceling',
  'canceled',
  'timing_out',
  'timed_out',
  'skipped',
  'broken',
  'expired',
  'lost',
] as const;
export type JobState = (typeof JOB_STATES)[number];

export const JOB_TYPES = ['script', 'waiter', 'manual', 'trigger'] as const;
export type JobType = (typeof JOB_TYPES)[number];

export interface Job {
  id: string;
  buildId: string;
  stepId: string | null;
  position: number;
  type: JobType;
  name: string | null;
  stepKey: string | null;
  command: string | null;
  state: JobState;
  agentQueryRules: string[];
  agentId: string | null;
  exitStatus: number | null;
  softFailed: boolean;
  artifactPaths: string | null;
  env: Record<string, string>;
  retried: boolean;
  retriedInJobId: string | null;
  retriesCount: number | null;
  retryType: string | null;
  parallelGroupIndex: number | null;
  parallelGroupTotal: number | null;
  createdAt: Date;
  scheduledAt: Date | null;
  runnableAt: Date | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** The step's policy, copied onto the job so later pipeline edits do not change a running build. */
  softFail: boolean;
  continueOnFailure: boolean;
  /** `retry.automatic` limit of the step; null when it retries nothing by itself */
  retryAutomaticLimit: number | null;
  signal: string | null;
  signalReason: string | null;
  unblockedById: string | null;
  unblockedAt: Date | null;
  /** its combination of its step's matrix; null outside a matrix */
  matrix: JobMatrix | null;
  /** how long it may run before it is stopped and `timed_out`; null: no limit */
  timeoutInMinutes: number | null;
  /**
   * Where a command job runs, decided when it is made: its pipeline's cluster and the queue its step
   * names (or the cluster's default queue). Both null: the unclustered agents run it (today's rules).
   */
  clusterId: string | null;
  /** null in a cluster: the step named no queue of the cluster (and it had no default); no agent takes it */
  clusterQueueId: string | null;
  /** A trigger job's step, as it was when the job was made; null for other jobs. */
  trigger: Pick<TriggerStep, 'pipeline' | 'async' | 'build'> | null;
  /**
   * The build a trigger job created (chosen before the build is written, so a crash between the two is
   * finished by the next pass, not repeated); null before it triggers and for other jobs.
   */
  triggeredBuildId: string | null;
  /**
   * The step's `concurrency_group` and `concurrency`: agents hold at most `concurrencyLimit` jobs of the
   * group (in the organization) at once, taken in creation order; null for jobs without one.
   */
  concurrencyGroup: string | null;
  concurrencyLimit: number | null;
  /** the group step its step came from (REST `group_key`); null outside a group */
  groupKey: string | null;
  /** A block job's step's fields, as they were when the job was made; null for other jobs and none. */
  blockFields: BlockField[] | null;
}

export interface Agent {
  id: string;
  organizationId: string;
  name: string;
  hostname: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  connectionState: string;
  tags: string[];
  creatorId: string | null;
  createdAt: Date;
  /** What the agent said of itself when it registered (`version`, `pid`), if anything. */
  version: string | null;
  pid: string | null;
  /** The last connect, disconnect and heartbeat, as the agent protocol saw them. */
  connectedAt: Date | null;
  disconnectedAt: Date | null;
  heartbeatAt: Date | null;
  /** The last pause (REST `PUT …/pause`): paused while `pausedUntil` is in the future. */
  pausedAt: Date | null;
  pauseNote: string | null;
  pausedUntil: Date | null;
  /** The cluster whose token registered it and the queue its `queue` tag names; null: unclustered. */
  clusterId: string | null;
  clusterQueueId: string | null;
}

export interface TeamPipeline {
  /** The association's own id (its GraphQL `TeamPipeline` id); a re-added association gets a new one. */
  id: string;
  teamId: string;
  pipelineId: string;
  accessLevel: AccessLevel;
  createdAt: Date;
}

export interface Registry {
  id: string;
  organizationId: string;
  slug: string;
  name: string;
  ecosystem: Ecosystem;
  description: string | null;
  emoji: string | null;
  color: string | null;
  public: boolean;
  oidcPolicy: string | null;
  createdAt: Date;
}

export interface AccessToken {
  id: string;
  userId: string;
  /** Hex SHA-256 of the token; the token itself is shown once and never stored. */
  tokenHash: string;
  scopes: Scope[];
  /** null: every organization the user belongs to. */
  organizationIds: string[] | null;
  description: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}
