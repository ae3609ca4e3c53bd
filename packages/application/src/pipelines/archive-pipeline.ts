import { archivedPipeline, notFound, type Pipeline, type Result, unarchivedPipeline } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requirePipeline } from '../auth/authorize';
import type { PipelineRef } from '../builds/create-build';
import type { Deps } from '../ports';
import { loadPipeline, type PipelineResult } from './pipeline-result';

/**
 * Archive and unarchive: edit permission, then the state decides under the row lock, so of two
 * concurrent archives one succeeds and the other answers 422 `Pipeline could not be archived.`.
 */
const changeArchival =
  (deps: Deps, operation: 'archivePipeline' | 'unarchivePipeline') =>
  async (actor: Actor, ref: PipelineRef): Promise<PipelineResult> => {
    const target = await requirePipeline(deps)(actor, operation, ref, 'manage');
    const at = deps.clock.now();
    const change = (current: Pipeline): Result<Pipeline> =>
      operation === 'archivePipeline' ? archivedPipeline(current, at) : unarchivedPipeline(current);
    const updated = await deps.repos.pipelines.update({
      id: target.pipeline.id,
      change: (current) => {
        const next = change(current);
        if (!next.ok) throw next.error;
        return next.value;
      },
    });
    // Deleted between the authorization and the write (the slug does not change here, so it cannot be taken).
    if (typeof updated === 'string') throw notFound('pipeline');
    return loadPipeline(deps)({
      pipelineId: updated.id,
      access: target.access,
      organizationSlug: target.organization.slug,
    });
  };

export const archivePipeline = (deps: Deps) => changeArchival(deps, 'archivePipeline');
export const unarchivePipeline = (deps: Deps) => changeArchival(deps, 'unarchivePipeline');
