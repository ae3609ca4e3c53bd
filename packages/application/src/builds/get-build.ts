import { notFound } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requirePipeline } from '../auth/authorize';
import type { Deps } from '../ports';
import { asSeenWith, type BuildResult, loadBuild } from './build-result';
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
    // The build read with the token (a GET of one build names it), when the rules above decided on that
    // same read.
    const { readAhead } = target;
    if (
      readAhead?.build !== undefined &&
      readAhead.buildNumber === ref.number &&
      !options.includeRetriedJobs
    ) {
      if (!readAhead.build) throw notFound('build');
      return asSeenWith(target.access, readAhead.build);
    }
    return loadBuild(deps)({
      pipeline: target.pipeline,
      number: ref.number,
      access: target.access,
      includeRetriedJobs: options.includeRetriedJobs ?? false,
    });
  };
