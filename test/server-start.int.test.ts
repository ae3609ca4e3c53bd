import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { EXIT_WITH_PARENT, spawnCollecting } from './support/child-process';
import { freePort } from './support/free-port';
import { startServerProcess } from './support/server-process';

/**
 * Starts that fail (issue 31): each says what failed and what to do in a line or two, exits 1 without a
 * stack, and leaves nothing running that it began; the demo is seeded, and its token printed, only once
 * the server listens. Each test has an embedded PostgreSQL of its own in a fresh data directory.
 */

const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
});

function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ci-start-'));
  dataDirs.push(dir);
  return dir;
}

/** The processes whose command line names `text` (a data directory): PostgreSQL's, for one. */
function processesNaming(text: string): string[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        return command.includes(text) && !command.includes('vitest') ? [`${pid}: ${command}`] : [];
      } catch {
        return [];
      }
    });
}

const { DATABASE_URL: _external, ...withoutDatabaseUrl } = process.env;

/**
 * Runs the server to its end (a failed start), with SEED_DEMO on and the embedded PostgreSQL. A start
 * that does not end within `limitMs` (it served instead of failing) is stopped, and its output returned.
 */
async function failedStart(env: Record<string, string>, limitMs = 60_000) {
  const run = spawnCollecting(
    process.execPath,
    ['--import', 'tsx', '--import', EXIT_WITH_PARENT, 'apps/server/src/main.ts'],
    {
      env: {
        ...withoutDatabaseUrl,
        SEED_DEMO: 'true',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        ...env,
      },
      ipc: true,
    },
  );
  const limit = setTimeout(() => run.child.kill('SIGTERM'), limitMs);
  const { code } = await run.exit.finally(() => clearTimeout(limit));
  if (run.child.connected) run.child.disconnect();
  return { code, output: run.output() };
}

/** Something listening on `port` of 127.0.0.1 until closed. */
async function occupy(port: number): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

const close = (server: Server) => new Promise((resolve) => server.close(resolve));

/** Two lines at most, no stack frame. */
function expectShortAndStackless(output: string) {
  expect(output.trim().split('\n').length).toBeLessThanOrEqual(2);
  expect(output).not.toMatch(/^\s+at /m);
  expect(output).not.toContain('undefined');
}

describe('a start that fails', { timeout: 150_000 }, () => {
  it('names the HTTP port in use and how to pick another, stops its PostgreSQL and seeds nothing', async () => {
    const dataDir = freshDataDir();
    const port = await freePort();
    const blocker = await occupy(port);
    let failed: Awaited<ReturnType<typeof failedStart>>;
    try {
      failed = await failedStart({
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(await freePort()),
        PORT: String(port),
      });
    } finally {
      await close(blocker);
    }
    expect(failed.code).toBe(1);
    expect(failed.output).toContain(`could not listen on 127.0.0.1:${port}: the port is already in use`);
    expect(failed.output).toContain(`PORT=${port + 1}`);
    expect(failed.output).not.toContain('Admin token');
    expectShortAndStackless(failed.output);
    await expect.poll(() => processesNaming(dataDir), { timeout: 15_000 }).toEqual([]);

    // The next start finds the database empty, so it seeds the demo and prints its token, once it listens.
    const server = await startServerProcess(
      {
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(await freePort()),
        SEED_DEMO: 'true',
      },
      { readyTimeoutMs: 60_000 },
    );
    try {
      await expect.poll(() => server.output(), { timeout: 10_000 }).toContain('Admin token, shown only now');
      expect(server.output()).toContain('pnpm cli token create --email admin@acme.test --scopes all');
    } finally {
      await server.stop();
    }
    await expect.poll(() => processesNaming(dataDir), { timeout: 15_000 }).toEqual([]);
  });

  it("says PostgreSQL's own reason, its port and data directory when the embedded one cannot start", async () => {
    const dataDir = freshDataDir();
    const pgPort = await freePort();
    const blocker = await occupy(pgPort);
    let failed: Awaited<ReturnType<typeof failedStart>>;
    try {
      failed = await failedStart({
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(pgPort),
        PORT: String(await freePort()),
      });
    } finally {
      await close(blocker);
    }
    expect(failed.code).toBe(1);
    expect(failed.output).toContain(
      `The embedded PostgreSQL did not start (data directory ${join(dataDir, 'pg')}, port ${pgPort})`,
    );
    expect(failed.output).toMatch(/could not (bind|create any TCP\/IP sockets)/);
    expect(failed.output).toContain('EMBEDDED_PG_PORT=');
    expectShortAndStackless(failed.output);
    await expect.poll(() => processesNaming(dataDir), { timeout: 15_000 }).toEqual([]);
  });

  it('names a stale lock file left in the data directory and says to remove it', {
    timeout: 150_000,
  }, async () => {
    const dataDir = freshDataDir();
    const pgPort = await freePort();
    // A first start initialises the data directory; then a postmaster.pid names a live process of
    // PostgreSQL's user (which PostgreSQL cannot tell from one of its own) that is not PostgreSQL, as
    // after a crash whose process id was taken again.
    const server = await startServerProcess(
      {
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(pgPort),
      },
      { readyTimeoutMs: 60_000 },
    );
    await server.stop();
    // Its PostgreSQL gone too: one still shutting down would be found listening and attached to.
    await expect.poll(() => processesNaming(dataDir), { timeout: 15_000 }).toEqual([]);
    const { uid, gid } = statSync(join(dataDir, 'pg'));
    // It lives until the test ends: were it gone before PostgreSQL reads the lock file, the file would
    // be rightly taken as stale and the start would succeed.
    const impostor = spawn('sleep', ['infinity'], { uid, gid, stdio: 'ignore' });
    onTestFinished(() => {
      impostor.kill();
    });
    const lockFile = join(dataDir, 'pg', 'postmaster.pid');
    writeFileSync(lockFile, `${impostor.pid}\n${join(dataDir, 'pg')}\n1700000000\n${pgPort}\n\n127.0.0.1\n`);

    const failed = await failedStart({
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      PORT: String(await freePort()),
    });
    expect(failed.output).toContain('lock file "postmaster.pid" already exists');
    expect(failed.output).toContain(`remove its stale lock file (${lockFile})`);
    expect(failed.code).toBe(1);
    expectShortAndStackless(failed.output);
    await expect.poll(() => processesNaming(dataDir), { timeout: 15_000 }).toEqual([]);
  });

  it('names an invalid setting', async () => {
    const failed = await failedStart({ DATA_DIR: freshDataDir(), PORT: 'eighty' });
    expect(failed.code).toBe(1);
    expect(failed.output).toMatch(/^Invalid configuration: PORT: /);
    expectShortAndStackless(failed.output);
  });
});

