import type { PipelineAccess } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization, requirePipeline, requireScope } from '../auth/authorize';
import { memberPipelineAccess } from '../auth/member-pipeline-access';
import { accessAsMember, adminOrganizationIds, usableMemberships } from '../auth/usable-memberships';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { BuildFilter, BuildScope, Deps, OrganizationAccess } from '../ports';
import { requireStorableFilter } from './build-filter';
import { asSeenWith, type BuildResult } from './build-result';
import { answerRevision, pipelineRevision } from './pipeline-revision';

export type BuildListTarget =
  | { kind: 'all' }
  | { kind: 'organization'; organization: string }
  | { kind: 'pipeline'; organization: string; pipeline: string };

export interface BuildPage {
  builds: BuildResult[];
  /**
   * Every build the list covers, on all pages, when the list ends within {@link BUILD_COUNT_LIMIT} builds
   * or on this page; null when it goes on after this page beyond the limit (counted only that far).
   */
  totalCount: number | null;
  /** a pipeline's list: its {@link answerRevision}, read before the builds; null for other lists */
  revision: string | null;
  /** the caller had this list at `revision` already (`unlessUnchanged`): no build was read */
  unchanged?: true;
}

/**
 * How far a build list is counted for its total (the `last` page link). Counting every match of a list
 * that grows with the table would cost each page a read of the whole list (issue 8: 308 ms at 1,000,000
 * builds); bounded, a page costs the same at any size. `Deps.listLimits` may lower it (tests).
 */
export const BUILD_COUNT_LIMIT = 1000;

/** Which pipelines of these organizations the actor sees, and with what access (the domain's rule). */
export async function scopeOver(deps: Deps, actor: Actor, memberships: OrganizationAccess[]) {
  const adminIds = adminOrganizationIds(memberships);
  const accessByPipeline = await memberPipelineAccess(deps, actor.user.id, memberships);
  const scope: BuildScope = {
    kind: 'organizations',
    adminOrganizationIds: adminIds,
    visiblePipelineIds: [...accessByPipeline.keys()],
  };
  const byOrganization = new Map(memberships.map((membership) => [membership.organization.id, membership]));
  const accessFor = (pipelineId: string, organizationId: string): PipelineAccess =>
    accessAsMember({
      membership: byOrganization.get(organizationId),
      memberAccess: accessByPipeline,
      pipeline: { id: pipelineId },
    }) ?? 'none';
  return { scope, accessFor };
}

export const listBuilds =
  (deps: Deps) =>
  async (
    actor: Actor,
    target: BuildListTarget,
    filter: BuildFilter,
    page: Page | RowWindow,
    /** whether the caller has the answer at this revision already: then no build is read (ADR 0016) */
    unlessUnchanged?: (revision: string) => boolean,
  ): Promise<BuildPage> => {
    requireStorableFilter(filter);
    let scope: BuildScope;
    let accessFor: (pipelineId: string, organizationId: string) => PipelineAccess;
    let revision: string | null = null;
    if (target.kind === 'pipeline') {
      // An answer the revision may give reads the narrow access first, the pipeline only when it must.
      if (unlessUnchanged) {
        const known = await pipelineRevision(deps)(actor, target, 'listBuilds');
        if (known !== null && unlessUnchanged(known)) {
          return { builds: [], totalCount: null, revision: known, unchanged: true };
        }
      }
      const authorized = await requirePipeline(deps)(actor, 'listBuilds', target, 'read');
      scope = {
        kind: 'pipeline',
        pipelineId: authorized.pipeline.id,
        pipeline: { ...authorized.pipeline, createdBy: authorized.pipelineCreator },
      };
      accessFor = () => authorized.access;
      revision = answerRevision(actor, authorized);
    } else if (target.kind === 'organization') {
      const membership = await requireOrganization(deps)(actor, 'listBuilds', target.organization);
      ({ scope, accessFor } = await scopeOver(deps, actor, [membership]));
    } else {
      requireScope(actor, 'listBuilds');
      const memberships = [...(await usableMemberships(deps, actor)).values()];
      ({ scope, accessFor } = await scopeOver(deps, actor, memberships));
    }
    const window = pageWindow(page);
    const limit = deps.listLimits?.buildCount ?? BUILD_COUNT_LIMIT;
    // Counted to the limit, or past this page's end when it lies beyond: whether a next page exists is
    // always known, the total only up to the limit.
    const countAtMost = Math.max(limit, window.offset + window.limit) + 1;
    const { builds, counted } = await deps.repos.builds.page({ scope, filter, ...window, countAtMost });
    return {
      builds: builds.map((view) =>
        asSeenWith(accessFor(view.pipeline.id, view.pipeline.organizationId), view),
      ),
      totalCount: counted < countAtMost ? counted : null,
      revision,
    };
  };
