import type { BuildFilter, Page } from '@ci/application';
import {
  BUILD_STATE_FILTERS,
  type BuildStateFilter,
  badRequest,
  expandStateFilter,
  isUuid,
  parseTimestamp,
} from '@ci/domain';
import { parsePage, queryValues } from '../pagination';

/**
 * `meta_data[<key>]=<value>` parameters (brackets plain or percent-encoded), the last value per key; read
 * from the raw pairs, where a key like `meta_data[1]` is still a key and not an array index.
 */
function metaDataOf(query: URLSearchParams): Record<string, string> {
  const metaData: Record<string, string> = {};
  for (const [key, value] of query) {
    const name = /^meta_data\[(.+)\]$/.exec(key)?.[1];
    if (name) metaData[name] = value;
  }
  return metaData;
}

function timestamp(name: string, text: string | undefined): Date | undefined {
  if (text === undefined || text === '') return undefined;
  const parsed = parseTimestamp(text);
  if (!parsed) throw badRequest('invalid_parameter', `${name} must be an ISO 8601 timestamp`);
  return parsed;
}

function flag(text: string | undefined): boolean {
  return text === 'true' || text === '1';
}

/**
 * The build filters of a list query, in every encoding clients send: `state=a`, repeated
 * `state=a&state=b`, `state[]=a`, `state[0]=a`, percent-encoded brackets, and `meta_data[key]=value`.
 */
export function parseBuildFilter(query: URLSearchParams): BuildFilter {
  return buildFilterOf(queryValues(query), metaDataOf(query));
}

function buildFilterOf(values: Map<string, string[]>, metaData: Record<string, string>): BuildFilter {
  const nonEmpty = (key: string) => values.get(key)?.filter((value) => value !== '');
  const states = nonEmpty('state');
  for (const state of states ?? []) {
    if (!BUILD_STATE_FILTERS.includes(state as BuildStateFilter)) {
      throw badRequest('invalid_parameter', `state must be one of ${BUILD_STATE_FILTERS.join(', ')}`);
    }
  }
  const creator = values.get('creator')?.[0];
  if (creator && !isUuid(creator)) throw badRequest('invalid_parameter', 'creator must be a user UUID');
  const filter: BuildFilter = {
    includeRetriedJobs: flag(values.get('include_retried_jobs')?.[0]),
    excludeJobs: flag(values.get('exclude_jobs')?.[0]),
  };
  const branches = nonEmpty('branch');
  if (branches?.length) filter.branches = branches;
  const commits = nonEmpty('commit');
  if (commits?.length) filter.commits = commits;
  if (states?.length) filter.states = expandStateFilter(states as BuildStateFilter[]);
  if (creator) filter.creatorId = creator.toLowerCase();
  const createdFrom = timestamp('created_from', values.get('created_from')?.[0]);
  if (createdFrom) filter.createdFrom = createdFrom;
  const createdTo = timestamp('created_to', values.get('created_to')?.[0]);
  if (createdTo) filter.createdTo = createdTo;
  const finishedFrom = timestamp('finished_from', values.get('finished_from')?.[0]);
  if (finishedFrom) filter.finishedFrom = finishedFrom;
  if (Object.keys(metaData).length) filter.metaData = metaData;
  return filter;
}

/** Everything a build list reads from its query: the filter, the page, and what to leave out of each build. */
export function parseBuildListQuery(query: URLSearchParams): {
  filter: BuildFilter;
  page: Page;
  excludePipeline: boolean;
} {
  const values = queryValues(query);
  return {
    filter: buildFilterOf(values, metaDataOf(query)),
    page: parsePage(values),
    excludePipeline: flag(values.get('exclude_pipeline')?.[0]),
  };
}

/** `include_retried_jobs=true` on a get-build query. */
export function includesRetriedJobs(query: URLSearchParams): boolean {
  return flag(queryValues(query).get('include_retried_jobs')?.[0]);
}
