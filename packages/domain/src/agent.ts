import { readClusterQueueIds } from './cluster';
import { badRequest } from './errors';
import { err, ok, type Result } from './result';
import { isStorableText, UNSTORABLE_TEXT } from './storable-text';

/** An organization's agents, narrowed as the public GraphQL API's `Organization.agents` narrows them. */
export interface AgentListFilter {
  /** a part of the name or of one of the tags, any case */
  search: string | null;
  /** tags (`key=value`) the agent must all have */
  metaData: string[];
  /** true: agents holding a job now; false: the others; null: all */
  isRunningJob: boolean | null;
  /** REST's filters: exact name, hostname and version (null: any) */
  name: string | null;
  hostname: string | null;
  version: string | null;
  /** REST lists only agents still there: not disconnected or stopped */
  presentOnly: boolean;
  /** agents of these cluster queues (GraphQL `clusterQueue`); null: any; empty: none */
  clusterQueueIds: string[] | null;
}

export const AGENT_FILTER_LIMITS = { search: 255, metaData: 50, tag: 356, exact: 255 } as const;

export function parseAgentListFilter(query: {
  search?: string | null | undefined;
  metaData?: readonly string[] | null | undefined;
  isRunningJob?: boolean | null | undefined;
  name?: string | null | undefined;
  hostname?: string | null | undefined;
  version?: string | null | undefined;
  presentOnly?: boolean | undefined;
  clusterQueues?: readonly string[] | null | undefined;
}): Result<AgentListFilter> {
  const exact: Record<'name' | 'hostname' | 'version', string | null> = {
    name: null,
    hostname: null,
    version: null,
  };
  for (const field of ['name', 'hostname', 'version'] as const) {
    const value = query[field] ?? '';
    if (!isStorableText(value)) return err(badRequest('invalid_parameter', `${field} ${UNSTORABLE_TEXT}`));
    if (value.length > AGENT_FILTER_LIMITS.exact) {
      return err(
        badRequest(
          'invalid_parameter',
          `${field} is too long (maximum is ${AGENT_FILTER_LIMITS.exact} characters)`,
        ),
      );
    }
    exact[field] = value === '' ? null : value;
  }
  const search = query.search ?? '';
  if (!isStorableText(search)) return err(badRequest('invalid_parameter', `search ${UNSTORABLE_TEXT}`));
  if (search.length > AGENT_FILTER_LIMITS.search) {
    return err(
      badRequest(
        'invalid_parameter',
        `search is too long (maximum is ${AGENT_FILTER_LIMITS.search} characters)`,
      ),
    );
  }
  const metaData = [...new Set(query.metaData ?? [])];
  if (metaData.length > AGENT_FILTER_LIMITS.metaData) {
    return err(
      badRequest('invalid_parameter', `metaData takes at most ${AGENT_FILTER_LIMITS.metaData} tags`),
    );
  }
  for (const tag of metaData) {
    if (!isStorableText(tag)) return err(badRequest('invalid_parameter', `metaData ${UNSTORABLE_TEXT}`));
    if (tag.length > AGENT_FILTER_LIMITS.tag) {
      return err(
        badRequest('invalid_parameter', `metaData tags are at most ${AGENT_FILTER_LIMITS.tag} characters`),
      );
    }
  }
  return ok({
    search: search === '' ? null : search,
    metaData,
    isRunningJob: query.isRunningJob ?? null,
    ...exact,
    presentOnly: query.presentOnly ?? false,
    clusterQueueIds: readClusterQueueIds(query.clusterQueues),
  });
}
