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

  it('undo the newest one and apply it again to the same definitions', async () => {
    // By name, then definition: a trigger and its function often share a name. Constraints too, for
    // migrations that only add tables and keys.
    const definitions = async () =>
      db.database.sql.query<{ name: string; definition: string }>(
        `select p.proname as name, pg_get_functiondef(p.oid) as definition from pg_proc p
         join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'
         union all
         select t.tgname, pg_get_triggerdef(t.oid) from pg_trigger t where not t.tgisinternal
         union all
         select c.conname, pg_get_constraintdef(c.oid) from pg_constraint c
         join pg_namespace n on n.oid = c.connamespace where n.nspname = 'public'
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
