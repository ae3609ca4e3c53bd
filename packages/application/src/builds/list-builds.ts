import type { PipelineAccess } from '@ci/domain';
import { type Actor, mayUseOrganization } from '../auth/actor';
import { requireOrganization, requirePipeline, requireScope } from '../auth/authorize';
import { memberPipelineAccess } from '../auth/member-pipeline-access';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { BuildFilter, BuildScope, Deps, OrganizationAccess } from '../ports';
import { asSeenWith, type BuildResult } from './build-result';

export type BuildListTarget =
  | { kind: 'all' }
  | { kind: 'organization'; organization: string }
  | { kind: 'pipeline'; organization: string; pipeline: string };

export interface BuildPage {
  builds: BuildResult[];
  /** every build the list covers, on all pages */
  totalCount: number;
}

/** Which pipelines of these organizations the actor sees, and with what access (the domain's rule). */
export async function scopeOver(deps: Deps, actor: Actor, memberships: OrganizationAccess[]) {
  const adminOrganizationIds = memberships.filter((m) => m.role === 'admin').map((m) => m.organization.id);
  const accessByPipeline = await memberPipelineAccess(deps, actor.user.id, memberships);
  const scope: BuildScope = {
    kind: 'organizations',
    adminOrganizationIds,
    visiblePipelineIds: [...accessByPipeline.keys()],
  };
  const accessFor = (pipelineId: string, organizationId: string): PipelineAccess =>
    adminOrganizationIds.includes(organizationId) ? 'admin' : (accessByPipeline.get(pipelineId) ?? 'none');
  return { scope, accessFor };
}

export const listBuilds =
  (deps: Deps) =>
  async (
    actor: Actor,
    target: BuildListTarget,
    filter: BuildFilter,
    page: Page | RowWindow,
  ): Promise<BuildPage> => {
    let scope: BuildScope;
    let accessFor: (pipelineId: string, organizationId: string) => PipelineAccess;
    if (target.kind === 'pipeline') {
      const authorized = await requirePipeline(deps)(actor, 'listBuilds', target, 'read');
      scope = { kind: 'pipeline', pipelineId: authorized.pipeline.id };
      accessFor = () => authorized.access;
    } else if (target.kind === 'organization') {
      const membership = await requireOrganization(deps)(actor, 'listBuilds', target.organization);
      ({ scope, accessFor } = await scopeOver(deps, actor, [membership]));
    } else {
      requireScope(actor, 'listBuilds');
      const memberships = (await deps.repos.access.memberships(actor.user.id)).filter((m) =>
        mayUseOrganization(actor, m.organization.id),
      );
      ({ scope, accessFor } = await scopeOver(deps, actor, memberships));
    }
    // The page and the count are independent reads: side by side, not one after the other.
    const [views, totalCount] = await Promise.all([
      deps.repos.builds.list({ scope, filter, ...pageWindow(page) }),
      deps.repos.builds.count({ scope, filter }),
    ]);
    return {
      builds: views.map((view) =>
        asSeenWith(accessFor(view.pipeline.id, view.pipeline.organizationId), view),
      ),
      totalCount,
    };
  };
