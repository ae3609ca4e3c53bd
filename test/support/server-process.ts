import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from './free-port';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Loaded into each server process: it exits when the test process that spawned it goes away (the IPC
 * channel closes), so even a test runner killed mid-run leaves no server behind.
 */
const EXIT_WITH_PARENT = `data:text/javascript,process.on('disconnect',()=>process.exit(1))`;

export interface ServerProcess {
  baseUrl: string;
  pid: number;
  /** Everything the process wrote to stdout and stderr so far, for failure messages. */
  output(): string;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/**
 * The real server (`apps/server/src/main.ts`) as a separate Node process on `127.0.0.1:<free port>`,
 * resolved once it answers `GET /healthz` with 200. `env` comes on top of SEED_DEMO=false, LOG_LEVEL=warn,
 * RATE_LIMIT_ENABLED=false.
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { readyTimeoutMs?: number; args?: string[] } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', EXIT_WITH_PARENT, 'apps/server/src/main.ts', ...(options.args ?? [])],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        // Off unless the test turns it on: suites that make many requests fast would meet the limits.
        RATE_LIMIT_ENABLED: 'false',
        ...env,
        HOST: '127.0.0.1',
        PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // Its own process group, so that stopping it also stops anything it started.
      detached: true,
    },
  );
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

  const stop = async (graceMs = 5_000) => {
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
    if (child.connected) child.disconnect();
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 20_000);
  try {
    for (;;) {
      if (exited(child)) {
        throw new Error(
          `server process exited (code ${child.exitCode}, signal ${child.signalCode}):\n${output}`,
        );
      }
      if (Date.now() > deadline) throw new Error(`server process not healthy in time:\n${output}`);
      const healthy = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(1_000) }).then(
        (response) => response.status === 200,
        () => false,
      );
      if (healthy) break;
      await new Promise((resolveWait) => setTimeout(resolveWait, 50));
    }
  } catch (error) {
    await stop(1_000);
    throw error;
  }

  return { baseUrl, pid: child.pid ?? 0, output: () => output, stop };
}
