import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../../test/support/database';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db?.close();
});

describe('the committed migrations', () => {
  it('produce exactly the schema the entities describe', async () => {
    const diff = await db.database.orm.schema.getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  });

  it('are recorded, so running them again applies nothing', async () => {
    const { migrate } = await import('../src/orm');
    expect(await migrate(db.database.orm)).toEqual([]);
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
});
