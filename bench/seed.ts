/**
 * `pnpm bench:seed [--reference]`: the benchmark data set (the reference seeder's shape: organization
 * `acme`, pipelines `pipeline-0`…`pipeline-9`, BENCH_BUILDS builds × 5 jobs, 20 users, a known token)
 * in the project's schema, in the bench PostgreSQL (embedded in BENCH_DATA_DIR, default `.bench-data`,
 * or DATABASE_URL's server). With `--reference` (or BENCH_REFERENCE=1) the reference's own seeder also
 * fills its database on the same server, and both data sets are compared.
 */
import pg from 'pg';
import { benchSettings, PROJECT_DATABASE, REFERENCE_DATABASE } from './lib/config';
import { recreateDatabase, startBenchPostgres } from './lib/postgres';
import { dataFingerprint, prepareReferenceCopy, seedReference } from './lib/reference';
import { seedBench } from './lib/seed';

const settings = benchSettings();
const withReference = process.argv.includes('--reference') || process.env.BENCH_REFERENCE === '1';
if (withReference && settings.databaseUrl) {
  throw new Error('--reference needs the embedded bench PostgreSQL (unset DATABASE_URL)');
}

/** An external database is emptied only on request: it may hold something else. */
async function resetExternal(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `select quote_ident(tablename) as name from pg_tables where schemaname = 'public' and tablename <> 'schema_migrations'`,
    );
    if (rows.length === 0) return;
    if (process.env.BENCH_RESET !== '1') {
      throw new Error(
        `DATABASE_URL's database already has tables; BENCH_RESET=1 empties them (every row) before seeding`,
      );
    }
    await client.query(`truncate ${rows.map((row) => row.name).join(', ')} cascade`);
  } finally {
    await client.end();
  }
}

const postgres = await startBenchPostgres(settings, PROJECT_DATABASE);
try {
  console.log(
    settings.databaseUrl
      ? 'bench database: DATABASE_URL'
      : `bench database: embedded PostgreSQL in ${settings.dataDir} (port ${settings.pgPort}), database "${PROJECT_DATABASE}"`,
  );
  if (settings.databaseUrl) await resetExternal(postgres.url);
  else await recreateDatabase(postgres.url, PROJECT_DATABASE);
  await seedBench({ url: postgres.url, builds: settings.builds });

  if (withReference) {
    console.log(`\nreference: its own seed.mjs into database "${REFERENCE_DATABASE}" on the same PostgreSQL`);
    const copy = prepareReferenceCopy(settings);
    const referenceUrl = postgres.urlFor(REFERENCE_DATABASE);
    await recreateDatabase(postgres.url, REFERENCE_DATABASE);
    await seedReference(copy, referenceUrl, settings.builds);
    const [ours, theirs] = await Promise.all([dataFingerprint(postgres.url), dataFingerprint(referenceUrl)]);
    const same = ours.builds === theirs.builds && ours.md5 === theirs.md5;
    console.log(
      `same builds as the reference (pipeline, number, state, branch, commit, message of all ${ours.builds}): ${same ? 'yes' : `NO (project ${ours.md5}, reference ${theirs.md5})`}`,
    );
    if (!same) process.exitCode = 1;
  }
} finally {
  await postgres.stop();
}
