import { Migration } from '@mikro-orm/migrations';

const NEXT = "nextval('content_revisions')";

/** An agent's row without the columns its heartbeat moves (Migration20261125130000). */
const AGENT_SHOWN = (row: 'old' | 'new') => `to_jsonb(${row}) - 'last_seen_at' - 'heartbeat_at'`;

/**
 * The tables whose changes move the catalog revision (Migration20261125090000, 20261125130000,
 * 20261125150000): when an update of a row does, and whether an insert does.
 */
const CATALOG: { table: string; changed: string; added: boolean }[] = [
  { table: 'users', changed: 'old is distinct from new', added: false },
  { table: 'organizations', changed: 'old is distinct from new', added: false },
  { table: 'organization_members', changed: 'old is distinct from new', added: true },
  { table: 'agents', changed: `${AGENT_SHOWN('old')} is distinct from ${AGENT_SHOWN('new')}`, added: false },
  { table: 'access_tokens', changed: 'old is distinct from new', added: false },
  { table: 'team_members', changed: 'old is distinct from new', added: true },
  { table: 'team_pipelines', changed: 'old is distinct from new', added: true },
];

/** A team association's delete moves the catalog revision unless its pipeline went with it. */
export const TEAM_PIPELINES_CATALOG_REMOVED_BY_COMMIT = `create function team_pipelines_catalog_removed_by_commit() returns trigger language plpgsql as $$
begin
  if exists (select 1 from pipelines p where p.id = old.pipeline_id) then
    update catalog_revision set revision = ${NEXT} where xmin <> pg_current_xact_id()::xid;
  end if;
  return null;
end $$;`;

/** A catalog table's deferred triggers, and its truncate's, as this migration makes them. */
export function catalogTriggers({ table, changed, added }: (typeof CATALOG)[number]): string[] {
  const deferred = (name: string, event: string, when: string, fn = 'catalog_revised_by_commit') =>
    `create constraint trigger ${table}_catalog_${name} after ${event} on ${table}
  deferrable initially deferred for each row${when ? ` when (${when})` : ''} execute function ${fn}();`;
  return [
    deferred('revised', 'update', changed),
    deferred(
      'removed',
      'delete',
      '',
      table === 'team_pipelines' ? 'team_pipelines_catalog_removed_by_commit' : undefined,
    ),
    ...(added ? [deferred('added', 'insert', '')] : []),
    `create trigger ${table}_catalog_truncated after truncate on ${table}
  for each statement execute function catalog_revised();`,
  ];
}

/**
 * The catalog revision moves when the writing transaction commits, not at the end of each statement
 * (ADR 0012, 0013). Its one row was locked by statement triggers from the statement that changed the
 * catalog to the commit, so whatever the transaction locked after that statement (a foreign key's check
 * later in the same statement, a cascade's rows, the next statements' rows) came after a row every
 * catalog writer shares: a member joining teams deadlocked with a team's delete, and a pipeline's delete
 * held it while deleting every build. Each trigger is now a deferred constraint trigger: the row is
 * locked at commit, the last lock of every transaction that changes the catalog, and held only until the
 * commit is done. Once per transaction (a row it updated already has its new revision). Truncates, which
 * constraint triggers do not see, still revise at once.
 *
 * Team associations deleted with their pipeline still leave it alone (Migration20261125160000): at commit
 * the pipeline's row is gone, which a remembered access sees by itself.
 */
export class Migration20261125170000 extends Migration {
  override name = 'Migration20261125170000';

  override up(): void {
    this.addSql(`create function catalog_revised_by_commit() returns trigger language plpgsql as $$
begin
  update catalog_revision set revision = ${NEXT} where xmin <> pg_current_xact_id()::xid;
  return null;
end $$;`);
    this.addSql(TEAM_PIPELINES_CATALOG_REMOVED_BY_COMMIT);
    for (const { table, changed, added } of CATALOG) {
      this.dropStatementTriggers(table, added);
      for (const statement of catalogTriggers({ table, changed, added })) this.addSql(statement);
    }
    // The statement trigger's function of Migration20261125160000, replaced by the row trigger's above.
    this.addSql('drop function team_pipelines_catalog_removed();');
  }

  override down(): void {
    this.addSql(`create function team_pipelines_catalog_removed() returns trigger language plpgsql as $$
begin
  if exists (select 1 from removed r join pipelines p on p.id = r.pipeline_id) then
    update catalog_revision set revision = ${NEXT};
  end if;
  return null;
end $$;`);
    for (const { table, changed, added } of CATALOG) {
      this.addSql(`drop trigger ${table}_catalog_truncated on ${table};`);
      if (added) this.addSql(`drop trigger ${table}_catalog_added on ${table};`);
      this.addSql(`drop trigger ${table}_catalog_removed on ${table};`);
      this.addSql(`drop trigger ${table}_catalog_revised on ${table};`);
      this.addSql(`create trigger ${table}_catalog_revised after update on ${table} for each row
  when (${changed}) execute function catalog_revised();`);
      if (table === 'team_pipelines') {
        this.addSql(`create trigger team_pipelines_catalog_removed after delete on team_pipelines
  referencing old table as removed for each statement execute function team_pipelines_catalog_removed();`);
        this.addSql(`create trigger team_pipelines_catalog_truncated after truncate on team_pipelines
  for each statement execute function catalog_revised();`);
      } else {
        this.addSql(`create trigger ${table}_catalog_removed after delete or truncate on ${table}
  for each statement execute function catalog_revised();`);
      }
      if (added) {
        this.addSql(`create trigger ${table}_catalog_added after insert on ${table}
  for each statement execute function catalog_revised();`);
      }
    }
    this.addSql('drop function team_pipelines_catalog_removed_by_commit();');
    this.addSql('drop function catalog_revised_by_commit();');
  }

  /** The statement triggers (and the row trigger on updates) the earlier migrations made on `table`. */
  private dropStatementTriggers(table: string, added: boolean): void {
    this.addSql(`drop trigger ${table}_catalog_revised on ${table};`);
    this.addSql(`drop trigger ${table}_catalog_removed on ${table};`);
    if (table === 'team_pipelines')
      this.addSql('drop trigger team_pipelines_catalog_truncated on team_pipelines;');
    if (added) this.addSql(`drop trigger ${table}_catalog_added on ${table};`);
  }
}
