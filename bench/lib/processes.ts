import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT, startProcess } from '../../test/support/child-process';
import { freePort } from '../../test/support/free-port';

export { freePort, startProcess };

/**
 * The project's server as in production: what `pnpm start` runs (the compiled server,
 * `apps/server/dist/main.mjs`, built first by scripts/build-server.mjs), without the pnpm process
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
 * Builds the server as `pnpm start` does and answers what it then runs: the Node options and the file
 * after `exec node` in the root package.json's `start` script (the heap flag, see docs/performance.md).
 */
function buildServer(): string[] {
  execFileSync(process.execPath, [resolve(ROOT, 'scripts/build-server.mjs')], { stdio: 'inherit' });
  const { scripts } = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const run = /&& exec node (.+)$/.exec(scripts.start ?? '')?.[1];
  if (!run)
    throw new Error(`package.json's start script no longer ends in "&& exec node …": ${scripts.start}`);
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
