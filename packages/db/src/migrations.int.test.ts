import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../../test/support/database';
import { migrationsList } from './migrations';
import { migrate, type Orm, openOrm } from './orm';

let db: TestDatabase;
// The schema diff and the migrator, on an instance of the test's own.
let orm: Orm;
beforeAll(async () => {
  db = await freshDatabase();
  orm = await openOrm({ url: db.url, poolMax: 2 });
});
afterAll(async () => {
  await orm?.close(true);
  await db?.close();
});

describe('the committed migrations', () => {
  it('produce exactly the schema the entities describe', async () => {
    const diff = await orm.schema.getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  });

  it('are recorded, so running them again applies nothing', async () => {
    expect(await migrate(orm)).toEqual([]);
  });

  it('index every build list by its order', async () => {
    const rows = await db.database.sql.query<{ indexname: string }>(
      "select indexname from pg_indexes where tablename = 'builds'",
    );
    const names = rows.map((row) => row.indexname);
    for (const index of ['builds_pipeline_order_idx', 'builds_organization_order_idx', 'builds_order_idx']) {
      expect(names).toContain(index);
    }
  });

  it('index every foreign key by its columns', async () => {
    // Else each delete of a referenced row scans the referring table (a pipeline's delete, once per build).
    // An index counts when its first columns are the key's, and it is whole or holds every row that refers.
    const unindexed = await db.database.sql.query<{ name: string }>(
      `select c.conname as name from pg_constraint c
       where c.contype = 'f' and c.connamespace = 'public'::regnamespace
         and not exists (
           select 1 from pg_index i where i.indrelid = c.conrelid
             and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey
             and cardinality(c.conkey) <= i.indnkeyatts
             and (i.indpred is null or (cardinality(c.conkey) = 1 and pg_get_expr(i.indpred, i.indrelid) =
               (select format('(%I IS NOT NULL)', a.attname) from pg_attribute a
                where a.attrelid = c.conrelid and a.attnum = c.conkey[1]))))
       order by 1`,
    );
    expect(unindexed.map((row) => row.name)).toEqual([]);
  });

  it('undo the newest one and apply it again to the same definitions', async () => {
    // Functions, triggers, indexes, columns and constraints, by name, then definition (a trigger and its
    // function often share a name): whatever the newest migration changes, its down undoes.
    const definitions = async () =>
      db.database.sql.query<{ name: string; definition: string }>(
        `select p.proname as name, pg_get_functiondef(p.oid) as definition from pg_proc p
         join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'
         union all
         select t.tgname, pg_get_triggerdef(t.oid) from pg_trigger t where not t.tgisinternal
         union all
         select indexname, indexdef from pg_indexes where schemaname = 'public'
         union all
         select c.table_name || '.' || c.column_name, c.data_type || ' ' || c.is_nullable || ' ' ||
           coalesce(c.column_default, '') from information_schema.columns c where c.table_schema = 'public'
         union all
         select k.conname, pg_get_constraintdef(k.oid) from pg_constraint k
         join pg_namespace n on n.oid = k.connamespace where n.nspname = 'public'
         order by 1, 2`,
      );
    const applied = await definitions();
    const [newest] = await orm.migrator.down();
    expect(newest?.name).toBe(migrationsList.at(-1)?.name);
    expect(await definitions()).not.toEqual(applied);
    expect(await migrate(orm)).toEqual([newest?.name]);
    expect(await definitions()).toEqual(applied);
  });
});
