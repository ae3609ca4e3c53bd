/**
 * `pnpm --filter @ci/db migration:create`: MikroORM's migrator writes the next migration (the entities'
 * schema against the committed migrations', applied to a throw-away embedded PostgreSQL) into
 * src/migrations; the class is then added to the list in src/migrations/index.ts, which the server uses
 * instead of scanning the folder (its bundle has no folder of migrations to scan).
 *
 * Read the new `down()` before committing: MikroORM 7.2 writes the migrations' own triggers and routines
 * there as empty stubs (`ignoreTriggers`/`ignoreRoutines` only keep the `up()` from dropping them).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmbeddedPostgres } from '../src/embedded-postgres';
import { migrate, openOrm } from '../src/orm';

const migrationsDir = resolve(import.meta.dirname, '../src/migrations');
const dataDir = mkdtempSync(join(tmpdir(), 'ci-migration-'));
const database = await startEmbeddedPostgres({ dataDir, port: 54399, database: 'migration' });

try {
  const orm = await openOrm({ url: database.url });
  try {
    await migrate(orm);
    const { fileName } = await orm.migrator.create(migrationsDir);
    if (!fileName) {
      console.log('No changes: the migrations already match the entities.');
    } else {
      const className = fileName.replace(/\.ts$/, '');
      const indexPath = join(migrationsDir, 'index.ts');
      const index = readFileSync(indexPath, 'utf8')
        .replace(/^(import type .*\n)/, `$1import { ${className} } from './${className}';\n`)
        .replace(/\n\];/, `\n  { name: '${className}', class: ${className} },\n];`);
      writeFileSync(indexPath, index);
      execFileSync('pnpm', ['exec', 'biome', 'check', '--write', join(migrationsDir, fileName), indexPath], {
        stdio: 'inherit',
      });
      console.log(`Created ${fileName}`);
    }
  } finally {
    await orm.close(true);
  }
} finally {
  await database.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
