import { allows, type PipelineAccess } from './access';
import { type BuildState, isFinished } from './build-state';
import type { Build, Job } from './entities';
import type { TriggeredOutcome } from './job-state';
import type { Rule } from './rule';

/**
 * How many builds a chain of trigger steps may hold, the first build included: a pipeline that triggers
 * itself (or two that trigger each other) stops there instead of building for ever.
 */
export const MAX_TRIGGER_DEPTH = 10;

/**
 * The build a trigger job asks for, as the public format fills in what its step leaves out: the step's
 * label (else the triggering build's message) as the message, `HEAD`, the target pipeline's default
 * branch; the triggering build's author. Branch filters do not apply to it.
 */
export function triggeredBuildRequest(input: {
  job: Pick<Job, 'name' | 'trigger'>;
  parent: Pick<Build, 'message' | 'author'>;
  targetDefaultBranch: string | null;
}): Pick<Build, 'message' | 'commit' | 'branch' | 'env' | 'metaData' | 'author'> {
  const build = input.job.trigger?.build;
  return {
    message: build?.message ?? input.job.name ?? input.parent.message ?? '',
    commit: build?.commit ?? 'HEAD',
    branch: build?.branch ?? input.targetDefaultBranch ?? 'main',
    env: build?.env ?? {},
    metaData: build?.metaData ?? {},
    author: input.parent.author,
  };
}

/**
 * Whether a build of the source pipeline may trigger one of the target: by a
 * `pipeline.trigger_build.pipeline` rule from source to target (without conditions, which are not
 * evaluated), or because the triggering build's creator may build the target (`creatorAccess`; null:
 * the build has no creator).
 */
export function mayTriggerBuild(input: {
  sourcePipelineId: string;
  targetPipelineId: string;
  rules: readonly Pick<Rule, 'type' | 'sourcePipelineId' | 'targetPipelineId' | 'value'>[];
  creatorAccess: PipelineAccess | null;
}): boolean {
  if (input.creatorAccess !== null && allows(input.creatorAccess, 'build')) return true;
  return input.rules.some(
    (rule) =>
      rule.type === 'pipeline.trigger_build.pipeline' &&
      rule.sourcePipelineId === input.sourcePipelineId &&
      rule.targetPipelineId === input.targetPipelineId &&
      !rule.value.conditions?.length,
  );
}

/**
 * How a trigger job that waits ends once its build stopped (null: the build goes on): as the build did;
 * a blocked, skipped or not-run build counts as passed, as the public API's trigger steps take them.
 */
export function triggeredOutcome(state: BuildState): TriggeredOutcome | null {
  if (!isFinished(state)) return null;
  if (state === 'failed') return 'failed';
  if (state === 'canceled') return 'canceled';
  return 'passed';
}

/** Why a trigger job made no build, as its log says. */
export const TRIGGER_REFUSALS = {
  noPipeline: (slug: string) => `No pipeline "${slug}" in this organization: nothing was triggered`,
  notAllowed: (slug: string) =>
    `Not allowed to trigger a build of "${slug}": the triggering build's creator may not build it and no pipeline.trigger_build.pipeline rule allows it`,
  tooDeep: () =>
    `Trigger steps nest too deep: a chain of triggered builds holds at most ${MAX_TRIGGER_DEPTH} builds`,
} as const;
