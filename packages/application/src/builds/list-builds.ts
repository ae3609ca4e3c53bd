import { type PipelineAccess, pipelineAccess } from '@ci/domain';
import { type Actor, mayUseOrganization } from '../auth/actor';
import { requireOrganization, requirePipeline, requireScope } from '../auth/authorize';
import type { BuildFilter, BuildScope, Deps, OrganizationAccess } from '../ports';
import { asSeenWith, type BuildResult } from './build-result';

export type BuildListTarget =
  | { kind: 'all' }
  | { kind: 'organization'; organization: string }
  | { kind: 'pipeline'; organization: string; pipeline: string };

export interface Page {
  page: number;
  perPage: number;
}

export interface BuildPage {
  builds: BuildResult[];
  /** every build the list covers, on all pages */
  totalCount: number;
}

/** Which pipelines of these organizations the actor sees, and with what access (the domain's rule). */
async function scopeOver(deps: Deps, actor: Actor, memberships: OrganizationAccess[]) {
  const adminOrganizationIds = memberships.filter((m) => m.role === 'admin').map((m) => m.organization.id);
  const memberOf = memberships.filter((m) => m.role !== 'admin');
  const accessByPipeline = new Map<string, PipelineAccess>();
  const entries = await deps.repos.access.pipelineAccessIn({
    userId: actor.user.id,
    organizationIds: memberOf.map((m) => m.organization.id),
  });
  for (const entry of entries) {
    const access = pipelineAccess({ role: 'member', ...entry });
    if (access !== 'none') accessByPipeline.set(entry.pipelineId, access);
  }
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
  async (actor: Actor, target: BuildListTarget, filter: BuildFilter, page: Page): Promise<BuildPage> => {
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
      deps.repos.builds.list({ scope, filter, offset: (page.page - 1) * page.perPage, limit: page.perPage }),
      deps.repos.builds.count({ scope, filter }),
    ]);
    return {
      builds: views.map((view) =>
        asSeenWith(accessFor(view.pipeline.id, view.pipeline.organizationId), view),
      ),
      totalCount,
    };
  };
