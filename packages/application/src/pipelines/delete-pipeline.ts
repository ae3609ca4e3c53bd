import { notFound } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requirePipeline } from '../auth/authorize';
import type { PipelineRef } from '../builds/create-build';
import type { Deps } from '../ports';

/** Deletes the pipeline and with it its builds, their jobs and its team associations (edit permission). */
export const deletePipeline =
  (deps: Deps) =>
  async (actor: Actor, ref: PipelineRef): Promise<void> => {
    const target = await requirePipeline(deps)(actor, 'deletePipeline', ref, 'manage');
    if (!(await deps.repos.pipelines.delete(target.pipeline.id))) throw notFound('pipeline');
  };
