import type { PipelineCounts } from '@ci/application';
import {
  ACTIVE_BUILD,
  INSERTS_COUNTED,
  jobTallies,
  NEW_BUILDS_TALLIES,
  TALLIES,
} from '../migrations/pipeline-counts-sql';

/*
 * Pipelines' live counts are stored counters (`pipeline_counts`), kept exact by the triggers of
 * Migration20261121160000 in the statements that change builds and jobs (a create counts its own build
 * and jobs: {@link COUNT_NEW_BUILDS}): reading them is one row per pipeline, whatever the number of builds.
 */

/** The counters of the pipeline `p`, for a query that joins `pipeline_counts pc` on it. */
export const PIPELINE_COUNT_COLUMNS = `pc.scheduled_builds as pc_scheduled_builds, pc.running_builds as pc_running_builds,
  pc.scheduled_jobs as pc_scheduled_jobs, pc.running_jobs as pc_running_jobs, pc.waiting_jobs as pc_waiting_jobs`;

/**
 * In a statement that inserts builds (its CTE `new_builds`, returning their `id`, `pipeline_id` and
 * `state`) and their jobs (`new_jobs`, returning `build_id` and `state`): the update of their pipelines'
 * counters that the insert triggers would make, with the triggers' own tallies (pipeline-counts-sql.ts),
 * made by the statement itself; the triggers then count nothing (Migration20261125140000). One update of
 * each counter row, returning the counts after it as {@link PIPELINE_COUNT_COLUMNS} names them, and the
 * pipeline's new builds revision, as the triggers'.
 */
export const COUNT_NEW_BUILDS = `update pipeline_counts pc set
    ${TALLIES.map((tally) => `${tally} = pc.${tally} + d.${tally}`).join(',\n    ')},
    builds_revision = nextval('content_revisions')
  from (
    select pipeline_id, ${TALLIES.map((tally) => `sum(${tally}) as ${tally}`).join(', ')}
    from (
      ${NEW_BUILDS_TALLIES}
      union all
      select b.pipeline_id, 0, 0, ${jobTallies('j.state', `(b.state in ${ACTIVE_BUILD})::int`)}
      from new_jobs j join new_builds b on b.id = j.build_id
    ) r group by pipeline_id
  ) d
  where pc.pipeline_id = d.pipeline_id
  returning ${PIPELINE_COUNT_COLUMNS}, ${INSERTS_COUNTED} as inserts_counted`;

const NO_COUNTS: PipelineCounts = {
  scheduledBuildsCount: 0,
  runningBuildsCount: 0,
  scheduledJobsCount: 0,
  runningJobsCount: 0,
  waitingJobsCount: 0,
};

/** The counts of a row with {@link PIPELINE_COUNT_COLUMNS} (none: a pipeline without counter row counts nothing). */
export function countsFromRow(row: Record<string, unknown>): PipelineCounts {
  if (row.pc_scheduled_builds === null || row.pc_scheduled_builds === undefined) return NO_COUNTS;
  return {
    scheduledBuildsCount: row.pc_scheduled_builds as number,
    runningBuildsCount: row.pc_running_builds as number,
    scheduledJobsCount: row.pc_scheduled_jobs as number,
    runningJobsCount: row.pc_running_jobs as number,
    waitingJobsCount: row.pc_waiting_jobs as number,
  };
}
