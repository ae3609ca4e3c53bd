import type { JobResult } from '@ci/application';
import { isUnblockable, type JobState, type JobType, webAddresses } from '@ci/domain';
import type { ObjectFieldsShape } from '@pothos/core';
import { builder, type Types } from '../builder';
import { JOB_TYPE_NAMES, type JobTypeName } from '../job-kinds';
import {
  AgentRef,
  BuildRef,
  JobTypeBlockRef,
  JobTypeCommandRef,
  JobTypeTriggerRef,
  JobTypeWaitRef,
  PipelineRef,
  pipelineOfBuild,
} from './refs';
import { ConnectionInterface } from './scalars';
import { UserRef } from './user';

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

export const jobStateName = (state: JobState): JobStateName => STATE_NAMES[state];

export const JobStates = builder.enumType('JobStates', {
  description: 'All the possible states a job can be in',
  values: [...new Set<JobStateName>([...Object.values(STATE_NAMES), ...UNUSED_STATE_NAMES])].sort(),
});

export const JobTypes = builder.enumType('JobTypes', {
  description: 'All the possible types of jobs that can exist',
  values: {
    BLOCK: { value: 'manual' },
    COMMAND: { value: 'script' },
    TRIGGER: { value: 'trigger' },
    WAIT: { value: 'waiter' },
  } as const satisfies Record<string, { value: JobType }>,
});

/** Why the agent signalled the job's process, as the agent reported it (`signal_reason`). */
const SIGNAL_REASONS = [
  'AGENT_INCOMPATIBLE',
  'AGENT_REFUSED',
  'AGENT_STOP',
  'CANCEL',
  'PROCESS_RUN_ERROR',
  'SIGNATURE_REJECTED',
  'STACK_ERROR',
] as const;
type SignalReason = (typeof SIGNAL_REASONS)[number];

const JobEventSignalReason = builder.enumType('JobEventSignalReason', {
  description: "The reason why a signal was sent to the job's process, or why the process did not start",
  values: SIGNAL_REASONS,
});

/** The reference's name of a reason the agent reported; one it does not know is no reason (null). */
function signalReasonName(reason: string | null): SignalReason | null {
  const name = reason?.toUpperCase();
  return (SIGNAL_REASONS as readonly string[]).includes(name ?? '') ? (name as SignalReason) : null;
}

const JobRetryTypes = builder.enumType('JobRetryTypes', {
  description: 'The retry types that can be made on a Job',
  values: { AUTOMATIC: { value: 'automatic' }, MANUAL: { value: 'manual' } } as const,
});

/** The fields every kind of job has (the reference's `JobInterface`, less retriedBy). */
const JobInterface = builder.interfaceRef<JobResult>('JobInterface').implement({
  fields: (t) => ({
    retrySource: t.field({
      type: JobUnion,
      nullable: true,
      description: 'The job that was retried to create this job',
      // Only a retry has a source: first runs cost nothing.
      resolve: ({ job }, _args, ctx) => (job.retriesCount ? ctx.loaders.retrySources.load(job.id) : null),
    }),
    uuid: t.string({ nullable: false, description: 'The UUID for this job', resolve: ({ job }) => job.id }),
    retried: t.boolean({ nullable: false, resolve: ({ job }) => job.retried }),
    retriesCount: t.int({ nullable: true, resolve: ({ job }) => job.retriesCount }),
    retryType: t.field({
      type: JobRetryTypes,
      nullable: true,
      resolve: ({ job }) =>
        job.retryType === 'automatic' || job.retryType === 'manual' ? job.retryType : null,
    }),
  }),
});

interface StepShape {
  uuid: string;
  key: string | null;
}

const StepInterface = builder.interfaceRef<StepShape>('Step').implement({
  fields: (t) => ({
    uuid: t.exposeString('uuid', { nullable: false, description: 'The UUID for this step' }),
    key: t.exposeString('key', { nullable: true, description: 'The user-defined key for this step' }),
  }),
});

const stepType = (name: string, description: string) =>
  builder.objectRef<StepShape>(name).implement({ description, interfaces: [StepInterface] });

const stepOf = ({ job }: JobResult): StepShape | null =>
  job.stepId ? { uuid: job.stepId, key: job.stepKey } : null;

/**
 * One member of the `Job` union: the fields every kind shows, the `step` of its kind, and `extra` fields.
 */
function jobType(
  ref: typeof JobTypeCommandRef,
  options: { description: string; step: ReturnType<typeof stepType> },
  extra: ObjectFieldsShape<Types, JobResult> = () => ({}),
) {
  builder.node(ref, {
    description: options.description,
    interfaces: [JobInterface],
    id: { resolve: ({ job }) => job.id },
    fields: (t) => ({
      label: t.string({ nullable: true, resolve: ({ job }) => job.name }),
      state: t.field({ type: JobStates, nullable: false, resolve: ({ job }) => jobStateName(job.state) }),
      step: t.field({ type: options.step, nullable: true, resolve: stepOf }),
      build: t.field({ type: BuildRef, nullable: true, resolve: ({ build }) => build }),
    }),
  });
  builder.objectFields(ref, extra);
}

