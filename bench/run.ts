/**
 * `pnpm bench [--reference]`: the reference's load phases (list, get, create), the GraphQL twin of the
 * list, the list asked conditionally (304s), and lists and creates on one pipeline at once (mixed)
 * against the project's server on the bench data set (`pnpm bench:seed` first); with `--reference`, the
 * reference server too, alternating (reference, project, reference, project …) on the same PostgreSQL,
 * then medians and ratios. Last, `pnpm start`'s time to ready on the bench data dir.
 *
 * Environment: RUNS=2 DURATION=10 CONC=32 CREATE_CONC=16 MIXED_CONC=16 MIXED_CREATE_CONC=8
 *   LOAD_TOOL=auto|wrk|autocannon
 *   RESPONSE_CACHE=on|off RESPONSE_CACHE_MB (passed to the project's server; the reference ignores them)
 *   PHASES="list get create graphql conditional mixed" BENCH_STARTUP=1 BENCH_REFERENCE=0 BENCH_DATA_DIR=.bench-data
 *   BENCH_PG_PORT=54330 DATABASE_URL (an external server instead of the embedded one)
 *   BENCH_GRAPHQL_QUERY=<file> (another query for the GraphQL phase; variables: slug, id, buildSlug)
 *   BENCH_CPU_PROF=1 (the project server runs with --cpu-prof; `pnpm bench:profile <file>` summarizes)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import pg from 'pg';
import type { RunningProcess } from '../test/support/child-process';
import { type ConditionalResult, runConditionalPhase } from './lib/conditional-phase';
import {
  BENCH_TOKEN,
  benchSettings,
  ORGANIZATION,
  PROJECT_DATABASE,
  REFERENCE_DATABASE,
  REFERENCE_TOKEN,
} from './lib/config';
import {
  firstPageTime,
  type GraphqlOperation,
  graphqlOperation,
  type LoadOptions,
  type PhaseResult,
  type RunResult,
  runGraphqlPhase,
  runReferenceLoad,
} from './lib/load';
import { type MixedResult, runMixedPhase } from './lib/mixed-phase';
import { startBenchPostgres } from './lib/postgres';
import { freePort, startProcess, startProjectServer, startReferenceServer } from './lib/processes';
import { loadToolDrift, pgParts, prepareReferenceCopy } from './lib/reference';

const env = process.env;
const settings = benchSettings(env);
const withReference = process.argv.includes('--reference') || env.BENCH_REFERENCE === '1';
const runs = Number(env.RUNS ?? 2);
const phases = (env.PHASES ?? 'list get create graphql conditional mixed').split(/\s+/).filter(Boolean);
const restPhases = phases.filter((phase) => ['list', 'get', 'create'].includes(phase));
const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
const resultsDir = resolve(settings.workDir, 'results', `bench-${stamp}`);
mkdirSync(resultsDir, { recursive: true });
const load: LoadOptions = {
  duration: Number(env.DURATION ?? 10),
  conc: Number(env.CONC ?? 32),
  createConc: Number(env.CREATE_CONC ?? 16),
  mixedConc: Number(env.MIXED_CONC ?? 16),
  mixedCreateConc: Number(env.MIXED_CREATE_CONC ?? 8),
  tool: env.LOAD_TOOL ?? 'auto',
  resultsDir,
  echo: true,
};
const LIST_PIPELINE = 'pipeline-1';
/** run-load.sh's default CREATE_PIPELINE */
const CREATE_PIPELINE = 'pipeline-2';
const LIST_PATH = `/v2/organizations/${ORGANIZATION}/pipelines/${LIST_PIPELINE}/builds?per_page=30&branch=main&state=passed`;

const responseCache = env.RESPONSE_CACHE ?? 'on';
if (responseCache !== 'on' && responseCache !== 'off') {
  throw new Error(`RESPONSE_CACHE must be on or off, got ${responseCache}`);
}
/** What the project's server is told about its response cache, and how the summary names the mode. */
const cacheEnv = {
  RESPONSE_CACHE: responseCache,
  ...(env.RESPONSE_CACHE_MB ? { RESPONSE_CACHE_MB: env.RESPONSE_CACHE_MB } : {}),
};
const cacheMode = `response cache ${responseCache}${
  responseCache === 'on' ? ` (${env.RESPONSE_CACHE_MB ?? 'default'} MB)` : ''
}`;

if (withReference && settings.databaseUrl) {
  throw new Error('--reference needs the embedded bench PostgreSQL (unset DATABASE_URL)');
}

