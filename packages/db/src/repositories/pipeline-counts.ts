import type { PipelineCounts } from '@ci/application';

/*
 * Pipelines' live counts are stored counters (`pipeline_counts`), kept exact by the triggers of
 * Migration20261121160000 in the statements that change builds and jobs: reading them is one row per
 * pipeline, whatever the number of builds.
 */

/** The counters of the pipeline `p`, for a query that joins `pipeline_counts pc` on it. */
export const PIPELINE_COUNT_COLUMNS = `pc.scheduled_builds as pc_scheduled_builds, pc.running_builds as pc_running_builds,
  pc.scheduled_jobs as pc_scheduled_jobs, pc.running_jobs as pc_running_jobs, pc.waiting_jobs as pc_waiting_jobs`;

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
