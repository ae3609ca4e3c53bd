import {
  changedPipeline,
  notFound,
  parsePipelineChangeRequest,
  pipelineNameTaken,
  pipelineTemplateUnknown,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requirePipeline } from '../auth/authorize';
import type { PipelineRef } from '../builds/create-build';
import { requirePipelineCluster } from '../clusters/cluster-access';
import type { Deps } from '../ports';
import { loadPipeline, type PipelineResult } from './pipeline-result';
import { readPipelineSource } from './pipeline-source';

/**
 * Changes what the body names (edit permission: admin or `manage_build_and_read`). A new name gives a new
 * slug, as in the public API; a taken one is refused like on create. The change is decided on the row as
 * it is under its lock, so it cannot undo a concurrent archive or rename.
 */
export const updatePipeline =
  (deps: Deps) =>
  async (actor: Actor, ref: PipelineRef, body: unknown): Promise<PipelineResult> => {
    const target = await requirePipeline(deps)(actor, 'updatePipeline', ref, 'manage');
    const changes = parsePipelineChangeRequest(body);
    if (!changes.ok) throw changes.error;
    const definition = changes.value.definition;
    const defined = definition
      ? await readPipelineSource(
          deps,
          { organizationId: target.organization.id, role: target.role },
          definition,
        )
      : null;
    await requirePipelineCluster(deps, target.organization.id, changes.value.clusterId);
    const updated = await deps.repos.pipelines.update({
      id: target.pipeline.id,
      change: (current) => {
        const next = changedPipeline(current, changes.value, defined);
        if (!next.ok) throw next.error;
        return next.value;
      },
    });
    if (updated === 'slug_taken') throw pipelineNameTaken();
    if (updated === 'template_not_found') throw pipelineTemplateUnknown();
    // Deleted between the authorization and the write.
    if (updated === 'not_found') throw notFound('pipeline');
    return loadPipeline(deps)({
      pipelineId: updated.id,
      access: target.access,
      organizationSlug: target.organization.slug,
    });
  };
