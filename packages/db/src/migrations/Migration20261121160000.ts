import { Migration } from '@mikro-orm/migrations';
import { ACTIVE_BUILD, COUNTED_JOB, jobTallies, NEW_BUILDS_TALLIES } from './pipeline-counts-sql';

/**
 * Not while the pipeline itself is being deleted (its builds go by cascade): there is nothing left to
 * count, and updating a counter row twice in that transaction would re-check its foreign key.
 */
export const PIPELINE_KEPT = (pipelineId: string) =>
  `and exists (select 1 from pipelines kept where kept.id = ${pipelineId})`;

/** In a builds update's trigger: how each updated build's own tallies moved (exported as below). */
export const UPDATED_BUILDS_TALLIES = `select n.pipeline_id,
      (n.state = 'scheduled')::int - (o.state = 'scheduled')::int as scheduled_builds,
      (n.state = 'running')::int - (o.state = 'running')::int as running_builds,
      0 as scheduled_jobs, 0 as running_jobs, 0 as waiting_jobs
    from new_builds n join old_builds o on o.id = n.id`;

/**
 * In a builds update's trigger (`new_builds`, `old_builds`): locks the jobs whose tallies move, those of
 * builds that became active or stopped being active (exported for Migration20261125120000).
 */
export const LOCK_JOBS_WHOSE_TALLIES_MOVE = `-- The jobs whose tallies move are locked first: a concurrent job change then either committed before
  -- (and the next statement, with a fresh snapshot, reads it) or waits and reads this build's new state.
  perform 1 from jobs j
    join new_builds n on n.id = j.build_id join old_builds o on o.id = n.id
    where (n.state in ${ACTIVE_BUILD}) <> (o.state in ${ACTIVE_BUILD})
    for share of j;`;

/** Those jobs' tallies, added when their build became active and taken away when it stopped (per pipeline). */
export const TALLIES_OF_JOBS_WHOSE_BUILD_MOVED = `select n.pipeline_id, 0, 0,
      ${jobTallies('j.state', `(case when n.state in ${ACTIVE_BUILD} then 1 else -1 end)`)}
    from new_builds n join old_builds o on o.id = n.id join jobs j on j.build_id = n.id
    where (n.state in ${ACTIVE_BUILD}) <> (o.state in ${ACTIVE_BUILD}) and j.state in ${COUNTED_JOB}`;

/** Adds the per-pipeline sums of `rows` (pipeline_id and any of the five tallies) to the counters. */
const addSums = (rows: string) => `update pipeline_counts c set
    scheduled_builds = c.scheduled_builds + d.scheduled_builds,
    running_builds = c.running_builds + d.running_builds,
    scheduled_jobs = c.scheduled_jobs + d.scheduled_jobs,
    running_jobs = c.running_jobs + d.running_jobs,
    waiting_jobs = c.waiting_jobs + d.waiting_jobs
  from (
    select pipeline_id, coalesce(sum(scheduled_builds), 0) as scheduled_builds,
      coalesce(sum(running_builds), 0) as running_builds, coalesce(sum(scheduled_jobs), 0) as scheduled_jobs,
      coalesce(sum(running_jobs), 0) as running_jobs, coalesce(sum(waiting_jobs), 0) as waiting_jobs
    from (${rows}) r group by pipeline_id
  ) d
  where c.pipeline_id = d.pipeline_id
    and (d.scheduled_builds, d.running_builds, d.scheduled_jobs, d.running_jobs, d.waiting_jobs) <> (0, 0, 0, 0, 0)
    ${PIPELINE_KEPT('d.pipeline_id')}`;

/**
 * Pipelines' live counts as stored counters (issue 8): the five `*_count` fields were an aggregate of the
 * pipeline's active builds and their jobs on every response, which grows with the table (blocked builds
 * stay active). Triggers keep them in the statements that change builds and jobs, whoever runs them.
 *
 * Exact under concurrency: a job's tally depends on its build's state, so the two must not be read past
 * each other. A build whose activity changes locks its jobs (`for share`) before reading them; a job
 * change reads its build's state after its own row is locked. Whichever of two concurrent transactions
 * touching the same build and job commits second sees the first's committed rows. Lock order stays build,
 * then jobs, then the counter row, as the repositories already take them: no new deadlock.
 *
 * Also: the indexes that serve the common list filters in the list's order.
 */
export class Migration20261121160000 extends Migration {
  override name = 'Migration20261121160000';