describe('two servers on one data directory', () => {
  it('refuses the second with a clear message and leaves the first serving', {
    timeout: 150_000,
  }, async () => {
    const dataDir = freshDataDir();
    const pgPort = await freePort();
    const first = await startServerProcess(
      {
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(pgPort),
      },
      { readyTimeoutMs: 60_000 },
    );
    try {
      const failed = await failedStart({
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(pgPort + 1),
        PORT: String(await freePort()),
      });
      expect(failed.code).toBe(1);
      expect(failed.output).toContain(
        `The embedded PostgreSQL in ${join(dataDir, 'pg')} is already run by another process`,
      );
      expect(failed.output).toContain('DATA_DIR=');
      expectShortAndStackless(failed.output);
      expect((await fetch(`${first.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      await first.stop();
    }
    await expect.poll(() => processesNaming(dataDir), { timeout: 15_000 }).toEqual([]);
  });
});

describe("the embedded PostgreSQL's password", { timeout: 150_000 }, () => {
  it('is random, made at first start and kept in the data directory readable by its owner only', async () => {
    const dataDir = freshDataDir();
    const server = await startServerProcess(
      {
        DATA_DIR: dataDir,
        EMBEDDED_PG_PORT: String(await freePort()),
      },
      { readyTimeoutMs: 60_000 },
    );
    await server.stop();
    const file = join(dataDir, 'postgres-password');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const password = readFileSync(file, 'utf8').trim();
    expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(password).not.toBe('postgres');
  });
});

describe('a shutdown past its grace delay', () => {
  it('exits at once and still stops the embedded PostgreSQL it started', { timeout: 90_000 }, async () => {
    const dataDir = freshDataDir();
    const server = await startServerProcess(
      { DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(await freePort()), SHUTDOWN_GRACE_SECONDS: '0.5' },
      { readyTimeoutMs: 60_000 },
    );
    // Its process group (its PostgreSQL too) is stopped whatever happens below, once the server has gone too.
    onTestFinished(async () => {
      await server.stop();
      try {
        process.kill(-server.pid, 'SIGTERM');
      } catch {
        // Nothing of it is left.
      }
    });
    // A request whose body never comes holds the HTTP server's close past the grace delay.
    const { port, hostname } = new URL(server.baseUrl);
    const held = connect(Number(port), hostname);
    onTestFinished(() => {
      held.destroy();
    });
    await new Promise<void>((resolve) => held.once('connect', resolve));
    // `Expect: 100-continue` is answered once the server has read the head: the request is in flight then,
    // so the HTTP server's close cannot take the connection for an idle one.
    const continued = new Promise<void>((resolve) => held.once('data', () => resolve()));
    held.write(
      'POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n{',
    );
    await continued;
    await expect.poll(() => processesNaming(dataDir).length, { timeout: 5_000 }).toBeGreaterThan(0);
    // SIGTERM to the server alone, not its process group: its PostgreSQL hears of it only from the server.
    process.kill(server.pid, 'SIGTERM');
    await expect.poll(() => server.output(), { timeout: 15_000 }).toContain('stopping now');
    await expect.poll(() => processesNaming(dataDir), { timeout: 15_000 }).toEqual([]);
  });
});
