/**
 * Writes the next migration: the SQL that takes the schema of the committed migrations to the schema of
 * the entities, computed on a throw-away embedded PostgreSQL, and registers it in src/migrations/index.ts
 * (the classes) and src/migrations/names.ts (the names the server checks without loading MikroORM).
 * (MikroORM's own generator needs Node 22's fs.globSync; this one runs on Node 20 too.)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmbeddedPostgres } from '../src/embedded-postgres';
import { migrate, openOrm } from '../src/orm';

const migrationsDir = resolve(import.meta.dirname, '../src/migrations');
const dataDir = mkdtempSync(join(tmpdir(), 'ci-migration-'));
const database = await startEmbeddedPostgres({ dataDir, port: 54399, database: 'migration' });

function statements(sql: string): string[] {
  return sql
    .split(/;\n/)
    .map((statement) => statement.trim().replace(/;$/, ''))
    .filter((statement) => statement && !statement.startsWith('set names'));
}

function render(className: string, up: string[], down: string[]): string {
  const lines = (list: string[]) =>
    list.map((sql) => `    this.addSql(${JSON.stringify(`${sql};`)});\n`).join('');
  return `import { Migration } from '@mikro-orm/migrations';

export class ${className} extends Migration {
  override name = '${className}';

  override up(): void {
${lines(up)}  }

  override down(): void {
${lines(down)}  }
}
`;
}

try {
  const orm = await openOrm({ url: database.url });
  await migrate(orm);
  const diff = await orm.schema.getUpdateSchemaMigrationSQL({ wrap: false });
  await orm.close();
  const up = statements(diff.up);
  if (up.length === 0) {
    console.log('No changes: the migrations already match the entities.');
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const className = `Migration${stamp}`;
    writeFileSync(join(migrationsDir, `${className}.ts`), render(className, up, statements(diff.down)));
    const indexPath = join(migrationsDir, 'index.ts');
    const index = readFileSync(indexPath, 'utf8')
      .replace(/^(import type .*\n)/, `$1import { ${className} } from './${className}';\n`)
      .replace(/= \[([^\]]*)\];/, (_match, list: string) => {
        const items = list.trim() ? `${list.trim().replace(/,$/, '')},\n  ` : '';
        return `= [\n  ${items}{ name: '${className}', class: ${className} },\n];`;
      });
    writeFileSync(indexPath, index);
    const namesPath = join(migrationsDir, 'names.ts');
    const names = readFileSync(namesPath, 'utf8').replace(/\n\];/, `\n  '${className}',\n];`);
    writeFileSync(namesPath, names);
    console.log(`Created ${className}.ts`);
  }
} finally {
  await database.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
