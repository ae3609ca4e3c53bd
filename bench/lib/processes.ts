import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from '../../test/support/free-port';
import { ROOT } from './config';

export { freePort };

export interface Running {
  name: string;
  baseUrl: string;
  pid: number;
  /** everything it wrote so far */
  output(): string;
  /** SIGTERM to its process group, SIGKILL after `graceMs`; resolves once it has exited */
  stop(graceMs?: number): Promise<void>;
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** Spawns a server in its own process group and waits until `GET <readyPath>` answers 200. */
export async function startProcess(options: {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  baseUrl: string;
  readyPath?: string;
  readyTimeoutMs?: number;
}): Promise<Running & { readyMs: number }> {
  const started = performance.now();
  const child = spawn(options.command, options.args, {
    cwd: ROOT,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exit = new Promise<void>((resolveExit) => {
    if (exited(child)) resolveExit();
    else child.once('exit', () => resolveExit());
  });
  const signal = (name: NodeJS.Signals) => {
    if (exited(child) || child.pid === undefined) return;
    try {
      process.kill(-child.pid, name);
    } catch {
      child.kill(name);
    }
  };
  const stop = async (graceMs = 10_000) => {
    signal('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const killed = new Promise<void>((resolveKill) => {
      timer = setTimeout(() => {
        signal('SIGKILL');
        resolveKill();
      }, graceMs);
    });
    await Promise.race([exit, killed]);
    clearTimeout(timer);
    await exit;
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  try {
    for (;;) {
      if (exited(child)) {
        throw new Error(
          `${options.name} exited (code ${child.exitCode}, signal ${child.signalCode}):\n${output}`,
        );
      }
      if (Date.now() > deadline) throw new Error(`${options.name} not ready in time:\n${output}`);
      const ready = await fetch(`${options.baseUrl}${options.readyPath ?? '/healthz'}`, {
        signal: AbortSignal.timeout(1_000),
      }).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ready) break;
      await new Promise((resolveWait) => setTimeout(resolveWait, 20));
    }
  } catch (error) {
    await stop(2_000);
    throw error;
  }
  return {
    name: options.name,
    baseUrl: options.baseUrl,
    pid: child.pid ?? 0,
    output: () => output,
    stop,
    readyMs: performance.now() - started,
  };
}

/**
 * The project's server as in production, minus the `tsx` wrapper process: one Node process running
 * `apps/server/src/main.ts` with tsx's loader (what `pnpm start` runs, without the parent process that
 * only relays signals), so that its pid's RSS is the server's. Logs at `warn`, rate limits off (see
 * docs/performance.md), no demo seed.
 */
export async function startProjectServer(options: {
  databaseUrl: string;
  env?: NodeJS.ProcessEnv;
  /** extra Node options, e.g. `--cpu-prof` */
  nodeArgs?: string[];
}) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  return startProcess({
    name: 'project server',
    command: process.execPath,
    args: [...(options.nodeArgs ?? []), '--import', 'tsx', resolve(ROOT, 'apps/server/src/main.ts')],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ENABLED: 'false',
      SEED_DEMO: 'false',
      ...options.env,
      DATABASE_URL: options.databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(port),
    },
    baseUrl,
  });
}

/** The reference server (from its scratch copy) on the same PostgreSQL, its own database. */
export async function startReferenceServer(options: {
  copyDir: string;
  pg: { host: string; port: number; user: string; password: string; database: string };
  env?: NodeJS.ProcessEnv;
}) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  return startProcess({
    name: 'reference server',
    command: process.execPath,
    args: [resolve(options.copyDir, 'server.mjs')],
    env: {
      ...process.env,
      ...options.env,
      PORT: String(port),
      BK_PG_HOST: options.pg.host,
      BK_PG_PORT: String(options.pg.port),
      BK_PG_USER: options.pg.user,
      BK_PG_PASSWORD: options.pg.password,
      BK_PG_DATABASE: options.pg.database,
    },
    baseUrl,
  });
}
