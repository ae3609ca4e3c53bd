import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ROOT } from '../../test/support/child-process';

/**
 * The benchmark's known token: `bkua_` and 40 hex digits like every real token (the reference's own
 * `bkua_bench…` would fail the project's shape check). Only its SHA-256 is stored, as for real tokens.
 */
export const BENCH_TOKEN = process.env.BENCH_TOKEN ?? `bkua_bec${'0'.repeat(36)}1`;
/** The reference seeder's token (its config.mjs default). */
export const REFERENCE_TOKEN = 'bkua_bench0000000000000000000000000000000001';

export const ORGANIZATION = 'acme';
/** The project's database inside the bench data directory: the server's default name, so `pnpm start` serves it. */
export const PROJECT_DATABASE = 'ci';
/** The reference's database, next to the project's in the same PostgreSQL (same settings, same machine). */
export const REFERENCE_DATABASE = 'bk_bench';

function absolute(path: string): string {
  return isAbsolute(path) ? path : resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

export interface BenchSettings {
  /** the embedded PostgreSQL's data directory holder (`<dataDir>/pg`), unless `databaseUrl` */
  dataDir: string;
  pgPort: number;
  /** an external PostgreSQL for the project's database (the reference is then not available) */
  databaseUrl: string | undefined;
  builds: number;
  /** where the reference folder is read from (read-only) */
  referenceDir: string;
  /** results and the reference's scratch copy */
  workDir: string;
}

export function benchSettings(env: NodeJS.ProcessEnv = process.env): BenchSettings {
  const dataDir = absolute(env.BENCH_DATA_DIR ?? resolve(ROOT, '.bench-data'));
  const builds = Number(env.BENCH_BUILDS ?? 100_000);
  if (!Number.isInteger(builds) || builds < 250) {
    throw new Error(`BENCH_BUILDS must be an integer ≥ 250, got ${env.BENCH_BUILDS}`);
  }
  return {
    dataDir,
    pgPort: Number(env.BENCH_PG_PORT ?? 54330),
    databaseUrl: env.DATABASE_URL || undefined,
    builds,
    referenceDir: absolute(env.BENCH_REFERENCE_DIR ?? resolve(ROOT, '../shared/bench-reference')),
    workDir: resolve(dataDir, 'work'),
  };
}

export function referenceAvailable(settings: BenchSettings): boolean {
  return existsSync(resolve(settings.referenceDir, 'server.mjs'));
}
