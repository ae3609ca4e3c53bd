import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, resolve } from 'node:path';
import { ROOT, startProcess } from '../../test/support/child-process';
import { freePort } from '../../test/support/free-port';

export { freePort, startProcess };

/**
 * The project's server as in production: what `pnpm start` runs (the bundled server,
 * `apps/server/dist/main.mjs`, built first by tsdown), without the pnpm process
 * that only relays signals, so that its pid's RSS is the server's. Logs at `warn`, rate limits off
 * (see docs/performance.md), no demo seed. With `fromSources` (the CPU profiles, whose report groups
 * functions by package folder) it runs `apps/server/src/main.ts` through tsx's loader instead.
 */
export async function startProjectServer(options: {
  databaseUrl: string;
  env?: NodeJS.ProcessEnv;
  /** extra Node options, e.g. `--cpu-prof` */
  nodeArgs?: string[];
  fromSources?: boolean;
}) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  return startProcess({
    name: 'project server',
    command: process.execPath,
    args: [...(options.nodeArgs ?? []), ...(options.fromSources ? sourceEntry() : builtServer())],
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

/**
 * Calls of a server at `baseUrl` with the given `Authorization`: a body that is bytes is sent as it is,
 * any other as JSON; the answer's JSON, and anything but a 2xx thrown with its status and text.
 */
export function serverCalls(baseUrl: string) {
  return async <T>(method: string, path: string, auth: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { Authorization: auth, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      ...(body === undefined ? {} : { body: body instanceof Uint8Array ? body : JSON.stringify(body) }),
    } as RequestInit);
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

function sourceEntry(): string[] {
  return ['--import', 'tsx', resolve(ROOT, 'apps/server/src/main.ts')];
}

/** {@link buildServer}'s answer: built once per process (the sources do not change between runs). */
let built: string[] | undefined;

function builtServer(): string[] {
  built ??= buildServer();
  return built;
}

/**
 * Builds the server as `pnpm start` does and answers what it then runs, both taken from the root
 * package.json's `start` script: the build before `&& exec node`, the Node options and file after it.
 */
function buildServer(): string[] {
  const { scripts } = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [, build, run] = /^(.+) && exec node (.+)$/.exec(scripts.start ?? '') ?? [];
  if (!build || !run)
    throw new Error(`package.json's start script is no longer "<build> && exec node …": ${scripts.start}`);
  execSync(build, {
    cwd: ROOT,
    stdio: 'inherit',
    env: {
      ...process.env,
      PATH: `${resolve(ROOT, 'node_modules/.bin')}${delimiter}${process.env.PATH ?? ''}`,
    },
  });
  return run.split(/\s+/).map((arg) => (arg.startsWith('-') ? arg : resolve(ROOT, arg)));
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
