import { type Agent, parseAgentListFilter } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization } from '../auth/authorize';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { Deps } from '../ports';

export interface AgentPage {
  items: Agent[];
  /** every agent the list covers, on all pages */
  totalCount: number;
}

/** The list filters as GraphQL's `Organization.agents` takes them. */
export interface AgentListQuery {
  search?: string | null | undefined;
  metaData?: readonly string[] | null | undefined;
  isRunningJob?: boolean | null | undefined;
  /** REST's filters (exact) and its leaving out agents that have gone */
  name?: string | null | undefined;
  hostname?: string | null | undefined;
  version?: string | null | undefined;
  presentOnly?: boolean | undefined;
  /** GraphQL's `clusterQueue`: queues' GraphQL ids or UUIDs */
  clusterQueues?: readonly string[] | null | undefined;
}

/**
 * An organization's agents, oldest first (so pages stay put as agents come and go), for every member:
 * `read_agents`, then the organization, as the public API's agent list.
 */
export const listAgents =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationSlug: string,
    query: AgentListQuery,
    page: Page | RowWindow,
  ): Promise<AgentPage> => {
    const { organization } = await requireOrganization(deps)(actor, 'listAgents', organizationSlug);
    const filter = parseAgentListFilter(query);
    if (!filter.ok) throw filter.error;
    if (filter.value.clusterQueueIds?.length === 0) return { items: [], totalCount: 0 };
    const scope = { organizationId: organization.id, filter: filter.value };
    const [items, totalCount] = await Promise.all([
      deps.repos.agents.list({ ...scope, ...pageWindow(page) }),
      deps.repos.agents.count(scope),
    ]);
    return { items, totalCount };
  };
