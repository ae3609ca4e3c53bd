import type pg from 'pg';
import { migrationNames } from './migrations/names';

/** The table MikroORM's migrator records applied migrations in (orm.ts `ormConfig`). */
const TABLE = 'schema_migrations';

/**
 * The committed migrations not recorded as applied, by plain SQL: what MikroORM's migrator would find
 * pending (it compares names without a `.js`/`.ts` ending), without loading it.
 */
export async function pendingMigrations(pool: pg.Pool): Promise<string[]> {
  const exists = await pool.query<{ table: string | null }>('select to_regclass($1)::text as "table"', [
    TABLE,
  ]);
  if (!exists.rows[0]?.table) return [...migrationNames];
  const rows = await pool.query<{ name: string }>(`select name from ${TABLE}`);
  const applied = new Set(rows.rows.map((row) => row.name.replace(/\.[jt]s$/, '')));
  return migrationNames.filter((name) => !applied.has(name));
}

/**
 * Applies the pending migrations: MikroORM is loaded (and its own pool opened) only when there is one,
 * and closed again, so a server whose schema is current never holds it. `migrate` takes the advisory
 * lock and asks the migrator again under it: another process may have applied them meanwhile.
 */
export async function applyPendingMigrations(url: string, pool: pg.Pool): Promise<string[]> {
  if ((await pendingMigrations(pool)).length === 0) return [];
  const { migrate, openOrm } = await import('./orm');
  const orm = await openOrm({ url });
  try {
    return await migrate(orm);
  } finally {
    await orm.close(true);
  }
}
