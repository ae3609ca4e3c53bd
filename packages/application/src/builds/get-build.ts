import type { Actor } from '../auth/actor';
import { requirePipeline } from '../auth/authorize';
import type { Deps } from '../ports';
import { type BuildResult, loadBuild } from './build-result';
import type { PipelineRef } from './create-build';
import { answerRevision } from './pipeline-revision';

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
  ): Promise<BuildResult & { revision: string | null }> => {
    const target = await requirePipeline(deps)(actor, 'getBuild', ref, 'read');
    const result = await loadBuild(deps)({
      pipeline: target.pipeline,
      number: ref.number,
      access: target.access,
      includeRetriedJobs: options.includeRetriedJobs ?? false,
    });
    return { ...result, revision: answerRevision(actor, target) };
  };
