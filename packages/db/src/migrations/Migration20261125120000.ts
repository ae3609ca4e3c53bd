import type { Query } from '@mikro-orm/migrations';
import { Migration } from '@mikro-orm/migrations';
import {
  LOCK_JOBS_WHOSE_TALLIES_MOVE,
  Migration20261121160000,
  PIPELINE_KEPT,
  TALLIES_OF_JOBS_WHOSE_BUILD_MOVED,
  UPDATED_BUILDS_TALLIES,
} from './Migration20261121160000';
import { ACTIVE_BUILD, jobTallies, NEW_BUILDS_TALLIES, TALLIES } from './pipeline-counts-sql';

/**
 * Adds the per-pipeline sums of `rows` (pipeline_id and the five tallies, any of them 0) to the counters
 * and gives each of those pipelines a new builds revision, in one update of each counter row. A row whose
 * sums are all 0 and that this transaction has already updated (its current version is its own) is left
 * as it is: it has a new revision already.
 */
const reviseWithSums = (rows: string) => `update pipeline_counts c set
    ${TALLIES.map((tally) => `${tally} = c.${tally} + d.${tally}`).join(',\n    ')},
    builds_revision = nextval('content_revisions')
  from (
    select pipeline_id, ${TALLIES.map((tally) => `sum(${tally}) as ${tally}`).join(', ')}
    from (${rows}) r group by pipeline_id
  ) d
  where c.pipeline_id = d.pipeline_id
    and ((${TALLIES.map((tally) => `d.${tally}`).join(', ')}) <> (0, 0, 0, 0, 0)
      or c.xmin <> pg_current_xact_id()::xid)
    ${PIPELINE_KEPT('d.pipeline_id')}`;

/** 1 while a build (alias `b`) is active, else 0: its jobs' tallies count only then. */
const WHILE_ACTIVE = `(b.state in ${ACTIVE_BUILD})::int`;

/** The statement triggers of Migration20261125090000 whose work the counts' functions now do. */
const FOLDED = [
  ['builds', 'inserted', 'insert', 'new table as new_builds'],
  ['builds', 'updated', 'update', 'old table as old_builds new table as new_builds'],
  ['jobs', 'inserted', 'insert', 'new table as new_jobs'],
  ['jobs', 'updated', 'update', 'old table as old_jobs new table as new_jobs'],
  ['jobs', 'deleted', 'delete', 'old table as old_jobs'],
] as const;

/**
 * The builds revision (Migration20261125090000) moved by the counts' own statement triggers: each insert,
 * update or delete of builds or jobs updates a pipeline's counter row once, for its counts and its
 * revision together, instead of running a second statement trigger that updates the same row again.
 * A create (a build and its jobs in one statement) runs two trigger functions instead of four, and its
 * counter updates set the revision themselves (`pipeline_counts_revised` does not fire for them).
 *
 * Same counts, same locks in the same order (build, then jobs, then the counter row): a change that
 * moves no count still updates the counter row, as the revision trigger did. Unchanged: a build's delete
 * (a row trigger counts it, the statement trigger `pipeline_revised_by_builds_deleted` revises) and
 * truncates (`pipeline_revised_by_*_truncated`).
 */
export class Migration20261125120000 extends Migration {
  override name = 'Migration20261125120000';

  override up(): void {
    this.addSql(`create or replace function pipeline_counts_builds_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    ${reviseWithSums(NEW_BUILDS_TALLIES)};
    return null;
  end if;
  ${LOCK_JOBS_WHOSE_TALLIES_MOVE}
  ${reviseWithSums(`${UPDATED_BUILDS_TALLIES}
    union all
    select pipeline_id, 0, 0, 0, 0, 0 from old_builds
    union all
    ${TALLIES_OF_JOBS_WHOSE_BUILD_MOVED}`)};
  return null;
end $$;`);

    // Jobs: their tally while their build is active (read after the job's row is locked by the change),
    // and the revision of their build's pipeline whatever changed. A job deleted with its build finds no
    // build: the build's delete revised its pipeline.
    this.addSql(`create or replace function pipeline_counts_jobs_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    ${reviseWithSums(`select b.pipeline_id, 0 as scheduled_builds, 0 as running_builds,
      ${jobTallies('j.state', WHILE_ACTIVE)}
      from new_jobs j join builds b on b.id = j.build_id`)};
  elsif tg_op = 'DELETE' then
    ${reviseWithSums(`select b.pipeline_id, 0 as scheduled_builds, 0 as running_builds,
      ${jobTallies('j.state', `-${WHILE_ACTIVE}`)}
      from old_jobs j join builds b on b.id = j.build_id`)};
  else
    ${reviseWithSums(`select b.pipeline_id, 0 as scheduled_builds, 0 as running_builds,
      ${jobTallies('n.state', WHILE_ACTIVE)}
      from new_jobs n join builds b on b.id = n.build_id
      union all
      select b.pipeline_id, 0, 0, ${jobTallies('o.state', `-${WHILE_ACTIVE}`)}
      from old_jobs o join builds b on b.id = o.build_id`)};
  end if;
  return null;
end $$;`);

    for (const [table, named] of FOLDED) {
      this.addSql(`drop trigger pipeline_revised_by_${table}_${named} on ${table};`);
    }
  }

  override down(): void {
    // The counts' functions as Migration20261121160000 made them, to the letter.
    const counts = new Migration20261121160000(this.driver, this.config);
    counts.up();
    for (const query of counts.getQueries()) {
      if (isCountsFunction(query))
        this.addSql(query.replace('create function', 'create or replace function'));
    }
    for (const [table, named, event, tables] of FOLDED) {
      this.addSql(`create trigger pipeline_revised_by_${table}_${named} after ${event} on ${table}
  referencing ${tables} for each statement execute function ${table}_revised();`);
    }
  }
}

function isCountsFunction(query: Query): query is string {
  return (
    typeof query === 'string' && /^create function pipeline_counts_(builds|jobs)_changed\(\)/.test(query)
  );
}