jobType(
  JobTypeCommandRef,
  {
    description: 'A type of job that runs a command on an agent',
    step: stepType('StepCommand', 'A step in a build that runs a command on an agent'),
  },
  (t) => ({
    command: t.string({ nullable: true, resolve: ({ job }) => job.command }),
    agentQueryRules: t.stringList({ nullable: true, resolve: ({ job }) => job.agentQueryRules }),
    automaticArtifactUploadPaths: t.string({ nullable: true, resolve: ({ job }) => job.artifactPaths }),
    exitStatus: t.string({
      nullable: true,
      resolve: ({ job }) => (job.exitStatus === null ? null : String(job.exitStatus)),
    }),
    passed: t.boolean({ nullable: false, resolve: ({ job }) => job.state === 'passed' }),
    signal: t.string({
      nullable: true,
      description: 'The termination signal which killed the command, if the command was killed',
      resolve: ({ job }) => job.signal,
    }),
    signalReason: t.field({
      type: JobEventSignalReason,
      nullable: true,
      description: 'Why the agent sent the signal, when it did (null: the process was killed by another)',
      resolve: ({ job }) => signalReasonName(job.signalReason),
    }),
    canceledAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The time when the job was canceled (`finishedAt` of a canceled job)',
      resolve: ({ job }) => (job.state === 'canceled' ? job.finishedAt : null),
    }),
    softFailed: t.boolean({ nullable: false, resolve: ({ job }) => job.softFailed }),
    parallelGroupIndex: t.int({ nullable: true, resolve: ({ job }) => job.parallelGroupIndex }),
    parallelGroupTotal: t.int({ nullable: true, resolve: ({ job }) => job.parallelGroupTotal }),
    createdAt: t.field({ type: 'DateTime', nullable: true, resolve: ({ job }) => job.createdAt }),
    scheduledAt: t.field({ type: 'DateTime', nullable: true, resolve: ({ job }) => job.scheduledAt }),
    runnableAt: t.field({ type: 'DateTime', nullable: true, resolve: ({ job }) => job.runnableAt }),
    startedAt: t.field({ type: 'DateTime', nullable: true, resolve: ({ job }) => job.startedAt }),
    finishedAt: t.field({ type: 'DateTime', nullable: true, resolve: ({ job }) => job.finishedAt }),
    url: t.string({
      nullable: false,
      description: "The job's address: an anchor on its build's page (REST `web_url`)",
      resolve: ({ build: { view }, job }, _args, ctx) =>
        webAddresses.job(
          webAddresses.build(ctx.urls.web, view.organizationSlug, view.pipeline.slug, view.build.number),
          job.id,
        ),
    }),
    agent: t.field({ type: AgentRef, nullable: true, resolve: ({ agent }) => agent }),
    pipeline: t.field({ type: PipelineRef, nullable: true, resolve: ({ build }) => pipelineOfBuild(build) }),
  }),
);

jobType(JobTypeWaitRef, {
  description: 'A type of job that waits for all previous jobs to pass before proceeding the build pipeline',
  step: stepType('StepWait', 'A wait step waits for all previous steps to have successfully completed'),
});

jobType(
  JobTypeBlockRef,
  {
    description: 'A type of job that requires a user to unblock it before proceeding in a build pipeline',
    step: stepType('StepInput', 'An input step collects information from a user'),
  },
  (t) => ({
    isUnblockable: t.boolean({
      nullable: true,
      description: 'Whether or not this job can be unblocked now (the unblock rule of the job state machine)',
      resolve: ({ job }) => isUnblockable(job),
    }),
    unblockedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'The time when the job was unblocked',
      resolve: ({ job }) => job.unblockedAt,
    }),
    unblockedBy: t.field({
      type: UserRef,
      nullable: true,
      description:
        'The user that unblocked this job (null also when they are not in an organization the token may use)',
      resolve: ({ job }, _args, ctx) =>
        job.unblockedById ? ctx.loaders.people.load(job.unblockedById) : null,
    }),
  }),
);

jobType(JobTypeTriggerRef, {
  description: 'A type of job that triggers another build on a pipeline',
  step: stepType('StepTrigger', 'A trigger step creates a build on another pipeline'),
});

const JOB_TYPE_REFS = {
  JobTypeCommand: JobTypeCommandRef,
  JobTypeWait: JobTypeWaitRef,
  JobTypeBlock: JobTypeBlockRef,
  JobTypeTrigger: JobTypeTriggerRef,
} as const satisfies Record<JobTypeName, unknown>;

/** The union member of each REST job type. */
export function jobTypeRef(result: Pick<JobResult, 'job'>) {
  return JOB_TYPE_REFS[JOB_TYPE_NAMES[result.job.type]];
}

export const JobUnion = builder.unionType('Job', {
  description: 'Kinds of jobs that can exist on a build',
  types: [JobTypeBlockRef, JobTypeCommandRef, JobTypeTriggerRef, JobTypeWaitRef],
  resolveType: jobTypeRef,
});

export const JobConnection = builder.connectionObject(
  { type: JobUnion, name: 'JobConnection', interfaces: [ConnectionInterface] },
  { name: 'JobEdge' },
);
