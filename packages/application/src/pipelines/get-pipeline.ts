import type { Actor } from '../auth/actor';
import { requirePipeline } from '../auth/authorize';
import type { PipelineRef } from '../builds/create-build';
import type { Deps } from '../ports';
import { loadPipeline, type PipelineResult } from './pipeline-result';

/** One pipeline; one the user cannot see answers 404 `No pipeline found`, like one that does not exist. */
export const getPipeline =
  (deps: Deps) =>
  async (actor: Actor, ref: PipelineRef): Promise<PipelineResult> => {
    const target = await requirePipeline(deps)(actor, 'getPipeline', ref, 'read');
    return loadPipeline(deps)({
      pipelineId: target.pipeline.id,
      access: target.access,
      organizationSlug: target.organization.slug,
    });
  };
