import { EXIT_WITH_PARENT, type RunningProcess, startProcess } from './child-process';
import { freePort } from './free-port';

export type ServerProcess = RunningProcess;

/**
 * The real server as `pnpm start` runs it (the bundle `apps/server/dist/main.mjs`, which the tests' global
 * setup builds) as a separate Node process on `127.0.0.1:<free port>`,
 * resolved once it answers `GET /healthz` with 200; it exits with the test process that spawned it.
 * `env` comes on top of SEED_DEMO=false, LOG_LEVEL=warn, RATE_LIMIT_ENABLED=false and
 * PRESSURE_MAX_EVENT_LOOP_DELAY_MS=0, and VALIDATE_RESPONSES=true (a response that does not match its
 * schema answers 500).
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { readyTimeoutMs?: number; args?: string[] } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  return startProcess({
    name: 'server process',
    command: process.execPath,
    args: ['--import', EXIT_WITH_PARENT, 'apps/server/dist/main.mjs', ...(options.args ?? [])],
    env: {
      ...process.env,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      // Off unless the test turns it on: suites that make many requests fast would meet the limits.
      RATE_LIMIT_ENABLED: 'false',
      // No load shed either: on a busy test machine a server's event loop can lag past any threshold.
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
      VALIDATE_RESPONSES: 'true',
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
    },
    baseUrl: `http://127.0.0.1:${port}`,
    ipc: true,
    readyTimeoutMs: options.readyTimeoutMs ?? 20_000,
    pollMs: 50,
    // A server that stops its own embedded PostgreSQL may take seconds on a loaded machine.
    stopGraceMs: 20_000,
  });
}

/**
 * `count` server processes with the same `env`, started at once; when one does not start, the others
 * are stopped and its error is thrown.
 */
export async function startServerProcesses(count: number, env: Record<string, string>) {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startServerProcess(env)));
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) {
    await Promise.all(servers.map((server) => server.stop()));
    throw failure.reason;
  }
  return servers;
}