const drift = loadToolDrift(settings);
if (drift === null) {
  console.log(`# load tools: bench/reference-load (the reference folder is not at ${settings.referenceDir})`);
} else if (drift.length) {
  console.log(`# WARNING: bench/reference-load differs from ${settings.referenceDir} in ${drift.join(', ')}`);
} else {
  console.log(`# load tools: bench/reference-load, identical to ${settings.referenceDir}`);
}

async function buildCount(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from builds');
    return rows[0]!.n;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Builds that earlier runs created (the `bench-…` branches of the create phase on its pipeline and of
 * the mixed phase on the list's) are deleted before each run, in both databases alike: every run then
 * starts from the seeded data, whatever ran before (thousands of never-run `scheduled` builds would
 * otherwise pile up run after run).
 */
async function removeCreatedBuilds(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const created = `select id from builds where branch like 'bench-%' and pipeline_id in (select id from pipelines where slug = any($1))`;
  const pipelines = [CREATE_PIPELINE, LIST_PIPELINE];
  const remove = async () => {
    await client.query(`delete from jobs where build_id in (${created})`, [pipelines]);
    return (await client.query(`delete from builds where id in (${created})`, [pipelines])).rowCount ?? 0;
  };
  try {
    let removed: number;
    try {
      // Without the foreign-key triggers: the reference's schema has no index on `rebuilt_from_id`, so
      // checking that no build was rebuilt from each deleted one would scan its table once per row.
      await client.query('begin');
      await client.query('set local session_replication_role = replica');
      removed = await remove();
      // Replica mode skips every trigger, the project's pipeline counters' too: count them again.
      const { rows } = await client.query("select to_regproc('pipeline_counts_recount') is not null as kept");
      if (rows[0]?.kept) await client.query('select pipeline_counts_recount()');
      await client.query('commit');
    } catch {
      await client.query('rollback');
      removed = await remove(); // not a superuser: the slow way
    }
    if (removed) await client.query('vacuum (analyze) builds, jobs');
    return removed;
  } finally {
    await client.end();
  }
}

interface Measured {
  kind: 'reference' | 'project';
  run: number;
  rest: RunResult;
  graphql:
    | (PhaseResult & { responseBytes: number; checkAfter: string; file: string; note: string | null })
    | null;
  graphqlSkipped: string | null;
  /** the project's only: the reference answers no ETag */
  conditional: ConditionalResult | null;
  conditionalSkipped: string | null;
  mixed: MixedResult | null;
  firstPage: { medianMs: number; p90Ms: number; status: number };
  /** VmRSS right after start, MB */
  idleRssMb: number | null;
  /** VmHWM at the end of the run (after every phase, GraphQL included), MB */
  hwmMb: number | null;
}

/** One line in run-load.sh's columns. */
function phaseLine(name: string, connections: number | string, r: PhaseResult): string {
  const cell = (value: number | null, width: number) => String(value ?? '-').padStart(width);
  return `${name.padEnd(7)} ${String(connections).padStart(5)} ${cell(r.rps, 9)} ${r.p50Ms.toFixed(2).padStart(9)} ${r.p90Ms.toFixed(2).padStart(9)} ${r.p99Ms.toFixed(2).padStart(9)} ${cell(r.errors, 7)} ${cell(r.mbPerS, 7)} ${cell(r.rssMb, 7)} ${cell(r.cpu.server, 8)} ${cell(r.cpu.pg, 7)} ${cell(r.cpu.load, 8)} ${cell(r.cpu.other, 8)}`;
}

function vmHwmMb(pid: number, field = 'VmHWM'): number | null {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

async function measure(kind: Measured['kind'], run: number, server: RunningProcess, pgPid: number | null) {
  const token = kind === 'project' ? BENCH_TOKEN : REFERENCE_TOKEN;
  const label = `${kind}-run${run}`;
  console.log(
    `\n=== ${label}: ${server.baseUrl} pid ${server.pid} (loadavg ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')})`,
  );
  const idleRssMb = vmHwmMb(server.pid, 'VmRSS');
  const firstPage = await firstPageTime(`${server.baseUrl}${LIST_PATH}`, token);
  console.log(`# idle RSS after start: ${idleRssMb} MB`);
  console.log(`# first page alone (sequential): median ${firstPage.medianMs} ms, p90 ${firstPage.p90Ms} ms`);
  const rest = await runReferenceLoad({
    base: server.baseUrl,
    token,
    label,
    phases: restPhases,
    serverPid: server.pid,
    pgPid,
    load,
  });
  let graphql: Measured['graphql'] = null;
  let graphqlSkipped: string | null = null;
  if (phases.includes('graphql')) {
    if (kind === 'reference') {
      graphqlSkipped = 'the reference has no GraphQL';
    } else {
      const operation: GraphqlOperation | string = await graphqlOperation(
        server.baseUrl,
        token,
        ORGANIZATION,
        LIST_PIPELINE,
      );
      if (typeof operation === 'string') {
        graphqlSkipped = operation;
        console.log(`# graphql phase SKIPPED: ${operation}`);
      } else {
        const result = await runGraphqlPhase({
          base: server.baseUrl,
          token,
          operation,
          label,
          serverPid: server.pid,
          pgPid,
          load,
        });
        graphql = { ...result, file: operation.file, note: operation.note };
        if (operation.note) console.log(`# graphql: ${operation.note}`);
        console.log(phaseLine('graphql', load.conc, result));
        console.log(
          `# graphql: ${operation.file.replace(`${process.cwd()}/`, '')}, response ${result.responseBytes} bytes, check after the phase: ${result.checkAfter}`,
        );
      }
    }
  }
  let conditional: ConditionalResult | null = null;
  let conditionalSkipped: string | null = null;
  if (phases.includes('conditional')) {
    if (kind === 'reference') {
      conditionalSkipped = 'the reference answers no ETag';
    } else {
      const result = await runConditionalPhase({
        base: server.baseUrl,
        token,
        path: LIST_PATH,
        label,
        serverPid: server.pid,
        pgPid,
        load,
      });
      if (typeof result === 'string') {
        conditionalSkipped = result;
        console.log(`# conditional phase SKIPPED: ${result}`);
      } else {
        conditional = result;
        console.log(phaseLine('cond304', load.conc, result));
        console.log(
          `# conditional: If-None-Match ${result.etag}, ${result.bytesPerAnswer} bytes per answer, check after the phase: ${result.checkAfter}`,
        );
      }
    }
  }
  let mixed: MixedResult | null = null;
  if (phases.includes('mixed')) {
    mixed = await runMixedPhase({
      base: server.baseUrl,
      token,
      organization: ORGANIZATION,
      pipeline: LIST_PIPELINE,
      listPath: LIST_PATH,
      label,
      serverPid: server.pid,
      pgPid,
      load,
    });
    console.log(phaseLine('mix-lst', load.mixedConc, mixed.list));
    console.log(phaseLine('mix-crt', load.mixedCreateConc, mixed.create));
    console.log(`# mixed create verify: ${mixed.createVerify} ${mixed.verifyDetail}`);
  }
  return {
    kind,
    run,
    rest,
    graphql,
    graphqlSkipped,
    conditional,
    conditionalSkipped,
    mixed,
    firstPage,
    idleRssMb,
    hwmMb: vmHwmMb(server.pid),
  } satisfies Measured;
}

const median = (values: (number | null | undefined)[]): number | null => {
  const sorted = values
    .filter((v): v is number => typeof v === 'number' && Number.isFinite(v))
    .sort((a, b) => a - b);
  if (!sorted.length) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** pnpm start on the bench data directory (PostgreSQL stopped first): spawn to `GET /healthz` 200. */
async function measureStartup(
  times: number,
): Promise<{ readyMs: number[]; serverReadyInMs: (number | null)[] }> {
  const readyMs: number[] = [];
  const serverReadyInMs: (number | null)[] = [];
  const { DATABASE_URL: _external, ...withoutDatabaseUrl } = process.env;
  for (let i = 0; i < times; i++) {
    const port = await freePort();
    const server = await startProcess({
      name: 'pnpm start',
      command: 'pnpm',
      args: ['start'],
      env: {
        ...withoutDatabaseUrl,
        DATA_DIR: settings.dataDir,
        EMBEDDED_PG_PORT: String(settings.pgPort),
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      baseUrl: `http://127.0.0.1:${port}`,
    });
    readyMs.push(Math.round(server.readyMs));
    await new Promise((done) => setTimeout(done, 300));
    const logged = /"readyInMs":(\d+)/.exec(server.output())?.[1];
    serverReadyInMs.push(logged ? Number(logged) : null);
    await server.stop(20_000);
  }
  return { readyMs, serverReadyInMs };
}

const postgres = await startBenchPostgres(settings, PROJECT_DATABASE);
const measured: Measured[] = [];
let startup: Awaited<ReturnType<typeof measureStartup>> | null = null;
const loadBefore = loadavg();
try {
  const projectBuilds = await buildCount(postgres.url);
  if (!projectBuilds) throw new Error('The bench database has no builds: run `pnpm bench:seed` first');
  let copyDir: string | null = null;
  if (withReference) {
    const referenceBuilds = await buildCount(postgres.urlFor(REFERENCE_DATABASE));
    if (!referenceBuilds) {
      throw new Error('The reference database has no builds: run `pnpm bench:seed --reference` first');
    }
    copyDir = prepareReferenceCopy(settings);
    console.log(`# builds: project ${projectBuilds}, reference ${referenceBuilds}`);
  } else {
    console.log(`# builds: project ${projectBuilds}`);
  }
  console.log(
    `# ${cacheMode}; runs=${runs} duration=${load.duration}s conc=${load.conc} create_conc=${load.createConc} tool=${load.tool} phases="${phases.join(' ')}" results=${resultsDir}`,
  );
  for (let run = 1; run <= runs; run++) {
    if (copyDir) {
      await removeCreatedBuilds(postgres.urlFor(REFERENCE_DATABASE));
      const reference = await startReferenceServer({
        copyDir,
        pg: pgParts(postgres.urlFor(REFERENCE_DATABASE)),
      });
      try {
        measured.push(await measure('reference', run, reference, postgres.postmasterPid));
      } finally {
        await reference.stop();
      }
    }
    await removeCreatedBuilds(postgres.url);
    const project = await startProjectServer({
      databaseUrl: postgres.url,
      env: cacheEnv,
      nodeArgs:
        env.BENCH_CPU_PROF === '1' ? ['--cpu-prof', `--cpu-prof-dir=${resolve(resultsDir, 'cpuprof')}`] : [],
      fromSources: env.BENCH_CPU_PROF === '1',
    });
    try {
      measured.push(await measure('project', run, project, postgres.postmasterPid));
    } finally {
      await project.stop();
    }
  }
} finally {
  await postgres.stop();
}
if (env.BENCH_STARTUP !== '0' && !settings.databaseUrl) {
  console.log('\n=== pnpm start on the existing bench data directory (3 times)');
  startup = await measureStartup(3);
  console.log(
    `# ready (spawn → /healthz 200): ${startup.readyMs.join(', ')} ms; server's own readyInMs: ${startup.serverReadyInMs.join(', ')}`,
  );
}

// ------------------------------------------------------------------ medians and ratios
const of = (kind: Measured['kind']) => measured.filter((m) => m.kind === kind);
/** A row of the table: a phase, or one of the mixed phase's two loads. */
const resultOf = (m: Measured, row: string): PhaseResult | null | undefined => {
  switch (row) {
    case 'graphql':
      return m.graphql;
    case 'conditional':
      return m.conditional;
    case 'mixed-list':
      return m.mixed?.list;
    case 'mixed-create':
      return m.mixed?.create;
    default:
      return m.rest.phases[row];
  }
};
const rows = phases.flatMap((phase) => (phase === 'mixed' ? ['mixed-list', 'mixed-create'] : [phase]));
const phaseMedian = (kind: Measured['kind'], row: string, key: keyof PhaseResult) =>
  median(
    of(kind).map((m) => {
      const value = resultOf(m, row)?.[key];
      return typeof value === 'number' ? value : null;
    }),
  );
const errorsOf = (kind: Measured['kind'], row: string) =>
  of(kind).reduce((sum, m) => sum + (resultOf(m, row)?.errors ?? 0), 0);
const ratio = (a: number | null, b: number | null) =>
  a !== null && b ? Math.round((a / b) * 100) / 100 : null;
const fmt = (value: number | null, digits = 1) => (value === null ? '-' : value.toFixed(digits));

const summary: Record<string, unknown> = {};
const lines: string[] = [];
lines.push('');
lines.push(
  `=== medians of ${runs} run(s)${withReference ? ' (alternating reference, project)' : ''}, ${cacheMode}`,
);
lines.push(
  `${'phase'.padEnd(12)} ${'ref req/s'.padStart(10)} ${'ref p50'.padStart(8)} ${'ref p99'.padStart(8)} ${'req/s'.padStart(9)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'errors'.padStart(7)} ${'× req/s'.padStart(8)} ${'× p99'.padStart(7)}`,
);
for (const phase of rows) {
  const row = {
    reference: {
      rps: phaseMedian('reference', phase, 'rps'),
      p50Ms: phaseMedian('reference', phase, 'p50Ms'),
      p99Ms: phaseMedian('reference', phase, 'p99Ms'),
      errors: errorsOf('reference', phase),
    },
    project: {
      rps: phaseMedian('project', phase, 'rps'),
      p50Ms: phaseMedian('project', phase, 'p50Ms'),
      p99Ms: phaseMedian('project', phase, 'p99Ms'),
      errors: errorsOf('project', phase),
    },
  };
  const rpsRatio = ratio(row.project.rps, row.reference.rps);
  const p99Ratio = ratio(row.project.p99Ms, row.reference.p99Ms);
  summary[phase] = { ...row, rpsRatio, p99Ratio };
  lines.push(
    `${phase.padEnd(12)} ${fmt(row.reference.rps).padStart(10)} ${fmt(row.reference.p50Ms, 2).padStart(8)} ${fmt(row.reference.p99Ms, 2).padStart(8)} ${fmt(row.project.rps).padStart(9)} ${fmt(row.project.p50Ms, 2).padStart(8)} ${fmt(row.project.p99Ms, 2).padStart(8)} ${String(row.project.errors).padStart(7)} ${fmt(rpsRatio, 2).padStart(8)} ${fmt(p99Ratio, 2).padStart(7)}`,
  );
}
const rss = {
  referenceIdle: median(of('reference').map((m) => m.idleRssMb)),
  projectIdle: median(of('project').map((m) => m.idleRssMb)),
  reference: median(of('reference').map((m) => m.rest.peakRssMb)),
  project: median(of('project').map((m) => m.rest.peakRssMb)),
  projectEveryPhase: median(of('project').map((m) => m.hwmMb)),
};
const firstPage = {
  reference: median(of('reference').map((m) => m.firstPage.medianMs)),
  project: median(of('project').map((m) => m.firstPage.medianMs)),
};
const listPage = {
  reference: of('reference')[0]?.rest.listPage ?? null,
  project: of('project')[0]?.rest.listPage ?? null,
  graphqlBytes: of('project')[0]?.graphql?.responseBytes ?? null,
};
const graphqlOverList = ratio(
  phaseMedian('project', 'graphql', 'rps'),
  phaseMedian('project', 'list', 'rps'),
);
lines.push(
  `peak RSS (REST phases): reference ${fmt(rss.reference, 0)} MB, project ${fmt(rss.project, 0)} MB (× ${fmt(ratio(rss.project, rss.reference), 2)}); project over every phase: ${fmt(rss.projectEveryPhase, 0)} MB; idle after start: reference ${fmt(rss.referenceIdle, 0)} MB, project ${fmt(rss.projectIdle, 0)} MB`,
);
lines.push(
  `list page: reference ${listPage.reference?.bytes ?? '-'} bytes, project ${listPage.project?.bytes ?? '-'} bytes (${listPage.project?.builds ?? '-'} builds × ${listPage.project?.jobsPerBuild ?? '-'} jobs), GraphQL twin ${listPage.graphqlBytes ?? '-'} bytes`,
);
lines.push(
  `first list page alone (median of sequential requests): reference ${fmt(firstPage.reference, 2)} ms, project ${fmt(firstPage.project, 2)} ms`,
);
lines.push(`GraphQL list / REST list (project req/s): × ${fmt(graphqlOverList, 2)}`);
const skipped = of('project').find((m) => m.graphqlSkipped)?.graphqlSkipped;
if (skipped) lines.push(`GraphQL phase skipped: ${skipped}`);
// A 304's time per request over a full page's, both on CONC connections (at saturation, 1 ÷ req/s).
const conditionalRps = phaseMedian('project', 'conditional', 'rps');
const listRps = phaseMedian('project', 'list', 'rps');
const conditionalOverList =
  conditionalRps && listRps !== null ? Math.round((listRps / conditionalRps) * 1000) / 1000 : null;
const pagesWere = responseCache === 'on' ? 'from the response cache' : 'rendered';
if (phases.includes('conditional')) {
  const why = of('project').find((m) => m.conditionalSkipped)?.conditionalSkipped;
  lines.push(
    why
      ? `conditional GET skipped: ${why}`
      : `conditional GET (304): time per request × ${fmt(conditionalOverList, 3)} a full list page's (${
          conditionalOverList ? `1/${fmt(1 / conditionalOverList, 1)}` : 'needs the list phase'
        }; the list phase's pages were ${pagesWere})`,
  );
}
const verify = measured.map((m) => `${m.kind}-run${m.run}=${m.rest.createVerify}`).join(' ');
lines.push(`create verify: ${verify}`);
if (phases.includes('mixed')) {
  const mixedVerify = measured.map((m) => `${m.kind}-run${m.run}=${m.mixed?.createVerify}`).join(' ');
  lines.push(`mixed create verify: ${mixedVerify}`);
}
if (startup) {
  lines.push(
    `pnpm start to ready: median ${fmt(median(startup.readyMs), 0)} ms (runs: ${startup.readyMs.join(', ')})`,
  );
}
/** A target's line; none when its phases did not run. */
const target = (name: string, value: number | null, ok: (v: number) => boolean, goal: string) => {
  if (value === null) return;
  lines.push(
    `  ${name.padEnd(30)} ${fmt(value, 2).padStart(6)}  target ${goal.padEnd(7)} ${ok(value) ? 'met' : 'NOT met'}`,
  );
};
if (withReference) {
  lines.push(`targets (project ÷ reference, ${cacheMode}):`);
  const s = summary as Record<string, { rpsRatio: number | null; p99Ratio: number | null }>;
  // Issue 25: the list renders at ≥ 1.0 × without the cache and answers at ≥ 5 × with it.
  const listGoal = responseCache === 'on' ? 5 : 1;
  target('list req/s', s.list?.rpsRatio ?? null, (v) => v >= listGoal, `≥ ${listGoal.toFixed(1)}`);
  target('get req/s', s.get?.rpsRatio ?? null, (v) => v >= 1.0, '≥ 1.0');
  target('create req/s', s.create?.rpsRatio ?? null, (v) => v >= 1.0, '≥ 1.0');
  for (const phase of restPhases)
    target(`${phase} p99`, s[phase]?.p99Ratio ?? null, (v) => v <= 1.0, '≤ 1.0');
  target('peak RSS', ratio(rss.project, rss.reference), (v) => v <= 1.5, '≤ 1.5');
  // GraphQL keeps no answers: only a rendered REST list (cache off) is a fair match for it.
  if (responseCache === 'off') {
    target('GraphQL list ÷ REST list', graphqlOverList, (v) => v >= 0.8, '≥ 0.8');
  }
  if (phases.includes('mixed')) {
    target('mixed: list req/s', s['mixed-list']?.rpsRatio ?? null, (v) => v >= 1.0, '≥ 1.0');
    target('mixed: create req/s', s['mixed-create']?.rpsRatio ?? null, (v) => v >= 1.0, '≥ 1.0');
  }
}
// Issue 25's 304 target is against a rendered page; with the cache on the ratio above is for information.
if (responseCache === 'off' && phases.includes('conditional')) {
  lines.push('targets (project alone):');
  target('304 time ÷ list page time', conditionalOverList, (v) => v <= 0.1, '≤ 0.1');
}
for (const line of lines) console.log(line);

const facts = {
  nproc: cpus().length,
  cpu: cpus()[0]?.model,
  node: process.version,
  wrk: (() => {
    try {
      return execFileSync('wrk', ['--version'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }).split('\n')[0];
    } catch (error) {
      return String((error as { stdout?: string }).stdout ?? '').split('\n')[0] || 'none';
    }
  })(),
  loadavgBefore: loadBefore,
  loadavgAfter: loadavg(),
};
const file = resolve(resultsDir, 'summary.json');
writeFileSync(
  file,
  JSON.stringify(
    {
      stamp,
      settings: { ...settings, runs, phases, load, responseCache: cacheEnv },
      facts,
      summary,
      rss,
      firstPage,
      listPage,
      graphqlOverList,
      conditionalOverList,
      startup,
      measured,
    },
    null,
    2,
  ),
);
console.log(`results: ${file}`);
const failed = measured.some(
  (m) =>
    Object.values(m.rest.phases).some((phase) => phase.errors > 0) ||
    (m.graphql && (m.graphql.errors > 0 || m.graphql.checkAfter !== 'OK')) ||
    (m.conditional && (m.conditional.errors > 0 || m.conditional.checkAfter !== 'OK')) ||
    (m.mixed && (m.mixed.list.errors > 0 || m.mixed.create.errors > 0 || m.mixed.createVerify !== 'OK')) ||
    (restPhases.includes('create') && m.rest.createVerify !== 'OK'),
);
if (failed) {
  console.log('ERRORS during the load (see above): the figures are not valid');
  process.exitCode = 1;
}
