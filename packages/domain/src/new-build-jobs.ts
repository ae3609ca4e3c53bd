import type { Job, StepDefinition } from './entities';

const DEFAULT_AGENT_QUERY_RULES = ['queue=default'];

function baseJob(input: { id: string; buildId: string; position: number; at: Date }) {
  return {
    id: input.id,
    buildId: input.buildId,
    position: input.position,
    agentId: null,
    exitStatus: null,
    softFailed: false,
    retried: false,
    retriedInJobId: null,
    retriesCount: null,
    retryType: null,
    parallelGroupIndex: null,
    parallelGroupTotal: null,
    createdAt: input.at,
    // Created with the build, so the scheduler handles them at the build's creation time.
    scheduledAt: input.at,
    startedAt: null,
    finishedAt: null,
    softFail: false,
    continueOnFailure: false,
    retryAutomaticLimit: null,
    signal: null,
    signalReason: null,
    unblockedById: null,
    unblockedAt: null,
  };
}

/**
 * The jobs a new build starts with: one per command step (one per parallel copy), a waiter per wait step
 * and a manual job per block step. Jobs ahead of the first wait or block are runnable at once.
 */
export function jobsForSteps(input: {
  steps: readonly StepDefinition[];
  buildId: string;
  at: Date;
  newId: () => string;
}): Job[] {
  const jobs: Job[] = [];
  let gated = false;
  for (const step of input.steps) {
    const common = () =>
      baseJob({ id: input.newId(), buildId: input.buildId, position: jobs.length, at: input.at });
    if (step.type === 'command') {
      const copies = step.parallelism && step.parallelism > 1 ? step.parallelism : 1;
      for (let index = 0; index < copies; index++) {
        jobs.push({
          ...common(),
          stepId: step.id,
          type: 'script',
          name: step.label,
          stepKey: step.key,
          command: step.command,
          state: gated ? 'waiting' : 'scheduled',
          agentQueryRules: step.agentQueryRules.length
            ? [...step.agentQueryRules]
            : [...DEFAULT_AGENT_QUERY_RULES],
          artifactPaths: step.artifactPaths,
          env: { ...step.env },
          parallelGroupIndex: copies > 1 ? index : null,
          parallelGroupTotal: copies > 1 ? copies : null,
          runnableAt: gated ? null : input.at,
          softFail: step.softFail,
          retryAutomaticLimit: step.retry?.automatic ?? null,
        });
      }
    } else {
      jobs.push({
        ...common(),
        stepId: step.id,
        type: step.type === 'wait' ? 'waiter' : 'manual',
        name: step.type === 'block' ? step.label : null,
        stepKey: step.key,
        command: null,
        state: step.type === 'wait' ? 'waiting' : 'blocked',
        agentQueryRules: [],
        artifactPaths: null,
        env: {},
        runnableAt: null,
        continueOnFailure: step.type === 'wait' && step.continueOnFailure,
      });
      gated = true;
    }
  }
  return jobs;
}
