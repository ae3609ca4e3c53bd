import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type RunningDatabase, startEmbeddedPostgres } from '@ci/db';
import pg from 'pg';
import type { BenchSettings } from './config';

export interface BenchPostgres extends RunningDatabase {
  /** the postmaster's pid (for the CPU sampler), null for an external server */
  postmasterPid: number | null;
  /** the same server, another database */
  urlFor(database: string): string;
}

/** The bench PostgreSQL: DATABASE_URL's server, else the embedded one in `<dataDir>/pg` (started or attached to). */
export async function startBenchPostgres(settings: BenchSettings, database: string): Promise<BenchPostgres> {
  if (settings.databaseUrl) {
    const url = settings.databaseUrl;
    return {
      url,
      owned: false,
      stop: async () => {},
      stopAtOnce: () => {},
      postmasterPid: null,
      urlFor: () => url,
    };
  }
  const running = await startEmbeddedPostgres({ dataDir: settings.dataDir, port: settings.pgPort, database });
  const pidFile = resolve(settings.dataDir, 'pg', 'postmaster.pid');
  const postmasterPid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  return {
    ...running,
    postmasterPid: Number.isInteger(postmasterPid) ? postmasterPid : null,
    urlFor: (name) => {
      const url = new URL(running.url);
      url.pathname = `/${name}`;
      return url.toString();
    },
  };
}

/** Drops and re-creates a database (nothing may be connected to it). */
export async function recreateDatabase(serverUrl: string, database: string): Promise<void> {
  const url = new URL(serverUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const name = `"${database.replaceAll('"', '""')}"`;
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
}
