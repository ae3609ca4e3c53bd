/**
 * `pnpm bench:smoke`: the whole benchmark path in a few seconds, so that it cannot rot (part of `pnpm
 * test`). A fresh embedded PostgreSQL in a temporary folder, a tiny data set (1,000 builds), the
 * project's server, one short phase of each load (autocannon, which is always installed), the GraphQL
 * twin, the conditional list (304s), lists and creates at once (mixed), the first-page probe and the webhook
 * phases in small (20 builds' `build.finished` to a local receiver, 5 GitHub pushes). No thresholds on speed: it fails only when something does not work
 * (a failed request, a wrong create, a GraphQL query the schema no longer answers).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { runConditionalPhase } from './lib/conditional-phase';
import { BENCH_TOKEN, benchSettings, ORGANIZATION, PROJECT_DATABASE } from './lib/config';
import {
  firstPageTime,
  graphqlOperation,
  type LoadOptions,
  runGraphqlPhase,
  runReferenceLoad,
} from './lib/load';
import { runMixedPhase } from './lib/mixed-phase';
import { startBenchPostgres } from './lib/postgres';
import { freePort, startProjectServer } from './lib/processes';
import { seedBench } from './lib/seed';
import { describeWebhookPhase, runWebhookPhase } from './lib/webhook-phase';

/** Pipelines whose stored counts a recount from the builds and jobs would change. */
async function countsRecountChanges(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const read =
      'select pipeline_id, scheduled_builds, running_builds, scheduled_jobs, running_jobs, waiting_jobs from pipeline_counts order by pipeline_id';
    await client.query('begin');
    const before = (await client.query(read)).rows.map((row) => JSON.stringify(row));
    await client.query('select pipeline_counts_recount()');
    const after = (await client.query(read)).rows.map((row) => JSON.stringify(row));
    await client.query('rollback');
    return after.filter((row, index) => row !== before[index]);
  } finally {
    await client.end();
  }
}

/** run.ts's list page: pipeline-1's first page of passed main builds. */
const LIST_PATH = `/v2/organizations/${ORGANIZATION}/pipelines/pipeline-1/builds?per_page=30&branch=main&state=passed`;

