import type { BuildResult, JobResult, JobView } from '@ci/application';
import { encodeGraphqlId, isUnblockable, type Job, type JobMatrix, type JobState } from '@ci/domain';

/**
 * The public API's GraphQL name of each job state. REST's `passed`, `failed` and `lost` are all
 * `FINISHED` here (`passed` tells them apart, as in the public API); the others keep their name.
 */
const STATE_NAMES = {
  pending: 'PENDING',
  waiting: 'WAITING',
  waiting_failed: 'WAITING_FAILED',
  blocked: 'BLOCKED',
  blocked_failed: 'BLOCKED_FAILED',
  unblocked: 'UNBLOCKED',
  unblocked_failed: 'UNBLOCKED_FAILED',
  limiting: 'LIMITING',
  limited: 'LIMITED',
  scheduled: 'SCHEDULED',
  assigned: 'ASSIGNED',
  accepted: 'ACCEPTED',
  running: 'RUNNING',
  passed: 'FINISHED',
  failed: 'FINISHED',
  canceling: 'CANCELING',
  canceled: 'CANCELED',
  timing_out: 'TIMING_OUT',
  timed_out: 'TIMED_OUT',
  skipped: 'SKIPPED',
  broken: 'BROKEN',
  expired: 'EXPIRED',
  lost: 'FINISHED',
} as const satisfies Record<JobState, string>;

/** The public API's states that no job here is ever in (its platform limits and reservations). */
const UNUSED_STATE_NAMES = ['PLATFORM_LIMITED', 'PLATFORM_LIMITING', 'RESERVED'] as const;

export type JobStateName = (typeof STATE_NAMES)[JobState] | (typeof UNUSED_STATE_NAMES)[number];

export const JOB_STATE_NAMES: readonly JobStateName[] = [
  ...new Set<JobStateName>([...Object.values(STATE_NAMES), ...UNUSED_STATE_NAMES]),
].sort();

/** The states of the domain that show as these names (`FINISHED`: passed, failed and lost). */
export function jobStatesNamed(names: readonly string[]): JobState[] {
  return (Object.entries(STATE_NAMES) as Array<[JobState, string]>)
    .filter(([, name]) => names.includes(name))
    .map(([state]) => state);
}

/** Why the agent signalled the job's process, as the agent reported it (`signal_reason`). */
export const SIGNAL_REASONS = [
  'AGENT_INCOMPATIBLE',
  'AGENT_REFUSED',
  'AGENT_STOP',
  'CANCEL',
  'PROCESS_RUN_ERROR',
  'SIGNATURE_REJECTED',
  'STACK_ERROR',
] as const;
type SignalReason = (typeof SIGNAL_REASONS)[number];

/** The reference's name of a reason the agent reported; one it does not know is no reason (null). */
function signalReasonName(reason: string | null): SignalReason | null {
  const name = reason?.toUpperCase();
  return (SIGNAL_REASONS as readonly string[]).includes(name ?? '') ? (name as SignalReason) : null;
}

/**
 * A job as the `Job` types show it: the use case's result, and each field the types expose read from it
 * as a property. Exposed fields have no resolver, so a compiled query reads them in place (ADR 0010)
 * instead of calling a resolver per field; fields that need the request (`url`) or read more (`build`,
 * `retrySource`) keep theirs.
 */
export class JobNode implements JobResult {
  readonly job: Job;
  readonly agent: JobView['agent'];
  readonly retrySourceId: string | null;
  readonly build: BuildResult;

  constructor(view: JobView, build: BuildResult) {
    this.job = view.job;
    this.agent = view.agent;
    this.retrySourceId = view.retrySourceId;
    this.build = build;
  }

  /** A use case's job (with its build) as a node; null stays null. */
  static of(result: JobResult): JobNode;
  static of(result: JobResult | null): JobNode | null;
  static of(result: JobResult | null): JobNode | null {
    return result && (result instanceof JobNode ? result : new JobNode(result, result.build));
  }

  /** the global id (`graphql_id`: every kind's is a `Job`'s), read in place (ADR 0011) */
  get id(): string {
    return encodeGraphqlId('Job', this.job.id);
  }
  get uuid(): string {
    return this.job.id;
  }
  get label(): string | null {
    return this.job.name;
  }
  get state(): JobStateName {
    return STATE_NAMES[this.job.state];
  }
  get retried(): boolean {
    return this.job.retried;
  }
  get retriesCount(): number | null {
    return this.job.retriesCount;
  }
  get retryType(): 'automatic' | 'manual' | null {
    const type = this.job.retryType;
    return type === 'automatic' || type === 'manual' ? type : null;
  }
  get command(): string | null {
    return this.job.command;
  }
  get agentQueryRules(): string[] {
    return this.job.agentQueryRules;
  }
  get automaticArtifactUploadPaths(): string | null {
    return this.job.artifactPaths;
  }
  get exitStatus(): string | null {
    return this.job.exitStatus === null ? null : String(this.job.exitStatus);
  }
  get passed(): boolean {
    return this.job.state === 'passed';
  }
  get signal(): string | null {
    return this.job.signal;
  }
  get signalReason(): SignalReason | null {
    return signalReasonName(this.job.signalReason);
  }
  /** `finishedAt` of a canceled job */
  get canceledAt(): Date | null {
    return this.job.state === 'canceled' ? this.job.finishedAt : null;
  }
  get softFailed(): boolean {
    return this.job.softFailed;
  }
  get parallelGroupIndex(): number | null {
    return this.job.parallelGroupIndex;
  }
  get parallelGroupTotal(): number | null {
    return this.job.parallelGroupTotal;
  }

  get matrix(): JobMatrix | null {
    return this.job.matrix;
  }
  get createdAt(): Date | null {
    return this.job.createdAt;
  }
  get scheduledAt(): Date | null {
    return this.job.scheduledAt;
  }
  get runnableAt(): Date | null {
    return this.job.runnableAt;
  }
  get startedAt(): Date | null {
    return this.job.startedAt;
  }
  get finishedAt(): Date | null {
    return this.job.finishedAt;
  }
  /** whether the job can be unblocked now (the unblock rule of the job state machine) */
  get isUnblockable(): boolean {
    return isUnblockable(this.job);
  }
  get unblockedAt(): Date | null {
    return this.job.unblockedAt;
  }
  /** a trigger job's `async` */
  get async(): boolean {
    return this.job.trigger?.async ?? false;
  }
}
