import { badRequest, canSeeWebhookUrl, distinctUuids, notFound, type PipelineAccess } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requirePipeline, requireScope, requireSlugParts } from '../auth/authorize';
import { type EstablishedAccess, establishAccess } from '../auth/established-access';
import { readVisible, usableById, usableMemberships } from '../auth/usable-memberships';
import type { PipelineRef } from '../builds/create-build';
import type { Deps, OrganizationAccess, PipelineAsRead } from '../ports';
import { archivePipeline, unarchivePipeline } from './archive-pipeline';
import { createPipeline } from './create-pipeline';
import { deletePipeline } from './delete-pipeline';
import type { PipelineResult } from './pipeline-result';
import { updatePipeline } from './update-pipeline';

/**
 * A pipeline as the actor sees it: rule B2 decides whether the webhook URL shows. `established`: the
 * access the rule decided for this actor in this request, which the pipeline's builds then reuse (absent
 * when the pipeline comes from elsewhere: they decide it again).
 */
export interface PipelineSeen {
  /** with its creator when the read that found it had it (lists of its builds then need not read it) */
  pipeline: PipelineAsRead;
  organizationSlug: string;
  showWebhookUrl: boolean;
  established?: EstablishedAccess;
}

/** What a REST pipeline result shows of the pipeline, as a by-id read does. */
export function seenFrom(result: PipelineResult): PipelineSeen {
  return {
    pipeline: { ...result.record.pipeline, createdBy: result.record.createdBy },
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
    const visible = await visiblePipelinesById(deps, actor, ids);
    return ids.map((id) => {
      const found = visible.get(id.toLowerCase());
      if (!found) return null;
      const { pipeline, membership, access } = found;
      return {
        pipeline,
        organizationSlug: membership.organization.slug,
        showWebhookUrl: canSeeWebhookUrl(access),
        established: establishAccess({ actor, pipelineId: pipeline.id, access }),
      };
    });
  };

/** A pipeline the actor may see, with the membership and access that decided it. */
export interface VisiblePipeline {
  pipeline: PipelineAsRead;
  membership: OrganizationAccess;
  access: PipelineAccess;
}

/**
 * Those of these pipelines the actor may see, by id, with the membership and access that decided it:
 * the organization (one the token may use) and the domain's access rule. Three statements at most.
 */
export async function visiblePipelinesById(
  deps: Deps,
  actor: Actor,
  ids: readonly string[],
): Promise<Map<string, VisiblePipeline>> {
  const wanted = distinctUuids(ids);
  if (wanted.length === 0) return new Map();
  const seen = await readVisible(deps, actor, deps.repos.lookups.pipelines(wanted), (pipeline) => pipeline);
  return new Map(
    seen.map(({ item, access, membership }) => [item.id, { pipeline: item, membership, access }]),
  );
}

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
        pipeline: { ...target.pipeline, createdBy: target.pipelineCreator },
        organizationSlug: target.organization.slug,
        showWebhookUrl: canSeeWebhookUrl(target.access),
        established: establishAccess({ actor, pipelineId: target.pipeline.id, access: target.access }),
      };
    }
    throw badRequest('pipeline_key', 'Find a pipeline by either its slug or its uuid');
  };

/**
 * The pipeline changes for a transport that names pipelines and organizations by UUID (GraphQL): each
 * finds the REST address (organization slug, pipeline slug) among the actor's organizations and calls the
 * REST use case, so scopes, roles, validation and messages are REST's. A pipeline or organization the
 * actor's organizations do not hold answers as one that does not exist.
 */

/** Creates a pipeline in the organization with this UUID from a REST create body. */
export const createPipelineInOrganizationId =
  (deps: Deps) =>
  async (actor: Actor, organizationId: string | null, body: unknown): Promise<PipelineResult> => {
    requireScope(actor, 'createPipeline');
    const memberships = await usableMemberships(deps, actor);
    const membership = organizationId ? memberships.get(organizationId.toLowerCase()) : undefined;
    if (!membership) throw notFound('organization');
    return createPipeline(deps)(actor, membership.organization.slug, body);
  };

/** The REST address of a pipeline the actor's organizations hold; any other answers `No pipeline found`. */
export async function addressPipeline(
  deps: Deps,
  actor: Actor,
  pipelineId: string | null,
): Promise<{ ref: PipelineRef; membership: OrganizationAccess }> {
  const { found, membership } = await usableById(deps, actor, {
    id: pipelineId,
    read: (id) => deps.repos.lookups.pipelines([id]),
    organizationOf: (pipeline) => pipeline.organizationId,
    resource: 'pipeline',
  });
  return { ref: { organization: membership.organization.slug, pipeline: found.slug }, membership };
}

/** Changes the pipeline with this UUID from a REST update body. */
export const updatePipelineById =
  (deps: Deps) =>
  async (actor: Actor, pipelineId: string | null, body: unknown): Promise<PipelineResult> => {
    requireScope(actor, 'updatePipeline');
    const { ref } = await addressPipeline(deps, actor, pipelineId);
    return updatePipeline(deps)(actor, ref, body);
  };

/** Archives (or unarchives) the pipeline with this UUID. */
export const archivePipelineById =
  (deps: Deps) =>
  async (actor: Actor, pipelineId: string | null): Promise<PipelineResult> => {
    requireScope(actor, 'archivePipeline');
    const { ref } = await addressPipeline(deps, actor, pipelineId);
    return archivePipeline(deps)(actor, ref);
  };

export const unarchivePipelineById =
  (deps: Deps) =>
  async (actor: Actor, pipelineId: string | null): Promise<PipelineResult> => {
    requireScope(actor, 'unarchivePipeline');
    const { ref } = await addressPipeline(deps, actor, pipelineId);
    return unarchivePipeline(deps)(actor, ref);
  };

/** Deletes the pipeline with this UUID; returns the organization it belonged to. */
export const deletePipelineById =
  (deps: Deps) =>
  async (
    actor: Actor,
    pipelineId: string | null,
  ): Promise<{ organization: OrganizationAccess['organization'] }> => {
    requireScope(actor, 'deletePipeline');
    const { ref, membership } = await addressPipeline(deps, actor, pipelineId);
    await deletePipeline(deps)(actor, ref);
    return { organization: membership.organization };
  };
