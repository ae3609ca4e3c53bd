import { matchesBranchFilter } from './branch-filter';
import { type ClusterPlacement, queueForRules } from './cluster';
import type { Job, Pipeline, StepDefinition } from './entities';
import { DEFAULT_QUEUE } from './job-state';
import { type ConditionFacts, conditionHolds, parseCondition, type RegexEngine } from './step-condition';
import { interpolateMatrix, type JobMatrix, jobMatrix, matrixCombinations } from './step-matrix';

const DEFAULT_AGENT_QUERY_RULES = [`queue=${DEFAULT_QUEUE}`];

/** What a new job takes from its step (and its place among the step's parallel copies). */
type FromStep = Pick<
  Job,
  | 'stepId'
  | 'type'
  | 'name'
  | 'stepKey'
  | 'command'
  | 'state'
  | 'agentQueryRules'
  | 'artifactPaths'
  | 'env'
  | 'parallelGroupIndex'
  | 'parallelGroupTotal'
  | 'runnableAt'
  | 'softFail'
  | 'continueOnFailure'
  | 'retryAutomaticLimit'
  | 'matrix'
  | 'timeoutInMinutes'
  | 'clusterId'
  | 'clusterQueueId'
  | 'trigger'
  | 'concurrencyGroup'
  | 'concurrencyLimit'
  | 'groupKey'
  | 'blockFields'
>;

/**
 * A new build's job: every field written in one literal, in one order (each job the same shape; a
 * spread of common fields cost a create ~4% of its Node CPU).
 */
function newJob(place: { id: string; buildId: string; position: number; at: Date }, step: FromStep): Job {
  return {
    id: place.id,
    buildId: place.buildId,
    stepId: step.stepId,
    position: place.position,
    type: step.type,
    name: step.name,
    stepKey: step.stepKey,
    command: step.command,
    state: step.state,
    agentQueryRules: step.agentQueryRules,
    agentId: null,
    exitStatus: null,
    softFailed: false,
    artifactPaths: step.artifactPaths,
    env: step.env,
    retried: false,
    retriedInJobId: null,
    retriesCount: null,
    retryType: null,
    parallelGroupIndex: step.parallelGroupIndex,
    parallelGroupTotal: step.parallelGroupTotal,
    createdAt: place.at,
    // Created with the build, so the scheduler handles them at the build's creation time.
    scheduledAt: place.at,
    runnableAt: step.runnableAt,
    startedAt: null,
    finishedAt: null,
    softFail: step.softFail,
    continueOnFailure: step.continueOnFailure,
    retryAutomaticLimit: step.retryAutomaticLimit,
    signal: null,
    signalReason: null,
    unblockedById: null,
    unblockedAt: null,
    matrix: step.matrix,
    timeoutInMinutes: step.timeoutInMinutes,
    clusterId: step.clusterId,
    clusterQueueId: step.clusterQueueId,
    trigger: step.trigger,
    triggeredBuildId: null,
    concurrencyGroup: step.concurrencyGroup,
    concurrencyLimit: step.concurrencyLimit,
    groupKey: step.groupKey,
    blockFields: step.blockFields,
  };
}

/**
 * A command job's timeout: its step's, else the pipeline's default, never past the pipeline's maximum
 * (the public rule).
 */
export function jobTimeout(
  stepTimeout: number | null | undefined,
  pipeline: PipelineTimeouts | undefined,
): number | null {
  const wanted = stepTimeout ?? pipeline?.defaultTimeoutInMinutes ?? null;
  const maximum = pipeline?.maximumTimeoutInMinutes ?? null;
  if (maximum === null) return wanted;
  return wanted === null ? maximum : Math.min(wanted, maximum);
}

export type PipelineTimeouts = Pick<Pipeline, 'defaultTimeoutInMinutes' | 'maximumTimeoutInMinutes'>;

/** Whether a build with these facts runs the step: its `branches` match the branch and its `if` holds. */
export function stepRuns(step: StepDefinition, facts: ConditionFacts, regex: RegexEngine): boolean {
  if (step.branches && !matchesBranchFilter(step.branches, facts.branch)) return false;
  if (!step.condition) return true;
  const condition = parseCondition(step.condition, regex);
  // Checked when the step was read; a stored step that no longer reads runs, as before conditions.
  return !condition.ok || conditionHolds(condition.value, facts);
}

/**
 * The jobs a new build starts with, for the steps that run on it ({@link stepRuns}): one per command
 * step (one per parallel copy and matrix combination), a waiter per wait step, a manual job per block
 * step and a trigger job per trigger step. Jobs ahead of the first wait or block are runnable at once.
 */
