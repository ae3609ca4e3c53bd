import { Readable } from 'node:stream';
import { pipeline as streamPipeline } from 'node:stream/promises';
import { createUseCases, generateAccessTokenSecret, hashAccessTokenSecret, newId } from '@ci/application';
import { openDatabase } from '@ci/db';
import type { Scope } from '@ci/domain';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { BENCH_TOKEN, ORGANIZATION } from './config';
import {
  BUILD_COLUMNS,
  buildRows,
  copyLine,
  drawBuilds,
  drawPipelineHexes,
  JOB_COLUMNS,
  JOBS_PER_BUILD,
  jobRows,
  PIPELINES,
  referencePrng,
  USERS,
} from './dataset';

/** The reference token's scopes, plus `graphql` for the GraphQL twin of the list. */
const TOKEN_SCOPES: Scope[] = [
  'read_builds',
  'write_builds',
  'read_pipelines',
  'write_pipelines',
  'read_packages',
  'write_packages',
  'graphql',
  // the webhook phases (lib/webhook-phase.ts) make and drop a notification service
  'read_notification_services',
  'write_notification_services',
];

/** What a build gets when the benchmark creates one: the reference's three new steps. */
const PIPELINE_STEPS = `steps:
  - label: ":pipeline: Upload"
    key: upload
    command: "buildkite-agent pipeline upload"
  - label: ":hammer: Build"
    key: build
    command: "make build"
  - label: ":rspec: Test"
    key: test
    command: "make test"
`;

export interface SeedResult {
  token: string;
  builds: number;
  jobs: number;
  pipelines: { slug: string; latest: number }[];
  timings: Record<string, number>;
  databaseSize: string;
}

type Log = (line: string) => void;

async function timed<T>(timings: Record<string, number>, log: Log, name: string, work: () => Promise<T>) {
  const started = performance.now();
  const result = await work();
  timings[name] = performance.now() - started;
  log(`  ${name.padEnd(24)} ${(timings[name] / 1000).toFixed(2)} s`);
  return result;
}

