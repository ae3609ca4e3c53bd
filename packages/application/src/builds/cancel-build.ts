import { notFound, stopBuild } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requirePipeline } from '../auth/authorize';
import type { Deps } from '../ports';
import { type BuildResult, loadBuild } from './build-result';
import type { BuildRef } from './get-build';

/**
 * Cancels through the state machine, under the build's lock: the build answers `canceled` at once (as the
 * spec's cancel does); jobs not yet on an agent are canceled, jobs agents hold become `canceling` and their
 * agents stop them at their next job-state poll, then report them `canceled`.
 */
export const cancelBuild =
  (deps: Deps) =>
  async (actor: Actor, ref: BuildRef): Promise<BuildResult> => {
    const target = await requirePipeline(deps)(actor, 'cancelBuild', ref, 'build');
    if (ref.number === null) throw notFound('build');
    // Locked by its number: the build is read once, after the change, for the answer.
    const canceled = await deps.repos.jobs.changeBuildNumbered(
      { pipelineId: target.pipeline.id, number: ref.number },
      (work) => {
        const stopped = stopBuild({ ...work, at: deps.clock.now(), trigger: { type: 'cancel' } });
        if (!stopped.ok) throw stopped.error;
        return { ...stopped.value, result: true };
      },
    );
    if (canceled === null) throw notFound('build');
    return loadBuild(deps)({ pipeline: target.pipeline, number: ref.number, access: target.access });
  };