  override up(): void {
    this.addSql(
      'create table "pipeline_counts" ("pipeline_id" uuid not null, "scheduled_builds" int not null default 0, "running_builds" int not null default 0, "scheduled_jobs" int not null default 0, "running_jobs" int not null default 0, "waiting_jobs" int not null default 0, primary key ("pipeline_id"));',
    );
    this.addSql(
      'alter table "pipeline_counts" add constraint "pipeline_counts_pipeline_id_foreign" foreign key ("pipeline_id") references "pipelines" ("id") on update cascade on delete cascade;',
    );
    this.addSql(
      'create index "builds_pipeline_branch_state_idx" on "builds" ("pipeline_id", "branch", "state", "created_at" desc, "number" desc);',
    );
    this.addSql(
      'create index "builds_organization_state_idx" on "builds" ("organization_id", "state", "created_at" desc, "number" desc);',
    );
    this.addSql(
      'create index "builds_organization_branch_idx" on "builds" ("organization_id", "branch", "created_at" desc, "number" desc);',
    );

    // Every pipeline has its counter row from its creation on.
    this.addSql(`create function pipeline_counts_pipeline_created() returns trigger language plpgsql as $$
begin
  insert into pipeline_counts (pipeline_id) values (new.id) on conflict do nothing;
  return null;
end $$;`);
    this.addSql(`create trigger pipeline_counts_created after insert on pipelines
  for each row execute function pipeline_counts_pipeline_created();`);

    // Builds: their own state; when a build becomes active or stops being active, its jobs' tallies too.
    // A new build's jobs are counted by the jobs' own insert (they are inserted after it).
    this.addSql(`create function pipeline_counts_builds_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    ${addSums(`${NEW_BUILDS_TALLIES} where state in ('scheduled', 'running')`)};
    return null;
  end if;
  if not exists (select 1 from new_builds n join old_builds o on o.id = n.id where n.state is distinct from o.state) then
    return null;
  end if;
  ${LOCK_JOBS_WHOSE_TALLIES_MOVE}
  ${addSums(`${UPDATED_BUILDS_TALLIES} where n.state is distinct from o.state
    union all
    ${TALLIES_OF_JOBS_WHOSE_BUILD_MOVED}`)};
  return null;
end $$;`);
    this.addSql(`create trigger pipeline_counts_builds_inserted after insert on builds
  referencing new table as new_builds for each statement execute function pipeline_counts_builds_changed();`);
    this.addSql(`create trigger pipeline_counts_builds_updated after update on builds
  referencing old table as old_builds new table as new_builds
  for each statement execute function pipeline_counts_builds_changed();`);

    // A deleted active build takes its tallies and its jobs' with it, before its jobs go (by cascade:
    // their own delete then finds no build and counts nothing).
    this.addSql(`create function pipeline_counts_build_deleted() returns trigger language plpgsql as $$
begin
  if old.state not in ${ACTIVE_BUILD} or not exists (select 1 from pipelines where id = old.pipeline_id) then
    return old;
  end if;
  perform 1 from jobs where build_id = old.id for share;
  update pipeline_counts c set
    scheduled_builds = c.scheduled_builds - (old.state = 'scheduled')::int,
    running_builds = c.running_builds - (old.state = 'running')::int,
    scheduled_jobs = c.scheduled_jobs - t.scheduled_jobs,
    running_jobs = c.running_jobs - t.running_jobs,
    waiting_jobs = c.waiting_jobs - t.waiting_jobs
  from (
    select coalesce(sum(scheduled_jobs), 0) as scheduled_jobs, coalesce(sum(running_jobs), 0) as running_jobs,
      coalesce(sum(waiting_jobs), 0) as waiting_jobs
    from (select ${jobTallies('state')} from jobs where build_id = old.id) j
  ) t
  where c.pipeline_id = old.pipeline_id;
  return old;
end $$;`);
    this.addSql(`create trigger pipeline_counts_build_deleted before delete on builds
  for each row execute function pipeline_counts_build_deleted();`);

    // Jobs: their tally, while their build is active (read after the job's row is locked by the change).
    this.addSql(`create function pipeline_counts_jobs_changed() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    ${addSums(`select b.pipeline_id, 0 as scheduled_builds, 0 as running_builds, ${jobTallies('j.state')}
      from new_jobs j join builds b on b.id = j.build_id
      where j.state in ${COUNTED_JOB} and b.state in ${ACTIVE_BUILD}`)};
  elsif tg_op = 'DELETE' then
    if not exists (select 1 from old_jobs where state in ${COUNTED_JOB}) then
      return null;
    end if;
    ${addSums(`select b.pipeline_id, 0 as scheduled_builds, 0 as running_builds, ${jobTallies('j.state', '-1')}
      from old_jobs j join builds b on b.id = j.build_id
      where j.state in ${COUNTED_JOB} and b.state in ${ACTIVE_BUILD}`)};
  else
    if not exists (select 1 from new_jobs n join old_jobs o on o.id = n.id where n.state is distinct from o.state) then
      return null;
    end if;
    ${addSums(`select b.pipeline_id, 0 as scheduled_builds, 0 as running_builds, ${jobTallies('n.state')}
      from new_jobs n join old_jobs o on o.id = n.id join builds b on b.id = n.build_id
      where n.state is distinct from o.state and b.state in ${ACTIVE_BUILD}
      union all
      select b.pipeline_id, 0, 0, ${jobTallies('o.state', '-1')}
      from new_jobs n join old_jobs o on o.id = n.id join builds b on b.id = n.build_id
      where n.state is distinct from o.state and b.state in ${ACTIVE_BUILD}`)};
  end if;
  return null;
end $$;`);
    this.addSql(`create trigger pipeline_counts_jobs_inserted after insert on jobs
  referencing new table as new_jobs for each statement execute function pipeline_counts_jobs_changed();`);
    this.addSql(`create trigger pipeline_counts_jobs_updated after update on jobs
  referencing old table as old_jobs new table as new_jobs
  for each statement execute function pipeline_counts_jobs_changed();`);
    this.addSql(`create trigger pipeline_counts_jobs_deleted after delete on jobs
  referencing old table as old_jobs for each statement execute function pipeline_counts_jobs_changed();`);

    // Counts every pipeline from scratch: here for the existing builds, and after bulk loads that ran
    // with these triggers disabled (the benchmark's seed).
    this.addSql(`create function pipeline_counts_recount() returns void language sql as $$
  insert into pipeline_counts (pipeline_id) select id from pipelines on conflict do nothing;
  update pipeline_counts c set
    scheduled_builds = (select count(*) from builds b where b.pipeline_id = c.pipeline_id and b.state = 'scheduled'),
    running_builds = (select count(*) from builds b where b.pipeline_id = c.pipeline_id and b.state = 'running'),
    scheduled_jobs = coalesce(t.scheduled_jobs, 0),
    running_jobs = coalesce(t.running_jobs, 0),
    waiting_jobs = coalesce(t.waiting_jobs, 0)
  from pipelines p
  left join lateral (
    select sum(scheduled_jobs) as scheduled_jobs, sum(running_jobs) as running_jobs, sum(waiting_jobs) as waiting_jobs
    from (select ${jobTallies('j.state')} from builds ab join jobs j on j.build_id = ab.id
          where ab.pipeline_id = p.id and ab.state in ${ACTIVE_BUILD}) x
  ) t on true
  where p.id = c.pipeline_id;
$$;`);
    this.addSql('select pipeline_counts_recount();');
  }

  override down(): void {
    this.addSql('drop trigger if exists pipeline_counts_jobs_deleted on jobs;');
    this.addSql('drop trigger if exists pipeline_counts_jobs_updated on jobs;');
    this.addSql('drop trigger if exists pipeline_counts_jobs_inserted on jobs;');
    this.addSql('drop trigger if exists pipeline_counts_build_deleted on builds;');
    this.addSql('drop trigger if exists pipeline_counts_builds_updated on builds;');
    this.addSql('drop trigger if exists pipeline_counts_builds_inserted on builds;');
    this.addSql('drop trigger if exists pipeline_counts_created on pipelines;');
    this.addSql('drop function if exists pipeline_counts_recount();');
    this.addSql('drop function if exists pipeline_counts_jobs_changed();');
    this.addSql('drop function if exists pipeline_counts_build_deleted();');
    this.addSql('drop function if exists pipeline_counts_builds_changed();');
    this.addSql('drop function if exists pipeline_counts_pipeline_created();');
    this.addSql('drop table if exists "pipeline_counts" cascade;');
    this.addSql('drop index "builds_pipeline_branch_state_idx";');
    this.addSql('drop index "builds_organization_state_idx";');
    this.addSql('drop index "builds_organization_branch_idx";');
  }
}
