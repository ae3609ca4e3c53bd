import type { BuildFilter } from '@ci/application';
import {
  BUILD_STATE_FILTERS,
  type BuildStateFilter,
  expandStateFilter,
  isUuid,
  parseTimestamp,
} from '@ci/domain';
import { z } from 'zod';
import { flag, pageParameters, refuse, several } from '../parameters';

const isStateFilter = (value: string): value is BuildStateFilter =>
  (BUILD_STATE_FILTERS as readonly string[]).includes(value);

const stateList = several('build state, or `finished` (passed, failed, blocked, canceled)');
const states = stateList
  .transform((values, ctx) => {
    if (!values.every(isStateFilter)) {
      return refuse(ctx, `state must be one of ${BUILD_STATE_FILTERS.join(', ')}`);
    }
    return values;
  })
  .meta(stateList.meta() ?? {});

const timestamp = (name: string, description: string) =>
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (!text) return undefined;
      return parseTimestamp(text) ?? refuse(ctx, `${name} must be an ISO 8601 timestamp`);
    })
    .meta({ description });

const creator = z
  .string()
  .optional()
  .transform((text, ctx) => {
    if (!text) return undefined;
    return isUuid(text) ? text.toLowerCase() : refuse(ctx, 'creator must be a user UUID');
  })
  .meta({ description: 'user UUID' });

/** No keys: no filter. */
const metaData = z
  .record(z.string(), z.string())
  .optional()
  .transform((pairs) => (pairs && Object.keys(pairs).length > 0 ? pairs : undefined))
  .meta({ description: 'meta-data key and value, as `meta_data[<key>]=<value>`' });

/**
 * The query parameters of every build list, under their REST names, in every encoding clients send
 * (query-input.ts). A malformed filter answers 400 naming it; the checks run in this order (state,
 * creator, the timestamps, then the page).
 */
export const buildListParameters = {
  branch: several('branch, exact; `*` matches any characters'),
  commit: several('full commit SHA'),
  state: states,
  creator,
  created_from: timestamp('created_from', 'ISO 8601; created at or after'),
  created_to: timestamp('created_to', 'ISO 8601; created before'),
  finished_from: timestamp('finished_from', 'ISO 8601; finished at or after'),
  include_retried_jobs: flag('include every retried job execution'),
  exclude_jobs: flag('leave `jobs` out of each build'),
  exclude_pipeline: flag('leave `pipeline` out of each build'),
  ...pageParameters,
  meta_data: metaData,
};

/** A build list's query as its procedure reads it, parsed. */
export type BuildListQuery = z.output<z.ZodObject<typeof buildListParameters>>;

/** The use case's filter from a build list's parsed query. */
export function buildFilterOf(query: BuildListQuery): BuildFilter {
  const filter: BuildFilter = {
    includeRetriedJobs: query.include_retried_jobs,
    excludeJobs: query.exclude_jobs,
  };
  if (query.branch.length) filter.branches = query.branch;
  if (query.commit.length) filter.commits = query.commit;
  if (query.state.length) filter.states = expandStateFilter(query.state);
  if (query.creator) filter.creatorId = query.creator;
  if (query.created_from) filter.createdFrom = query.created_from;
  if (query.created_to) filter.createdTo = query.created_to;
  if (query.finished_from) filter.finishedFrom = query.finished_from;
  if (query.meta_data) filter.metaData = query.meta_data;
  return filter;
}
