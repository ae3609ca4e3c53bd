import type { PipelineCounts } from '@ci/application';
import type { Sql } from '../sql';

/** Pipelines' live counts, once per distinct pipeline of a page rather than once per build or row. */
const PIPELINE_COUNTS = `select p.id,
  (select count(*) from builds s where s.pipeline_id = p.id and s.state = 'scheduled')::int as scheduled_builds,
  (select count(*) from builds s where s.pipeline_id = p.id and s.state = 'running')::int as running_builds,
  jc.scheduled as scheduled_jobs, jc.running as running_jobs, jc.waiting as waiting_jobs
from unnest($1::uuid[]) as p(id)
left join lateral (
  select count(*) filter (where j.state in ('scheduled', 'assigned', 'accepted'))::int as scheduled,
         count(*) filter (where j.state in ('running', 'canceling', 'timing_out'))::int as running,
         count(*) filter (where j.state in ('waiting', 'blocked', 'limited', 'pending'))::int as waiting
  from builds ab join jobs j on j.build_id = ab.id
  where ab.pipeline_id = p.id and ab.state in ('scheduled', 'running', 'failing', 'canceling', 'blocked')
) jc on true`;

export const NO_COUNTS: PipelineCounts = {
  scheduledBuildsCount: 0,
  runningBuildsCount: 0,
  scheduledJobsCount: 0,
  runningJobsCount: 0,
  waitingJobsCount: 0,
};

/** The live counts of these pipelines, by pipeline id (also what a pipeline's own wire form shows). */
export async function pipelineCounts(sql: Sql, pipelineIds: string[]): Promise<Map<string, PipelineCounts>> {
  const rows = await sql.query(PIPELINE_COUNTS, [pipelineIds]);
  const counts = new Map<string, PipelineCounts>();
  for (const row of rows) {
    counts.set(row.id as string, {
      scheduledBuildsCount: row.scheduled_builds as number,
      runningBuildsCount: row.running_builds as number,
      scheduledJobsCount: row.scheduled_jobs as number,
      runningJobsCount: row.running_jobs as number,
      waitingJobsCount: row.waiting_jobs as number,
    });
  }
  return counts;
}
