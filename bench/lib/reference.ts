import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { ROOT } from '../../test/support/child-process';
import type { BenchSettings } from './config';

/** The reference's load tools, copied verbatim into `bench/reference-load/` (see its SOURCE.md). */
export const LOAD_DIR = resolve(ROOT, 'bench/reference-load');
export const VENDORED_LOAD_FILES = [
  'run-load.sh',
  'load/ac.mjs',
  'load/bk.lua',
  'load/check.mjs',
  'load/sampler.mjs',
];

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Which vendored load files differ from the reference folder's; null when that folder is absent. */
export function loadToolDrift(settings: BenchSettings): string[] | null {
  if (!existsSync(resolve(settings.referenceDir, 'run-load.sh'))) return null;
  return VENDORED_LOAD_FILES.filter(
    (file) => sha256(resolve(LOAD_DIR, file)) !== sha256(resolve(settings.referenceDir, file)),
  );
}

/**
 * A scratch copy of the reference (the folder itself stays read-only and untouched), whose bare imports
 * (`pg`, `pg-copy-streams`) resolve to the project's pinned copies through a `node_modules` link.
 */
export function prepareReferenceCopy(settings: BenchSettings): string {
  if (!existsSync(resolve(settings.referenceDir, 'server.mjs'))) {
    throw new Error(
      `The reference is not at ${settings.referenceDir} (set BENCH_REFERENCE_DIR to the bench-reference folder)`,
    );
  }
  const copy = resolve(settings.workDir, 'reference');
  rmSync(copy, { recursive: true, force: true });
  cpSync(settings.referenceDir, copy, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|\.git|results|pgdata)$/.test(source),
  });
  symlinkSync(resolve(ROOT, 'node_modules'), resolve(copy, 'node_modules'), 'dir');
  return copy;
}

export interface PgParts {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
}

export function pgParts(url: string): PgParts {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 5432),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: parsed.pathname.slice(1),
  };
}

/** Runs the reference's own seeder (COPY into its own schema) against `url`, streaming its output. */
export async function seedReference(copyDir: string, url: string, builds: number): Promise<void> {
  const parts = pgParts(url);
  await new Promise<void>((resolveRun, reject) => {
    const child = spawn(process.execPath, [resolve(copyDir, 'seed.mjs')], {
      stdio: 'inherit',
      env: {
        ...process.env,
        BK_PG_HOST: parts.host,
        BK_PG_PORT: String(parts.port),
        BK_PG_USER: parts.user,
        BK_PG_PASSWORD: parts.password,
        BK_PG_DATABASE: parts.database,
        BK_SEED_BUILDS: String(builds),
      },
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolveRun() : reject(new Error(`reference seed.mjs exited with ${code}`)),
    );
  });
}

/**
 * A fingerprint of the data set both schemas share: every build's pipeline, number, state, branch,
 * commit and message, in order. Equal fingerprints: the same builds (the ids and absolute times differ).
 */
export async function dataFingerprint(url: string): Promise<{ builds: number; md5: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ builds: number; md5: string }>(
      `select count(*)::int as builds,
              md5(string_agg(concat_ws('|', p.slug, b.number, b.state, b.branch, b.commit, b.message), E'\\n'
                  order by p.slug, b.number)) as md5
       from builds b join pipelines p on p.id = b.pipeline_id
       where b.source <> 'api' or b.message <> 'load test build'`,
    );
    return rows[0]!;
  } finally {
    await client.end();
  }
}
