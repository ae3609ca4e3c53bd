import type { Actor } from '../auth/actor';
import { requirePipeline } from '../auth/authorize';
import type { Deps } from '../ports';
import { type BuildResult, loadBuild } from './build-result';
import type { PipelineRef } from './create-build';

export interface BuildRef extends PipelineRef {
  /** null: the path held no build number; answers like a build that does not exist */
  number: number | null;
}

export const getBuild =
  (deps: Deps) =>
  async (
    actor: Actor,
    ref: BuildRef,
    options: { includeRetriedJobs?: boolean } = {},
  ): Promise<BuildResult> => {
    const target = await requirePipeline(deps)(actor, 'getBuild', ref, 'read');
    return loadBuild(deps)({
      pipeline: target.pipeline,
      number: ref.number,
      access: target.access,
      includeRetriedJobs: options.includeRetriedJobs ?? false,
    });
  };