const started = performance.now();
const dir = mkdtempSync(join(tmpdir(), 'ci-bench-smoke-'));
const settings = benchSettings({
  BENCH_DATA_DIR: dir,
  BENCH_PG_PORT: String(await freePort()),
  BENCH_BUILDS: process.env.BENCH_SMOKE_BUILDS ?? '1000',
});
const load: LoadOptions = {
  duration: 1,
  conc: 4,
  createConc: 2,
  mixedConc: 2,
  mixedCreateConc: 1,
  tool: process.env.LOAD_TOOL ?? 'autocannon',
  resultsDir: join(dir, 'results'),
  echo: true,
};
const problems: string[] = [];
const postgres = await startBenchPostgres(settings, PROJECT_DATABASE);
try {
  await seedBench({ url: postgres.url, builds: settings.builds, log: () => {} });
  console.log(
    `smoke: seeded ${settings.builds} builds in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const server = await startProjectServer({
    databaseUrl: postgres.url,
    env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
  });
  try {
    const base = server.baseUrl;
    const page = await firstPageTime(`${base}${LIST_PATH}`, BENCH_TOKEN, 5);
    console.log(`# first page alone: median ${page.medianMs} ms (status ${page.status})`);
    if (page.status !== 200) problems.push(`first page: status ${page.status}`);
    const rest = await runReferenceLoad({
      base,
      token: BENCH_TOKEN,
      label: 'smoke',
      phases: ['list', 'get', 'create'],
      serverPid: server.pid,
      pgPid: postgres.postmasterPid,
      load,
    });
    if (!rest.listPage || rest.listPage.builds < 1 || rest.listPage.jobsPerBuild !== 5) {
      problems.push(`list page: ${JSON.stringify(rest.listPage)} (builds with 5 jobs each expected)`);
    }
    for (const [phase, result] of Object.entries(rest.phases)) {
      if (result.errors > 0) problems.push(`${phase}: ${result.errors} errors`);
      if (!(result.rps > 0)) problems.push(`${phase}: no request completed`);
    }
    if (Object.keys(rest.phases).length !== 3)
      problems.push(`phases measured: ${Object.keys(rest.phases).join(', ')}`);
    if (rest.createVerify !== 'OK') problems.push(`create verify: ${rest.createVerify}`);
    const operation = await graphqlOperation(base, BENCH_TOKEN, ORGANIZATION, 'pipeline-1');
    if (typeof operation === 'string') {
      problems.push(`graphql: ${operation}`);
    } else {
      const graphql = await runGraphqlPhase({
        base,
        token: BENCH_TOKEN,
        operation,
        label: 'smoke',
        serverPid: server.pid,
        pgPid: postgres.postmasterPid,
        load,
      });
      console.log(
        `graphql: ${graphql.rps} req/s, p50 ${graphql.p50Ms} ms, p99 ${graphql.p99Ms} ms, errors ${graphql.errors}, check ${graphql.checkAfter}${operation.note ? ` (${operation.note})` : ''}`,
      );
      if (graphql.errors > 0) problems.push(`graphql: ${graphql.errors} errors`);
      if (graphql.checkAfter !== 'OK') problems.push(`graphql: ${graphql.checkAfter}`);
    }
    const phase = { base, token: BENCH_TOKEN, label: 'smoke', serverPid: server.pid, load };
    const pgPid = postgres.postmasterPid;
    const conditional = await runConditionalPhase({ ...phase, pgPid, path: LIST_PATH });
    if (typeof conditional === 'string') {
      problems.push(`conditional: ${conditional}`);
    } else {
      console.log(
        `conditional: ${conditional.rps} req/s, p50 ${conditional.p50Ms} ms, p99 ${conditional.p99Ms} ms, errors ${conditional.errors}, ${conditional.bytesPerAnswer} bytes per answer, check ${conditional.checkAfter}`,
      );
      if (conditional.errors > 0) problems.push(`conditional: ${conditional.errors} errors`);
      if (conditional.checkAfter !== 'OK') problems.push(`conditional: ${conditional.checkAfter}`);
    }
    const mixed = await runMixedPhase({
      ...phase,
      pgPid,
      organization: ORGANIZATION,
      pipeline: 'pipeline-1',
      listPath: LIST_PATH,
    });
    for (const [name, result] of [
      ['list', mixed.list],
      ['create', mixed.create],
    ] as const) {
      console.log(`mixed ${name}: ${result.rps} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms`);
      if (result.errors > 0) problems.push(`mixed ${name}: ${result.errors} errors`);
      if (!(result.rps > 0)) problems.push(`mixed ${name}: no request completed`);
    }
    if (mixed.createVerify !== 'OK') problems.push(`mixed create verify: ${mixed.verifyDetail}`);
    // The webhook phases in small (bench:webhooks runs them in full): every build's event arrives.
    const webhooks = await runWebhookPhase({
      servers: [base],
      databaseUrl: postgres.url,
      token: BENCH_TOKEN,
      organization: ORGANIZATION,
      pipeline: 'pipeline-3',
      builds: 20,
      cancels: 20,
      spreadMs: 200,
      inboundRequests: 5,
      deliveryTimeoutMs: 20_000,
    });
    for (const line of describeWebhookPhase(webhooks)) console.log(line);
    for (const outbound of [webhooks.burst, webhooks.cancels]) {
      if (outbound?.delivered !== 20 || outbound.builds !== 20) {
        problems.push(`webhooks: ${outbound?.delivered} of ${outbound?.builds} delivered`);
      }
    }
    const errors = webhooks.burst.errors + (webhooks.cancels?.errors ?? 0) + webhooks.inbound.errors;
    if (errors > 0) problems.push('webhooks: failed requests');
  } finally {
    await server.stop();
  }
  // The seed loads with the pipeline counters' triggers off and recounts; the phases ran with them on.
  const drift = await countsRecountChanges(postgres.url);
  if (drift.length) problems.push(`pipeline counts differ from a recount: ${drift.join('; ')}`);
} finally {
  await postgres.stop();
  rmSync(dir, { recursive: true, force: true });
}
const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (problems.length) {
  console.error(`bench smoke FAILED in ${seconds} s:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `bench smoke OK in ${seconds} s (no thresholds: the figures above mean nothing on a tiny data set)`,
);