async function copyRows(
  client: pg.Client,
  table: string,
  columns: readonly string[],
  rows: Iterable<unknown[]>,
) {
  const stream = client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`));
  function* chunks() {
    let buffer = '';
    for (const row of rows) {
      buffer += copyLine(row);
      if (buffer.length > 1 << 20) {
        yield buffer;
        buffer = '';
      }
    }
    if (buffer) yield buffer;
  }
  await streamPipeline(Readable.from(chunks()), stream);
}

interface Definition {
  table: string;
  name: string;
  definition: string;
}

/**
 * The secondary structures of `builds` and `jobs` exactly as the migrations made them (read back from
 * the catalog), so that they can be dropped for the bulk load and rebuilt from the same definitions.
 */
async function bulkStructures(client: pg.Client) {
  const tables = `('builds'::regclass, 'jobs'::regclass)`;
  const constraints = (
    await client.query<Definition & { type: string }>(
      `select conrelid::regclass::text as table, conname as name, contype as type,
              pg_get_constraintdef(oid) as definition
       from pg_constraint
       where (conrelid in ${tables} or confrelid in ${tables}) and contype in ('p', 'u', 'f')
       order by conname`,
    )
  ).rows;
  const indexes = (
    await client.query<Definition>(
      `select i.indrelid::regclass::text as table, i.indexrelid::regclass::text as name,
              pg_get_indexdef(i.indexrelid) as definition
       from pg_index i
       where i.indrelid in ${tables}
         and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
       order by 2`,
    )
  ).rows;
  return {
    keys: constraints.filter((c) => c.type !== 'f'),
    foreignKeys: constraints.filter((c) => c.type === 'f'),
    indexes,
  };
}

/**
 * Seeds the reference's data set into the project's schema at `url` (an empty database: the
 * migrations are applied here, through `@ci/db`). Small tables go through the project's own use cases;
 * builds and jobs go in with COPY, their indexes and keys rebuilt afterwards.
 */
export async function seedBench(options: { url: string; builds: number; log?: Log }): Promise<SeedResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const timings: Record<string, number> = {};
  const total = performance.now();
  const now = Date.now();
  log(
    `seeding: ${PIPELINES} pipelines, ${options.builds} builds, ${options.builds * JOBS_PER_BUILD} jobs (project schema)`,
  );

  const database = await timed(timings, log, 'schema (migrations)', () =>
    openDatabase({ url: options.url, dataDir: '', embeddedPort: 0, poolMax: 4 }),
  );
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  try {
    const prng = referencePrng();
    const useCases = createUseCases({ repos: database.repos, clock: { now: () => new Date() }, newId });

    const { organization, users, pipelines } = await timed(timings, log, 'small tables', async () => {
      const organization = await useCases.admin.createOrganization({ name: 'Acme Inc', slug: ORGANIZATION });
      const users = [];
      for (let i = 0; i < USERS; i++) {
        users.push(await useCases.admin.createUser({ name: `User ${i}`, email: `user${i}@acme.example` }));
        await useCases.admin.addMember({
          organization: ORGANIZATION,
          email: `user${i}@acme.example`,
          role: i === 0 ? 'admin' : 'member',
        });
      }
      const { token } = await useCases.admin.createAccessToken({
        email: users[0]!.email,
        scopes: TOKEN_SCOPES,
        description: 'bench token',
      });
      // The known secret instead of the random one, hashed as every token is.
      await client.query('update access_tokens set token_hash = $1 where id = $2', [
        hashAccessTokenSecret(BENCH_TOKEN),
        token.id,
      ]);
      // A few other tokens, so that the hash index is not trivially tiny (as the reference).
      for (let i = 0; i < 50; i++) {
        await database.repos.accessTokens.insert({
          id: newId(),
          userId: users[i % USERS]!.id,
          tokenHash: hashAccessTokenSecret(generateAccessTokenSecret()),
          scopes: ['read_builds'],
          organizationIds: null,
          description: null,
          createdAt: new Date(now),
          expiresAt: null,
          revokedAt: i % 5 === 0 ? new Date(now) : null,
        });
      }
      const pipelines = [];
      for (let i = 0; i < PIPELINES; i++) {
        const pipeline = await useCases.admin.createPipeline({
          organization: ORGANIZATION,
          name: `Pipeline ${i}`,
          repository: `git@github.com:acme/pipeline-${i}.git`,
          steps: PIPELINE_STEPS,
        });
        await client.query('update pipelines set description = $1 where id = $2', [
          `The Pipeline ${i} pipeline`,
          pipeline.id,
        ]);
        pipelines.push(pipeline);
      }
      return { organization, users, pipelines };
    });
    // The reference draws its pipelines' webhook hexes before the builds: same draws, same builds.
    drawPipelineHexes(prng, PIPELINES);
    const builds = drawBuilds(prng, options.builds, pipelines, now, newId);

    const structures = await bulkStructures(client);
    await timed(timings, log, 'drop indexes + keys', async () => {
      for (const fk of structures.foreignKeys)
        await client.query(`alter table ${fk.table} drop constraint ${fk.name}`);
      for (const index of structures.indexes) await client.query(`drop index ${index.name}`);
      for (const key of structures.keys)
        await client.query(`alter table ${key.table} drop constraint ${key.name}`);
    });
    // The pipeline counts' triggers would hold every copied row in their transition tables; off for the
    // bulk load, the counts are recounted once after it.
    await client.query('alter table builds disable trigger user');
    await client.query('alter table jobs disable trigger user');
    await timed(timings, log, 'copy builds', () =>
      copyRows(client, 'builds', BUILD_COLUMNS, buildRows(prng, builds, users, organization.id)),
    );
    await timed(timings, log, 'copy jobs', () =>
      copyRows(client, 'jobs', JOB_COLUMNS, jobRows(builds, newId)),
    );
    await timed(timings, log, 'indexes + keys', async () => {
      for (const key of structures.keys)
        await client.query(`alter table ${key.table} add constraint ${key.name} ${key.definition}`);
      for (const index of structures.indexes) await client.query(index.definition);
      for (const fk of structures.foreignKeys)
        await client.query(`alter table ${fk.table} add constraint ${fk.name} ${fk.definition}`);
    });
    await client.query('alter table builds enable trigger user');
    await client.query('alter table jobs enable trigger user');
    await timed(timings, log, 'pipeline counters', async () => {
      await client.query(
        `update pipelines p set next_build_number = coalesce((select max(number) from builds b where b.pipeline_id = p.id), 0) + 1`,
      );
      await client.query('select pipeline_counts_recount()');
    });
    await timed(timings, log, 'vacuum analyze', () => client.query('vacuum (analyze)'));

    const { rows: latest } = await client.query<{ slug: string; latest: number }>(
      'select slug, next_build_number - 1 as latest from pipelines order by slug',
    );
    const {
      rows: [size],
    } = await client.query<{ size: string; builds: number; jobs: number }>(
      `select pg_size_pretty(pg_database_size(current_database())) as size,
              (select count(*)::int from builds) as builds, (select count(*)::int from jobs) as jobs`,
    );
    timings.total = performance.now() - total;
    log(
      `seed total: ${(timings.total / 1000).toFixed(2)} s  (builds=${size!.builds}, jobs=${size!.jobs}, db size=${size!.size})`,
    );
    log(`token: ${BENCH_TOKEN}`);
    log(`pipelines: ${latest.map((row) => `${ORGANIZATION}/${row.slug}(${row.latest})`).join(' ')}`);
    return {
      token: BENCH_TOKEN,
      builds: size!.builds,
      jobs: size!.jobs,
      pipelines: latest,
      timings,
      databaseSize: size!.size,
    };
  } finally {
    await client.end();
    await database.close();
  }
}
