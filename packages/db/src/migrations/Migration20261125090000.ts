import { Migration } from '@mikro-orm/migrations';

/** One number from the sequence, for each revision this migration keeps. */
const NEXT = "nextval('content_revisions')";

/**
 * A counter row this transaction has not updated yet (its current version is not its own). One it has
 * updated already has a new revision (`pipeline_counts_revised`): a create's build and jobs, whose counts'
 * triggers update the row in the same statement, take one revision, not three more row versions.
 */
const NOT_YET_REVISED = 'xmin <> pg_current_xact_id()::xid';

/** The catalog's tables, and when an update of one of their rows changes what answers show. */
const CATALOG: [string, string][] = [
  ['users', 'old is distinct from new'],
  ['organizations', 'old is distinct from new'],
  ['organization_members', 'old is distinct from new'],
  ['agents', "to_jsonb(old) - 'last_seen_at' is distinct from to_jsonb(new) - 'last_seen_at'"],
];

/**
 * Revisions of what an answer about a pipeline's builds shows (issue 8, ADR 0012), so that a server may
 * keep an answer it rendered and give it again while nothing it shows has changed, whichever process
 * changed it. With the pipeline's own `pipelines.revision` (Migration20261121170000):
 *
 * - `pipeline_counts.builds_revision`: a new number whenever any build or job of the pipeline is
 *   inserted, updated or deleted (statement triggers, whoever writes), and whenever the pipeline's counts
 *   change (the counts are shown with every build).
 * - `catalog_revision`: one row, a new number whenever what answers show beside a pipeline's own rows
 *   changes: users (creators, who unblocked), organizations, organization memberships (which decide
 *   whether a user is shown), agents (all but `last_seen_at`, which every heartbeat moves and no cached
 *   answer shows).
 *
 * Numbers come from one sequence and are never reused. The triggers run inside the writing transaction,
 * so a revision and the rows it stands for become visible together.
 */
export class Migration20261125090000 extends Migration {
  override name = 'Migration20261125090000';