export function jobsForSteps(input: {
  steps: readonly StepDefinition[];
  buildId: string;
  at: Date;
  newId: () => string;
  facts: ConditionFacts;
  /** compiles the patterns of the steps' `if` */
  regex: RegexEngine;
  /** the pipeline's default and maximum timeouts; absent: none */
  timeouts?: PipelineTimeouts;
  /** the pipeline's cluster; null or absent: unclustered */
  cluster?: ClusterPlacement | null;
}): Job[] {
  const jobs: Job[] = [];
  const cluster = input.cluster ?? null;
  let gated = false;
  for (const step of input.steps) {
    if (!stepRuns(step, input.facts, input.regex)) continue;
    const nextPlace = () => ({
      id: input.newId(),
      buildId: input.buildId,
      position: jobs.length,
      at: input.at,
    });
    if (step.type === 'command') {
      const copies = step.parallelism && step.parallelism > 1 ? step.parallelism : 1;
      const combinations = step.matrix ? matrixCombinations(step.matrix) : [null];
      for (const combination of combinations) {
        const fill = (text: string) => (combination ? interpolateMatrix(text, combination.values) : text);
        const rules = step.agentQueryRules.length ? step.agentQueryRules : DEFAULT_AGENT_QUERY_RULES;
        // The queue as the step names it (a matrix may fill it in); none named: the default queue.
        const clusterQueueId = cluster ? queueForRules(step.agentQueryRules.map(fill), cluster) : null;
        for (let index = 0; index < copies; index++) {
          jobs.push(
            newJob(nextPlace(), {
              stepId: step.id,
              type: 'script',
              name: step.label === null ? null : fill(step.label),
              stepKey: step.key,
              command: fill(step.command),
              state: gated ? 'waiting' : 'scheduled',
              agentQueryRules: rules.map(fill),
              artifactPaths: step.artifactPaths,
              env: Object.fromEntries(Object.entries(step.env).map(([name, value]) => [name, fill(value)])),
              parallelGroupIndex: copies > 1 ? index : null,
              parallelGroupTotal: copies > 1 ? copies : null,
              runnableAt: gated ? null : input.at,
              softFail: step.softFail || (combination?.softFail ?? false),
              continueOnFailure: false,
              retryAutomaticLimit: step.retry?.automatic ?? null,
              matrix: combination ? (jobMatrix(combination.values) as JobMatrix) : null,
              timeoutInMinutes: jobTimeout(step.timeoutInMinutes, input.timeouts),
              clusterId: cluster?.clusterId ?? null,
              clusterQueueId,
              trigger: null,
              concurrencyGroup: step.concurrency?.group ?? null,
              concurrencyLimit: step.concurrency?.limit ?? null,
              groupKey: step.groupKey ?? null,
              blockFields: null,
            }),
          );
        }
      }
    } else if (step.type === 'trigger') {
      // The server, not an agent, runs it: it creates the build once the job is scheduled.
      jobs.push(
        newJob(nextPlace(), {
          stepId: step.id,
          type: 'trigger',
          name: step.label,
          stepKey: step.key,
          command: null,
          state: gated ? 'waiting' : 'scheduled',
          agentQueryRules: [],
          artifactPaths: null,
          env: {},
          parallelGroupIndex: null,
          parallelGroupTotal: null,
          runnableAt: gated ? null : input.at,
          softFail: false,
          continueOnFailure: false,
          retryAutomaticLimit: null,
          matrix: null,
          timeoutInMinutes: null,
          clusterId: null,
          clusterQueueId: null,
          trigger: { pipeline: step.pipeline, async: step.async, build: step.build },
          concurrencyGroup: null,
          concurrencyLimit: null,
          groupKey: step.groupKey ?? null,
          blockFields: null,
        }),
      );
    } else {
      jobs.push(
        newJob(nextPlace(), {
          stepId: step.id,
          type: step.type === 'wait' ? 'waiter' : 'manual',
          name: step.type === 'block' ? step.label : null,
          stepKey: step.key,
          command: null,
          state: step.type === 'wait' ? 'waiting' : 'blocked',
          agentQueryRules: [],
          artifactPaths: null,
          env: {},
          parallelGroupIndex: null,
          parallelGroupTotal: null,
          runnableAt: null,
          softFail: false,
          continueOnFailure: step.type === 'wait' && step.continueOnFailure,
          retryAutomaticLimit: null,
          matrix: null,
          timeoutInMinutes: null,
          // Only command jobs go to agents.
          clusterId: null,
          clusterQueueId: null,
          trigger: null,
          concurrencyGroup: null,
          concurrencyLimit: null,
          groupKey: step.groupKey ?? null,
          blockFields: step.type === 'block' && step.fields?.length ? step.fields : null,
        }),
      );
      gated = true;
    }
  }
  return jobs;
}
