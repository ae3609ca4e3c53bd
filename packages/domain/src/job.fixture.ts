import type { BlockField, Job, JobState, JobType } from './entities';

const at = new Date('2026-11-21T10:05:00.000Z');

/** A job in any state, for tests. */
export function jobIn(state: JobState, type: JobType = 'script', overrides: Partial<Job> = {}): Job {
  return {
    matrix: null,
    timeoutInMinutes: null,
    id: 'job-1',
    buildId: 'build-1',
    stepId: 'step-1',
    position: 0,
    type,
    name: null,
    stepKey: null,
    command: type === 'script' ? 'echo hi' : null,
    state,
    agentQueryRules: type === 'script' ? ['queue=default'] : [],
    agentId: null,
    exitStatus: null,
    softFailed: false,
    artifactPaths: null,
    env: {},
    retried: false,
    retriedInJobId: null,
    retriesCount: null,
    retryType: null,
    parallelGroupIndex: null,
    parallelGroupTotal: null,
    createdAt: at,
    scheduledAt: at,
    runnableAt: null,
    startedAt: null,
    finishedAt: null,
    softFail: false,
    continueOnFailure: false,
    retryAutomaticLimit: null,
    signal: null,
    signalReason: null,
    unblockedById: null,
    unblockedAt: null,
    clusterId: null,
    clusterQueueId: null,
    trigger: null,
    triggeredBuildId: null,
    concurrencyGroup: null,
    concurrencyLimit: null,
    groupKey: null,
    blockFields: null,
    ...overrides,
  };
}

/** A block step's required text field `version` as a step without options reads it, for tests. */
export function textBlockField(overrides: Partial<BlockField> = {}): BlockField {
  return {
    type: 'text',
    key: 'version',
    label: 'Version',
    hint: null,
    required: true,
    default: null,
    options: [],
    multiple: false,
    ...overrides,
  };
}
