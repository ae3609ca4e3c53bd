import type { Job, JobState, JobType } from './entities';

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
    ...overrides,
  };
}
