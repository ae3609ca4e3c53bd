import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUseCases, newId } from '@ci/application';
import { openDatabase, startEmbeddedPostgres } from '@ci/db';
import { freePort } from './processes';

/**
 * A fresh embedded PostgreSQL in a temporary folder (`work`, named `ci-bench-<name>-…`), migrated, with
 * organization `bench` and its admin, whose token (every scope) the bench calls with. The bench makes what
 * else it needs through `admin`, closes `database` before starting its servers, and calls `remove` last.
 */
export async function startBenchOrganization(name: string) {
  const work = mkdtempSync(join(tmpdir(), `ci-bench-${name}-`));
  const postgres = await startEmbeddedPostgres({ dataDir: work, port: await freePort(), database: 'bench' });
  const database = await openDatabase({ url: postgres.url, dataDir: work, embeddedPort: 0, poolMax: 2 });
  const admin = createUseCases({ repos: database.repos, clock: { now: () => new Date() }, newId }).admin;
  await admin.createOrganization({ name: 'Bench', slug: 'bench' });
  const user = await admin.createUser({ name: 'Bench', email: 'bench@bench.test' });
  await admin.addMember({ organization: 'bench', email: user.email, role: 'admin' });
  const token = (await admin.createAccessToken({ email: user.email, scopes: 'all' })).secret;
  return {
    work,
    postgresUrl: postgres.url,
    database,
    admin,
    token,
    remove: async () => {
      await postgres.stop();
      rmSync(work, { recursive: true, force: true });
    },
  };
}
