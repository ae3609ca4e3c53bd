import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ArtifactSettings, createUseCases, type Deps, newId, type UseCases } from '@ci/application';
import { fileArtifactStore } from '@ci/artifact-store';
import { type Database, openDatabase } from '@ci/db';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * A fresh database cloned from the migrated template, each test file owning its data; with `template:
 * 'template0'`, one without any table.
 */
export async function freshDatabaseUrl({ template }: { template?: 'template0' } = {}): Promise<string> {
  const templateUrl = new URL(inject('templateDatabaseUrl'));
  const source = template ?? templateUrl.pathname.slice(1);
  const name = `test_${randomUUID().replaceAll('-', '')}`;
  // Cloning needs the template free of sessions, this one included: two files that each held a session on
  // the template while cloning made each other fail with 55006 on every retry, until the hook timed out.
  const maintenanceUrl = new URL(templateUrl);
  maintenanceUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: maintenanceUrl.toString() });
  await admin.connect();
  try {
    // The template must be idle while cloning; files start concurrently, so retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database "${name}" template "${source}"`);
        break;
      } catch (error) {
        if (attempt > 50 || (error as { code?: string }).code !== '55006') throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(templateUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export interface TestDatabase {
  url: string;
  database: Database;
  useCases: UseCases;
  /** where the server that serves this database's artifacts listens (its downloads name it) */
  setApiUrl(url: string): void;
  close(): Promise<void>;
}

export async function freshDatabase(
  options: {
    now?: () => Date;
    onQuery?: (sql: string) => void;
    /** how far lists are counted (the application's defaults when absent) */
    listLimits?: Deps['listLimits'];
    /** the artifact store and limit; by default files in a temporary folder, at most 1 MiB each */
    artifacts?: ArtifactSettings;
  } = {},
) {
  const url = await freshDatabaseUrl();
  const database = await openDatabase({
    url,
    dataDir: '',
    embeddedPort: 0,
    poolMax: 5,
    ...(options.onQuery ? { onQuery: options.onQuery } : {}),
  });
  // Served downloads name the server, whose port is known only once it listens (`setApiUrl`).
  let apiUrl = 'http://127.0.0.1:0';
  const artifacts = options.artifacts ?? {
    store: fileArtifactStore({
      root: mkdtempSync(join(tmpdir(), 'ci-artifacts-')),
      baseUrl: () => `${apiUrl}/v3/artifacts`,
      secret: randomUUID(),
      urlTtlSeconds: 600,
    }),
    maxBytes: 1024 * 1024,
  };
  const useCases = createUseCases({
    repos: database.repos,
    clock: { now: options.now ?? (() => new Date()) },
    newId: () => newId(),
    ...(options.listLimits ? { listLimits: options.listLimits } : {}),
    artifacts,
  });
  return {
    url,
    database,
    useCases,
    setApiUrl: (url: string) => {
      apiUrl = url;
    },
    close: () => database.close(),
  } satisfies TestDatabase;
}

/**
 * Organization `acme` and its admin (Ada Admin, admin@acme.test), made through the admin use cases, for
 * the suites that run their own server processes; `token()` issues the admin a new token with every scope.
 */
export async function acmeWithAdmin(useCases: UseCases) {
  const admin = useCases.admin;
  await admin.createOrganization({ name: 'Acme', slug: 'acme' });
  const user = await admin.createUser({ name: 'Ada Admin', email: 'admin@acme.test' });
  await admin.addMember({ organization: 'acme', email: user.email, role: 'admin' });
  const token = async () => (await admin.createAccessToken({ email: user.email, scopes: 'all' })).secret;
  return { user, token };
}

/** Returns once some connection to the database `sql` reads waits for a lock (for races that need one to). */
export async function someoneWaitsForALock(sql: Database['sql']): Promise<void> {
  for (let attempt = 0; attempt < 250; attempt++) {
    const [row] = await sql.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (row!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no connection waited for a lock');
}
