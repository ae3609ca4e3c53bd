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
    // The build read with the token (a GET of one build names it): the rules above decided on the same read.
    const readAhead = actor.pipelineAccess;
    if (
      readAhead?.build !== undefined &&
      !options.includeRetriedJobs &&
      readAhead.organizationSlug === ref.organization &&
      readAhead.pipelineSlug === ref.pipeline &&
      readAhead.buildNumber === ref.number
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
