import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

/** The repository root: where servers, agents and the benchmark's processes run. */
export const ROOT = resolve(import.meta.dirname, '../..');

/**
 * A Node `--import` that makes the process exit when the process that spawned it goes away (the IPC
 * channel closes), so even a test runner killed mid-run leaves nothing behind. Needs `ipc: true`.
 */
export const EXIT_WITH_PARENT = `data:text/javascript,process.on('disconnect',()=>process.exit(1))`;

export interface Spawned {
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far, for failure messages. */
  output(): string;
  /** What it wrote to stdout alone so far. */
  stdout(): string;
  /** Resolves once the process has exited, with how it ended; rejects when it could not be spawned. */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  hasExited(): boolean;
}

/** Spawns `command` in the repository root and collects what it writes to stdout and stderr. */
export function spawnCollecting(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; ipc?: boolean; detached?: boolean },
): Spawned {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe', ...(options.ipc ? (['ipc'] as const) : [])],
    detached: options.detached ?? false,
  });
  let output = '';
  let stdout = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
    (resolveExit, rejectExit) => {
      if (hasExited()) resolveExit({ code: child.exitCode, signal: child.signalCode });
      else child.once('exit', (code, signal) => resolveExit({ code, signal }));
      // A process that cannot be spawned (a missing binary) emits `error`, fatal without a listener, and
      // never `exit`.
      child.on('error', rejectExit);
    },
  );
  // Rejected before anyone awaits it, it is not an unhandled rejection; who awaits it still gets the error.
  exit.catch(() => {});
  return { child, output: () => output, stdout: () => stdout, exit, hasExited };
}

export interface RunningProcess {
  name: string;
  baseUrl: string;
  pid: number;
  /** Everything the process wrote to stdout and stderr so far, for failure messages. */
  output(): string;
  /** SIGTERM to its process group, SIGKILL if it has not exited within `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
  /** From spawning to the first 200 of the ready path. */
  readyMs: number;
}

/**
 * Spawns a server in its own process group (so that stopping it also stops anything it started) and
 * resolves once `GET <baseUrl><readyPath>` answers 200, polling every `pollMs`; stops it and throws
 * with its output when it exits first or is not ready within `readyTimeoutMs`.
 */
export async function startProcess(options: {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  baseUrl: string;
  /** an IPC channel to the process (for EXIT_WITH_PARENT) */
  ipc?: boolean;
  readyPath?: string;
  readyTimeoutMs?: number;
  pollMs?: number;
  /** the default of `stop` */
  stopGraceMs?: number;
}): Promise<RunningProcess> {
  const started = performance.now();
  const spawned = spawnCollecting(options.command, options.args, {
    env: options.env,
    ipc: options.ipc ?? false,
    detached: true,
  });
  const { child, output, exit, hasExited } = spawned;
  const signal = (name: NodeJS.Signals) => {
    if (hasExited() || child.pid === undefined) return;
    try {
      process.kill(-child.pid, name);
    } catch {
      child.kill(name);
    }
  };
  const stop = async (graceMs = options.stopGraceMs ?? 10_000) => {
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

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  try {
    for (;;) {
      if (hasExited()) {
        throw new Error(
          `${options.name} exited (code ${child.exitCode}, signal ${child.signalCode}):\n${output()}`,
        );
      }
      if (Date.now() > deadline) throw new Error(`${options.name} not ready in time:\n${output()}`);
      const ready = await fetch(`${options.baseUrl}${options.readyPath ?? '/healthz'}`, {
        signal: AbortSignal.timeout(1_000),
      }).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ready) break;
      await new Promise((resolveWait) => setTimeout(resolveWait, options.pollMs ?? 20));
    }
  } catch (error) {
    await stop(2_000);
    throw error;
  }
  return {
    name: options.name,
    baseUrl: options.baseUrl,
    pid: child.pid ?? 0,
    output,
    stop,
    readyMs: performance.now() - started,
  };
}
