import { badRequest, canSeeWebhookUrl, distinctUuids, notFound, type Pipeline } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requirePipeline, requireScope, requireSlugParts } from '../auth/authorize';
import { type EstablishedAccess, establishAccess } from '../auth/established-access';
import { usableMemberships, visiblePipelineAccess } from '../auth/usable-memberships';
import type { Deps } from '../ports';
import type { PipelineResult } from './pipeline-result';

/**
 * A pipeline as the actor sees it: rule B2 decides whether the webhook URL shows. `established`: the
 * access the rule decided for this actor in this request, which the pipeline's builds then reuse (absent
 * when the pipeline comes from elsewhere: they decide it again).
 */
export interface PipelineSeen {
  pipeline: Pipeline;
  organizationSlug: string;
  showWebhookUrl: boolean;
  established?: EstablishedAccess;
}

/** What a REST pipeline result shows of the pipeline, as a by-id read does. */
export function seenFrom(result: PipelineResult): PipelineSeen {
  return {
    pipeline: result.record.pipeline,
    organizationSlug: result.organizationSlug,
    showWebhookUrl: result.showWebhookUrl,
  };
}

/**
 * These pipelines, in the order given, null for the unknown and the invisible: `read_pipelines`, then
 * the organization (one the token may use) and the domain's access rule, as the REST get decides.
 */
export const getPipelinesById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<PipelineSeen | null>> => {
    requireScope(actor, 'getPipeline');
    const wanted = distinctUuids(ids);
    const [pipelines, memberships] = await Promise.all([
      deps.repos.lookups.pipelines(wanted),
      usableMemberships(deps, actor),
    ]);
    const access = await visiblePipelineAccess(deps, actor, pipelines, memberships);
    const visible = new Map<string, PipelineSeen>();
    for (const pipeline of pipelines) {
      const level = access.get(pipeline.id);
      const membership = memberships.get(pipeline.organizationId);
      if (!level || !membership) continue;
      visible.set(pipeline.id, {
        pipeline,
        organizationSlug: membership.organization.slug,
        showWebhookUrl: canSeeWebhookUrl(level),
        established: establishAccess({ actor, pipelineId: pipeline.id, access: level }),
      });
    }
    return ids.map((id) => visible.get(id.toLowerCase()) ?? null);
  };

/**
 * A pipeline by `slug` (`<organization>/<pipeline>`, the REST get use case, with its refusals) or by
 * `uuid`. A slug of another shape answers `No pipeline found`; neither or both, `Find a pipeline by
 * either its slug or its uuid`.
 */
export const findPipeline =
  (deps: Deps) =>
  async (actor: Actor, key: { slug?: string | null; uuid?: string | null }): Promise<PipelineSeen> => {
    if (key.uuid != null && key.slug == null) {
      const [pipeline] = await getPipelinesById(deps)(actor, [key.uuid]);
      if (!pipeline) throw notFound('pipeline');
      return pipeline;
    }
    if (key.slug != null && key.uuid == null) {
      const [organization, pipeline] = requireSlugParts(actor, 'getPipeline', key.slug, {
        count: 2,
        resource: 'pipeline',
      }) as [string, string];
      // The REST get's rule (requirePipeline) without its read of the counts, which a PipelineSeen does not show.
      const target = await requirePipeline(deps)(actor, 'getPipeline', { organization, pipeline }, 'read');
      return {
        pipeline: target.pipeline,
        organizationSlug: target.organization.slug,
        showWebhookUrl: canSeeWebhookUrl(target.access),
        established: establishAccess({ actor, pipelineId: target.pipeline.id, access: target.access }),
      };
    }
    throw badRequest('pipeline_key', 'Find a pipeline by either its slug or its uuid');
  };
