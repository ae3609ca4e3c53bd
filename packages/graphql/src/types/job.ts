import { type JobType, webAddresses } from '@ci/domain';
import type { ObjectFieldsShape } from '@pothos/core';
import { builder, type Types } from '../builder';
import { JOB_TYPE_NAMES, type JobTypeName } from '../job-kinds';
import { BuildNode } from './build-node';
import { ClusterQueueRef, ClusterRef, clusterQueueOf } from './cluster';
import { JOB_STATE_NAMES, type JobNode, SIGNAL_REASONS } from './job-node';
import { clusterOf } from './pipeline';
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

export const JobStates = builder.enumType('JobStates', {
  description: 'All the possible states a job can be in',
  values: JOB_STATE_NAMES,
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

const JobEventSignalReason = builder.enumType('JobEventSignalReason', {
  description: "The reason why a signal was sent to the job's process, or why the process did not start",
  values: SIGNAL_REASONS,
});

const JobConcurrency = builder.objectRef<{ group: string; limit: number }>('JobConcurrency').implement({
  description: 'Concurrency configuration for a job',
  fields: (t) => ({
    group: t.exposeString('group', { nullable: false, description: 'The concurrency group' }),
    limit: t.exposeInt('limit', {
      nullable: false,
      description: 'The maximum amount of jobs in the concurrency that are allowed to run at any given time',
    }),
  }),
});

const JobRetryTypes = builder.enumType('JobRetryTypes', {
  description: 'The retry types that can be made on a Job',
  values: { AUTOMATIC: { value: 'automatic' }, MANUAL: { value: 'manual' } } as const,
});

/** The fields every kind of job has (the reference's `JobInterface`, less retriedBy). */
const JobInterface = builder.interfaceRef<JobNode>('JobInterface').implement({
  fields: (t) => ({
    retrySource: t.field({
      type: JobUnion,
      nullable: true,
      description: 'The job that was retried to create this job',
      // Only a retry has a source: first runs cost nothing.
      resolve: ({ job }, _args, ctx) => (job.retriesCount ? ctx.loaders.retrySources.load(job.id) : null),
    }),
    uuid: t.exposeString('uuid', { nullable: false, description: 'The UUID for this job' }),
    retried: t.exposeBoolean('retried', { nullable: false }),
    retriesCount: t.exposeInt('retriesCount', { nullable: true }),
    retryType: t.expose('retryType', { type: JobRetryTypes, nullable: true }),
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

const stepOf = ({ job }: JobNode): StepShape | null =>
  job.stepId ? { uuid: job.stepId, key: job.stepKey } : null;

/**
 * One member of the `Job` union: the fields every kind shows, the `step` of its kind, and `extra` fields.
 */
function jobType(
  ref: typeof JobTypeCommandRef,
  options: { description: string; step: ReturnType<typeof stepType> },
  extra: ObjectFieldsShape<Types, JobNode> = () => ({}),
) {
  builder.node(ref, {
    description: options.description,
    interfaces: [JobInterface],
    id: { resolve: ({ job }) => job.id },
    extensions: { idReadInPlace: true },
    fields: (t) => ({
      label: t.exposeString('label', { nullable: true }),
      state: t.expose('state', { type: JobStates, nullable: false }),
      step: t.field({ type: options.step, nullable: true, resolve: stepOf }),
      groupKey: t.string({
        nullable: true,
        description:
          "The group step the job's step came from: its key, else its id (REST `group_key`); null outside a group",
        resolve: ({ job }) => job.groupKey,
      }),
      build: t.field({ type: BuildRef, nullable: true, resolve: ({ build }) => BuildNode.of(build) }),
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
    command: t.exposeString('command', { nullable: true }),
    cluster: t.field({
      type: ClusterRef,
      nullable: true,
      description:
        "The cluster of the job's pipeline when the job was made (null: unclustered, or the token may not read clusters)",
      resolve: ({ job }, _args, ctx) => clusterOf(job.clusterId, ctx),
    }),
    clusterQueue: t.field({
      type: ClusterQueueRef,
      nullable: true,
      description:
        'The cluster queue the job waits in or ran from (null: unclustered, no such queue, or the token may not read clusters)',
      resolve: ({ job }, _args, ctx) => clusterQueueOf(job.clusterQueueId, ctx),
    }),
    agentQueryRules: t.exposeStringList('agentQueryRules', { nullable: true }),
    concurrency: t.field({
      type: JobConcurrency,
      nullable: true,
      description:
        "Concurrency information related to a job: its step's `concurrency_group` and `concurrency`",
      resolve: ({ job }) =>
        job.concurrencyGroup !== null && job.concurrencyLimit !== null
          ? { group: job.concurrencyGroup, limit: job.concurrencyLimit }
          : null,
    }),
    automaticArtifactUploadPaths: t.exposeString('automaticArtifactUploadPaths', { nullable: true }),
    exitStatus: t.exposeString('exitStatus', { nullable: true }),
    passed: t.exposeBoolean('passed', { nullable: false }),
    signal: t.exposeString('signal', {
      nullable: true,
      description: 'The termination signal which killed the command, if the command was killed',
    }),
    signalReason: t.expose('signalReason', {
      type: JobEventSignalReason,
      nullable: true,
      description: 'Why the agent sent the signal, when it did (null: the process was killed by another)',
    }),
    canceledAt: t.expose('canceledAt', {
      type: 'DateTime',
      nullable: true,
      description: 'The time when the job was canceled (`finishedAt` of a canceled job)',
    }),
    softFailed: t.exposeBoolean('softFailed', { nullable: false }),
    parallelGroupIndex: t.exposeInt('parallelGroupIndex', { nullable: true }),
    parallelGroupTotal: t.exposeInt('parallelGroupTotal', { nullable: true }),
    matrix: t.expose('matrix', {
      type: 'JSON',
      nullable: true,
      description: "The job's combination of its step's matrix: the value, or the values by dimension",
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: true }),
    scheduledAt: t.expose('scheduledAt', { type: 'DateTime', nullable: true }),
    runnableAt: t.expose('runnableAt', { type: 'DateTime', nullable: true }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
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
    isUnblockable: t.exposeBoolean('isUnblockable', {
      nullable: true,
      description: 'Whether or not this job can be unblocked now (the unblock rule of the job state machine)',
    }),
    unblockedAt: t.expose('unblockedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'The time when the job was unblocked',
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

jobType(
  JobTypeTriggerRef,
  {
    description: 'A type of job that triggers another build on a pipeline',
    step: stepType('StepTrigger', 'A trigger step creates a build on another pipeline'),
  },
  (t) => ({
    async: t.exposeBoolean('async', {
      nullable: false,
      description: 'Whether the job passes once its build is created, instead of waiting for that build',
    }),
    triggered: t.field({
      type: BuildRef,
      nullable: true,
      description: 'The build this job triggered (null until it is created, or when it is not readable)',
      resolve: ({ job }, _args, ctx) =>
        job.triggeredBuildId ? ctx.loaders.builds.load(job.triggeredBuildId) : null,
    }),
  }),
);

const JOB_TYPE_REFS = {
  JobTypeCommand: JobTypeCommandRef,
  JobTypeWait: JobTypeWaitRef,
  JobTypeBlock: JobTypeBlockRef,
  JobTypeTrigger: JobTypeTriggerRef,
} as const satisfies Record<JobTypeName, unknown>;

/** The union member of each REST job type. */
export function jobTypeRef(result: Pick<JobNode, 'job'>) {
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
