import { Migration } from '@mikro-orm/migrations';

/** One number from the sequence, for each revision this migration keeps. */
const NEXT = "nextval('content_revisions')";

/**
 * A counter row this transaction has not updated yet (its current version is not its own). One it has
 * updated already has a new revision (`pipeline_counts_revised`): a create's build and jobs, whose counts'
 * triggers update the row in the same statement, take one revision, not three more row versions.
 */
const NOT_YET_REVISED = 'xmin <> pg_current_xact_id()::xid';

/** The tables whose changes revise pipelines' builds, and how a statement's changed rows name those pipelines. */
const REVISING: [string, (rows: string) => string][] = [
  ['builds', (rows) => `select pipeline_id from ${rows}`],
  ['jobs', (rows) => `select b.pipeline_id from builds b where b.id in (select build_id from ${rows})`],
];

/** The statements that revise them: trigger name suffix, and the transition tables each can see. */
const REVISING_EVENTS = [
  { event: 'insert', named: 'inserted', referencing: 'new' },
  { event: 'update', named: 'updated', referencing: 'old new' },
  { event: 'delete', named: 'deleted', referencing: 'old' },
  { event: 'truncate', named: 'truncated', referencing: '' },
] as const;

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

    // Builds: the pipelines of the rows the statement inserted, updated or deleted. Jobs: the pipelines of
    // their builds (a job deleted with its build: the build's delete revised it). Named to fire after the
    // counts' triggers of the same statement (triggers fire in name order): those lock a build's jobs before
    // the counter row, and the counter row stays the last lock a statement takes (no new deadlock).
    for (const [table, pipelinesOf] of REVISING) this.revisedBy(table, pipelinesOf);

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

  /**
   * A function `<table>_revised()` that gives a new builds revision to the pipelines `pipelinesOf` finds
   * for the rows a statement changed (its transition tables `new_<table>` and `old_<table>`), and to every
   * pipeline on a truncate; and its triggers, one per kind of statement.
   */
  private revisedBy(table: string, pipelinesOf: (rows: string) => string): void {
    const revise = (...changed: string[]) =>
      `update pipeline_counts set builds_revision = ${NEXT}
      where ${NOT_YET_REVISED} and pipeline_id in (${changed.map(pipelinesOf).join(' union ')});`;
    const [added, removed] = [`new_${table}`, `old_${table}`];
    this.addSql(`create function ${table}_revised() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    ${revise(added)}
  elsif tg_op = 'UPDATE' then
    ${revise(added, removed)}
  elsif tg_op = 'DELETE' then
    ${revise(removed)}
  else
    update pipeline_counts set builds_revision = ${NEXT};
  end if;
  return null;
end $$;`);
    for (const { event, named, referencing } of REVISING_EVENTS) {
      const tables = referencing
        .replace('new', `new table as ${added}`)
        .replace('old', `old table as ${removed}`);
      this.addSql(`create trigger pipeline_revised_by_${table}_${named} after ${event} on ${table}
  ${tables ? `referencing ${tables} ` : ''}for each statement execute function ${table}_revised();`);
    }
  }

  override down(): void {
    this.addSql('drop trigger if exists organization_members_catalog_added on organization_members;');
    for (const [table] of CATALOG) {
      this.addSql(`drop trigger if exists ${table}_catalog_removed on ${table};`);
      this.addSql(`drop trigger if exists ${table}_catalog_revised on ${table};`);
    }
    for (const [table] of REVISING) {
      for (const { named } of REVISING_EVENTS) {
        this.addSql(`drop trigger if exists pipeline_revised_by_${table}_${named} on ${table};`);
      }
      this.addSql(`drop function if exists ${table}_revised();`);
    }
    this.addSql('drop trigger if exists pipeline_counts_revised on pipeline_counts;');
    this.addSql('drop function if exists catalog_revised();');
    this.addSql('drop function if exists pipeline_counts_revised();');
    this.addSql('drop table if exists "catalog_revision";');
    this.addSql('alter table "pipeline_counts" drop column "builds_revision";');
    this.addSql('drop function if exists next_content_revision();');
    this.addSql('drop sequence if exists "content_revisions";');
  }
}
