import { isStorableText, readClusterQueueIds, unprocessable } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization } from '../auth/authorize';
import { type JobResult, jobsInBuilds } from '../builds/builds-by-id';
import { scopeOver } from '../builds/list-builds';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { Deps, OrganizationJobFilter } from '../ports';

export interface OrganizationJobQuery extends Omit<OrganizationJobFilter, 'clusterQueueIds'> {
  /** cluster queues' GraphQL ids or UUIDs: the jobs of these queues */
  clusterQueues: readonly string[] | null;
}

/**
 * The jobs of an organization's builds (their latest runs), newest first, as the actor may see their
 * builds: `read_builds`, then the organization, then each pipeline's visibility (the domain's rule, as a
 * build list of the organization decides it).
 */
export const listOrganizationJobs =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationSlug: string,
    query: OrganizationJobQuery,
    page: Page | RowWindow,
  ): Promise<{ items: JobResult[]; totalCount: number }> => {
    const membership = await requireOrganization(deps)(actor, 'listBuilds', organizationSlug);
    const rules = query.agentQueryRules;
    if (rules?.some((rule) => !isStorableText(rule) || rule.length > 255)) {
      throw unprocessable(
        'invalid_agent_query_rules',
        'agentQueryRules must be texts of at most 255 characters',
      );
    }
    const clusterQueueIds = readClusterQueueIds(query.clusterQueues);
    if (clusterQueueIds?.length === 0) return { items: [], totalCount: 0 };
    const { scope } = await scopeOver(deps, actor, [membership]);
    const admin =
      scope.kind === 'organizations' && scope.adminOrganizationIds.includes(membership.organization.id);
    const jobScope = {
      organizationId: membership.organization.id,
      pipelineIds: admin || scope.kind !== 'organizations' ? null : scope.visiblePipelineIds,
      filter: { types: query.types, states: query.states, agentQueryRules: rules, clusterQueueIds },
    };
    const [pairs, totalCount] = await Promise.all([
      deps.repos.organizationJobs.list({ ...jobScope, ...pageWindow(page) }),
      deps.repos.organizationJobs.count(jobScope),
    ]);
    const found = await jobsInBuilds(deps, actor, pairs);
    return {
      items: pairs.map((pair) => found.get(pair.jobId)).filter((job): job is JobResult => job !== undefined),
      totalCount,
    };
  };
