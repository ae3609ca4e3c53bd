/*
 * What a pipeline's live counts count (as the aggregate they replace did): builds scheduled, builds running,
 * and the jobs of active builds by kind of job state. Written once, here, for the migrations that create
 * the counters' triggers (Migration20261121160000, Migration20261125120000, Migration20261125140000) and
 * for the create that counts its own build and jobs (repositories/pipeline-counts.ts), which must count
 * exactly as the triggers do. As frozen as those migrations: a change to what the counters count is a new
 * migration with rules of its own. No import of MikroORM here: the server reads these without loading it
 * (it loads MikroORM only to apply a pending migration).
 */
const list = (states: string[]) => `(${states.map((state) => `'${state}'`).join(', ')})`;
export const ACTIVE_BUILD = list(['scheduled', 'running', 'failing', 'canceling', 'blocked']);
const SCHEDULED_JOB = list(['scheduled', 'assigned', 'accepted']);
const RUNNING_JOB = list(['running', 'canceling', 'timing_out']);
const WAITING_JOB = list(['waiting', 'blocked', 'limited', 'pending']);
export const COUNTED_JOB = list([
  'scheduled',
  'assigned',
  'accepted',
  'running',
  'canceling',
  'timing_out',
  'waiting',
  'blocked',
  'limited',
  'pending',
]);

/** The tallies a counter row keeps, in the order {@link NEW_BUILDS_TALLIES} and {@link jobTallies} give them. */
export const TALLIES = [
  'scheduled_builds',
  'running_builds',
  'scheduled_jobs',
  'running_jobs',
  'waiting_jobs',
];

/** A job's tallies (scheduled, running, waiting) from its state, times `sign`. */
export const jobTallies = (state: string, sign = '1') =>
  `${sign} * (${state} in ${SCHEDULED_JOB})::int as scheduled_jobs,
   ${sign} * (${state} in ${RUNNING_JOB})::int as running_jobs,
   ${sign} * (${state} in ${WAITING_JOB})::int as waiting_jobs`;

/** In a builds insert's trigger (`new_builds`): each new build's own tallies. */
export const NEW_BUILDS_TALLIES = `select pipeline_id, (state = 'scheduled')::int as scheduled_builds,
      (state = 'running')::int as running_builds, 0 as scheduled_jobs, 0 as running_jobs, 0 as waiting_jobs
      from new_builds`;

/**
 * The settings a statement sets (local to its transaction) when it counts the builds and the jobs it
 * inserts itself, one a table: each insert trigger finds its own, resets it, and counts nothing.
 */
const INSERTS_COUNTED_SETTINGS = {
  builds: 'ci.inserted_builds_counted',
  jobs: 'ci.inserted_jobs_counted',
} as const;

/**
 * In a statement that inserts builds and their jobs and adds them to their pipelines' counters itself
 * (in the counter rows' update, so after the inserts): tells the two insert triggers this statement fires
 * that there is nothing left for them to count (a text).
 */
export const INSERTS_COUNTED = `set_config('${INSERTS_COUNTED_SETTINGS.builds}', 'on', true) || set_config('${INSERTS_COUNTED_SETTINGS.jobs}', 'on', true)`;

/**
 * The other half, first in a counts function's insert branch for `table` (Migration20261125140000): when
 * the statement said {@link INSERTS_COUNTED}, the trigger resets its own setting and counts nothing.
 */
export const insertsCountedByTheStatement = (table: keyof typeof INSERTS_COUNTED_SETTINGS) => `
    if current_setting('${INSERTS_COUNTED_SETTINGS[table]}', true) = 'on' then
      perform set_config('${INSERTS_COUNTED_SETTINGS[table]}', '', true);
      return null;
    end if;`;
