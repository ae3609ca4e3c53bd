import { type DomainError, isUuid, notFound, type PipelineAccess } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireScope } from '../auth/authorize';
import { accessEstablished } from '../auth/established-access';
import { usableMemberships } from '../auth/usable-memberships';
import { type ListPart, type PartRequest, readParts } from '../page';
import { type PipelineSeen, visiblePipelinesById } from '../pipelines/pipelines-by-id';
import type { BuildFilter, BuildScope, Deps, PipelineAsRead } from '../ports';
import { requireStorableFilter } from './build-filter';
import { asSeenWith, type BuildResult } from './build-result';
import { scopeOver } from './list-builds';

/**
 * The builds of several pipelines, or of several creators, at once (GraphQL's `Pipeline.builds` on a
 * page of pipelines, `User.builds` on a page of users), newest first as the REST lists, with their
 * filters and rules: `read_builds`, then the domain's access rule for every pipeline.
 */

/** A parent pipeline as the caller holds it, with the access decided for it in this request, if any. */
export type KnownPipeline = Pick<PipelineSeen, 'pipeline' | 'established'>;

/**
 * The builds of each pipeline the actor may see; another pipeline is refused with `No pipeline found`.
 * A pipeline among `known` whose access this request decided for this actor (`pipeline(slug:)`) keeps
 * that decision; the others' access is decided here, for the whole batch. Either way the builds read
 * only their pipelines' counts, beside them, as the REST list does.
 */
export const listBuildsOfPipelines =
  (deps: Deps) =>
  async (
    actor: Actor,
    requests: readonly PartRequest[],
    filter: BuildFilter,
    known: readonly KnownPipeline[] = [],
  ): Promise<Array<ListPart<BuildResult>>> => {
    requireScope(actor, 'listBuilds');
    requireStorableFilter(filter);
    const parentIds = new Set(requests.map((request) => request.parentId));
    const access = new Map<string, PipelineAccess>();
    const read: PipelineAsRead[] = [];
    for (const { pipeline, established } of known) {
      const level = accessEstablished({ actor, pipelineId: pipeline.id, established });
      if (!level || !parentIds.has(pipeline.id) || access.has(pipeline.id)) continue;
      access.set(pipeline.id, level);
      read.push(pipeline);
    }
    const others = [...parentIds].filter((id) => !access.has(id));
    for (const { pipeline, access: level } of (await visiblePipelinesById(deps, actor, others)).values()) {
      access.set(pipeline.id, level);
      read.push(pipeline);
    }
    const refusals = new Map<string, DomainError>(
      requests
        .filter(({ parentId }) => !access.has(parentId))
        .map(({ parentId }) => [parentId, notFound('pipeline')]),
    );
    const scope: BuildScope = {
      kind: 'organizations',
      adminOrganizationIds: [],
      visiblePipelineIds: requests.map(({ parentId }) => parentId).filter((id) => !refusals.has(id)),
      pipelines: read,
    };
    return readParts({
      requests,
      refusals,
      list: async (windows) =>
        (await deps.repos.builds.listOfParents({ scope, filter, parent: 'pipeline', windows })).map((view) =>
          asSeenWith(access.get(view.pipeline.id) ?? 'none', view),
        ),
      count: (parentIds) =>
        deps.repos.builds.countOfParents({ scope, filter, parent: 'pipeline', parentIds }),
      parentOf: (build) => build.view.pipeline.id,
    });
  };

/**
 * The builds each of these users created, among those the actor may see (every pipeline of the
 * organizations where the actor is an admin, elsewhere the pipelines the access rule lets them see).
 */
export const listBuildsOfCreators =
  (deps: Deps) =>
  async (
    actor: Actor,
    requests: readonly PartRequest[],
    filter: BuildFilter,
  ): Promise<Array<ListPart<BuildResult>>> => {
    requireScope(actor, 'listBuilds');
    requireStorableFilter(filter);
    const memberships = [...(await usableMemberships(deps, actor)).values()];
    const { scope, accessFor } = await scopeOver(deps, actor, memberships);
    const refusals = new Map<string, DomainError>(
      requests
        .filter(({ parentId }) => !isUuid(parentId))
        .map(({ parentId }) => [parentId, notFound('user')]),
    );
    return readParts({
      requests,
      refusals,
      list: async (windows) =>
        (await deps.repos.builds.listOfParents({ scope, filter, parent: 'creator', windows })).map((view) =>
          asSeenWith(accessFor(view.pipeline.id, view.pipeline.organizationId), view),
        ),
      count: (parentIds) => deps.repos.builds.countOfParents({ scope, filter, parent: 'creator', parentIds }),
      parentOf: (build) => build.view.build.creatorId ?? '',
    });
  };
