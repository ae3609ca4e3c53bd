import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '@ci/db';
import { migrate, openOrm } from '@ci/db/orm';
import type { TestProject } from 'vitest/node';
import { buildWeb } from '../scripts/build-web.mjs';
import { freePort } from './support/free-port';

/**
 * One PostgreSQL for the whole run (the embedded one, or TEST_DATABASE_URL's server), with a migrated
 * template database that every test file clones into a fresh database of its own.
 */
export default async function setup(project: TestProject) {
  // The pages the server answers at every web_url are the built web app (skipped when it is up to date).
  await buildWeb();
  // The CLI's tests run its bundle (test/support/cli.ts); `pnpm start`'s server bundle comes with it.
  execFileSync('node_modules/.bin/tsdown', ['--log-level', 'warn'], { stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'ci-test-'));
  const server = process.env.TEST_DATABASE_URL
    ? { url: process.env.TEST_DATABASE_URL, stop: async () => {} }
    : await startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'ci_template' });
  const templateUrl = server.url;
  const orm = await openOrm({ url: templateUrl });
  await migrate(orm);
  await orm.close(true);
  project.provide('templateDatabaseUrl', templateUrl);
  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabaseUrl: string;
  }
}