  override up(): void {
    this.addSql('create sequence "content_revisions";');
    // A function, not `nextval` itself: a column defaulting to `nextval` reads as a serial column to MikroORM.
    this.addSql(`create function next_content_revision() returns bigint language sql volatile as $$
  select ${NEXT}
$$;`);
    this.addSql(
      'alter table "pipeline_counts" add "builds_revision" bigint not null default next_content_revision();',
    );
    this.addSql(
      'create table "catalog_revision" ("id" int not null, "revision" bigint not null, primary key ("id"));',
    );
    this.addSql(`insert into "catalog_revision" ("id", "revision") values (1, ${NEXT});`);

    // Any update of a counter row that does not set the revision itself makes a new one: the counts'
    // triggers (which run for builds and jobs that change), a recount, an operator's fix. So once a
    // transaction has updated a pipeline's row, the revision it commits is a new one.
    this.addSql(`create function pipeline_counts_revised() returns trigger language plpgsql as $$
begin
  new.builds_revision := ${NEXT};
  return new;
end $$;`);
    this.addSql(`create trigger pipeline_counts_revised before update on pipeline_counts for each row
  when (new.builds_revision = old.builds_revision) execute function pipeline_counts_revised();`);

    // Builds: the pipelines of the rows the statement inserted, updated or deleted. Named to fire after the
    // counts' triggers of the same statement (triggers fire in name order): those lock a build's jobs before
    // the counter row, and the counter row stays the last lock a statement takes (no new deadlock).
    this.addSql(`create function builds_revised() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    update pipeline_counts set builds_revision = ${NEXT}
      where ${NOT_YET_REVISED} and pipeline_id in (select pipeline_id from new_builds);
  elsif tg_op = 'UPDATE' then
    update pipeline_counts set builds_revision = ${NEXT}
      where ${NOT_YET_REVISED} and pipeline_id in (select pipeline_id from new_builds union select pipeline_id from old_builds);
  elsif tg_op = 'DELETE' then
    update pipeline_counts set builds_revision = ${NEXT}
      where ${NOT_YET_REVISED} and pipeline_id in (select pipeline_id from old_builds);
  else
    update pipeline_counts set builds_revision = ${NEXT};
  end if;
  return null;
end $$;`);
    this.addSql(`create trigger pipeline_revised_by_builds_inserted after insert on builds
  referencing new table as new_builds for each statement execute function builds_revised();`);
    this.addSql(`create trigger pipeline_revised_by_builds_updated after update on builds
  referencing old table as old_builds new table as new_builds for each statement execute function builds_revised();`);
    this.addSql(`create trigger pipeline_revised_by_builds_deleted after delete on builds
  referencing old table as old_builds for each statement execute function builds_revised();`);
    this.addSql(`create trigger pipeline_revised_by_builds_truncated after truncate on builds
  for each statement execute function builds_revised();`);

    // Jobs: the pipelines of their builds (a job deleted with its build: the build's delete revised it).
    this.addSql(`create function jobs_revised() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    update pipeline_counts set builds_revision = ${NEXT}
      where ${NOT_YET_REVISED} and pipeline_id in (select b.pipeline_id from builds b where b.id in (select build_id from new_jobs));
  elsif tg_op = 'UPDATE' then
    update pipeline_counts set builds_revision = ${NEXT}
      where ${NOT_YET_REVISED} and pipeline_id in (select b.pipeline_id from builds b
        where b.id in (select build_id from new_jobs union select build_id from old_jobs));
  elsif tg_op = 'DELETE' then
    update pipeline_counts set builds_revision = ${NEXT}
      where ${NOT_YET_REVISED} and pipeline_id in (select b.pipeline_id from builds b where b.id in (select build_id from old_jobs));
  else
    update pipeline_counts set builds_revision = ${NEXT};
  end if;
  return null;
end $$;`);
    this.addSql(`create trigger pipeline_revised_by_jobs_inserted after insert on jobs
  referencing new table as new_jobs for each statement execute function jobs_revised();`);
    this.addSql(`create trigger pipeline_revised_by_jobs_updated after update on jobs
  referencing old table as old_jobs new table as new_jobs for each statement execute function jobs_revised();`);
    this.addSql(`create trigger pipeline_revised_by_jobs_deleted after delete on jobs
  referencing old table as old_jobs for each statement execute function jobs_revised();`);
    this.addSql(`create trigger pipeline_revised_by_jobs_truncated after truncate on jobs
  for each statement execute function jobs_revised();`);

    // The catalog: any change to the rows answers show beside a pipeline's own.
    this.addSql(`create function catalog_revised() returns trigger language plpgsql as $$
begin
  update catalog_revision set revision = ${NEXT};
  return null;
end $$;`);
    // An update that changes a row (an agent's heartbeat excepted); any delete; members also on insert.
    for (const [table, changed] of CATALOG) {
      this.addSql(`create trigger ${table}_catalog_revised after update on ${table} for each row
  when (${changed}) execute function catalog_revised();`);
      this.addSql(`create trigger ${table}_catalog_removed after delete or truncate on ${table}
  for each statement execute function catalog_revised();`);
    }
    this.addSql(`create trigger organization_members_catalog_added after insert on organization_members
  for each statement execute function catalog_revised();`);
  }

  override down(): void {
    this.addSql('drop trigger if exists organization_members_catalog_added on organization_members;');
    for (const [table] of CATALOG) {
      this.addSql(`drop trigger if exists ${table}_catalog_removed on ${table};`);
      this.addSql(`drop trigger if exists ${table}_catalog_revised on ${table};`);
    }
    for (const [trigger, table] of [
      ['pipeline_revised_by_jobs_truncated', 'jobs'],
      ['pipeline_revised_by_jobs_deleted', 'jobs'],
      ['pipeline_revised_by_jobs_updated', 'jobs'],
      ['pipeline_revised_by_jobs_inserted', 'jobs'],
      ['pipeline_revised_by_builds_truncated', 'builds'],
      ['pipeline_revised_by_builds_deleted', 'builds'],
      ['pipeline_revised_by_builds_updated', 'builds'],
      ['pipeline_revised_by_builds_inserted', 'builds'],
      ['pipeline_counts_revised', 'pipeline_counts'],
    ]) {
      this.addSql(`drop trigger if exists ${trigger} on ${table};`);
    }
    this.addSql('drop function if exists catalog_revised();');
    this.addSql('drop function if exists jobs_revised();');
    this.addSql('drop function if exists builds_revised();');
    this.addSql('drop function if exists pipeline_counts_revised();');
    this.addSql('drop table if exists "catalog_revision";');
    this.addSql('alter table "pipeline_counts" drop column "builds_revision";');
    this.addSql('drop function if exists next_content_revision();');
    this.addSql('drop sequence if exists "content_revisions";');
  }
}
