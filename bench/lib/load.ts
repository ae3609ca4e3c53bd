import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { ROOT, spawnCollecting } from '../../test/support/child-process';
import { LOAD_DIR } from './reference';

export interface PhaseResult {
  rps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  errors: number;
  mbPerS: number;
  /** the server's sampled peak RSS during the phase (MB) */
  rssMb: number | null;
  cpu: { server: number | null; pg: number | null; load: number | null; other: number | null };
}

export interface RunResult {
  label: string;
  tool: string;
  /** the list page's size in bytes and builds, as the reference's preflight saw it */
  listPage: { builds: number; bytes: number; jobsPerBuild: number } | null;
  phases: Record<string, PhaseResult>;
  createVerify: string;
  /** the server's peak RSS over the whole run (VmHWM, or the sampled peak when larger), MB */
  peakRssMb: number | null;
}

export interface LoadOptions {
  duration: number;
  conc: number;
  createConc: number;
  /** auto | wrk | autocannon, as the reference's run-load.sh */
  tool: string;
  resultsDir: string;
  /** echo the load script's output */
  echo: boolean;
}

async function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  echo: boolean,
): Promise<{ code: number; out: string }> {
  const spawned = spawnCollecting(command, args, { env });
  if (echo) {
    spawned.child.stdout?.on('data', (chunk) => process.stdout.write(chunk));
    spawned.child.stderr?.on('data', (chunk) => process.stdout.write(chunk));
  }
  const { code } = await spawned.exit;
  return { code: code ?? 1, out: spawned.output() };
}

const num = (value: string | undefined) => (value === undefined || value === '-' ? null : Number(value));

/** The reference's `run-load.sh` (vendored verbatim) against `base`: its table and SUMMARY line, parsed. */
export async function runReferenceLoad(options: {
  base: string;
  token: string;
  label: string;
  phases: string[];
  serverPid: number;
  pgPid: number | null;
  load: LoadOptions;
}): Promise<RunResult> {
  // run-load.sh runs all of its phases when given none: asked for none (only GraphQL's), it is not run.
  if (options.phases.length === 0) {
    const { label, load } = options;
    return { label, tool: load.tool, listPage: null, phases: {}, createVerify: 'skipped', peakRssMb: null };
  }
  const { out, code } = await run(
    'bash',
    [resolve(LOAD_DIR, 'run-load.sh'), options.base, options.token],
    {
      ...process.env,
      DURATION: String(options.load.duration),
      CONC: String(options.load.conc),
      CREATE_CONC: String(options.load.createConc),
      LOAD_TOOL: options.load.tool,
      PHASES: options.phases.join(' '),
      LABEL: options.label,
      RESULTS_DIR: options.load.resultsDir,
      SERVER_PID: String(options.serverPid),
      ...(options.pgPid ? { PG_PID: String(options.pgPid) } : {}),
    },
    options.load.echo,
  );
  const summary = out.split('\n').find((line) => line.startsWith('SUMMARY '));
  if (code !== 0 || !summary) throw new Error(`run-load.sh failed (exit ${code}):\n${out}`);
  const page = /list_page: (\d+) builds, (\d+) bytes, (-?\d+) jobs\/build/.exec(out);
  const phases: Record<string, PhaseResult> = {};
  for (const line of out.split('\n')) {
    const cells = line.trim().split(/\s+/);
    if (!options.phases.includes(cells[0] ?? '') || cells.length !== 13 || !/^\d/.test(cells[1] ?? ''))
      continue;
    phases[cells[0]!] = {
      rps: Number(cells[2]),
      p50Ms: Number(cells[3]),
      p90Ms: Number(cells[4]),
      p99Ms: Number(cells[5]),
      errors: Number(cells[6]),
      mbPerS: Number(cells[7]),
      rssMb: num(cells[8]),
      cpu: { server: num(cells[9]), pg: num(cells[10]), load: num(cells[11]), other: num(cells[12]) },
    };
  }
  return {
    label: options.label,
    tool: /tool=(\S+)/.exec(summary)?.[1] ?? '?',
    listPage: page
      ? { builds: Number(page[1]), bytes: Number(page[2]), jobsPerBuild: Number(page[3]) }
      : null,
    phases,
    createVerify: /create_verify=(\S+)/.exec(summary)?.[1] ?? 'skipped',
    peakRssMb: num(/peak_rss=(\d+)MB/.exec(summary)?.[1]),
  };
}

export interface GraphqlOperation {
  /** the file the query came from */
  file: string;
  body: string;
  /** why a fallback query is used, if one is */
  note: string | null;
}

async function postGraphql(base: string, token: string, body: string) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json',
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text) as Record<string, unknown> };
}

/** The page's builds in a response of the bench query, or a reason why there are none. */
function graphqlBuilds(json: Record<string, unknown>): { builds: number; jobs: number } | string {
  if (json.errors) return JSON.stringify(json.errors).slice(0, 500);
  type Builds = { builds?: { edges?: { node: { jobs?: { edges?: unknown[] } } }[] } };
  const data = json.data as { pipeline?: Builds; node?: Builds; build?: { pipeline?: Builds } } | undefined;
  const root = data?.pipeline ?? data?.node ?? data?.build?.pipeline;
  const edges = root?.builds?.edges;
  if (!edges) return `no builds in ${JSON.stringify(json).slice(0, 300)}`;
  return { builds: edges.length, jobs: edges[0]?.node.jobs?.edges?.length ?? 0 };
}

/**
 * The GraphQL twin of the list: the first query in `bench/graphql` that the server answers with builds:
 * through the `pipeline` root field, else `node` with the pipeline's GraphQL id, else through one of the
 * pipeline's builds (`build(slug:)`). BENCH_GRAPHQL_QUERY names another file (variables: slug, id,
 * buildSlug). A string says why none works (no GraphQL, or no field to reach a pipeline's builds).
 */
export async function graphqlOperation(
  base: string,
  token: string,
  organization: string,
  pipeline: string,
): Promise<GraphqlOperation | string> {
  const fragment = readFileSync(resolve(ROOT, 'bench/graphql/build-fields.graphql'), 'utf8');
  let probe: Awaited<ReturnType<typeof postGraphql>>;
  try {
    probe = await postGraphql(
      base,
      token,
      JSON.stringify({ query: '{ __type(name: "Query") { fields { name } } }' }),
    );
  } catch (error) {
    return `no GraphQL endpoint (${(error as Error).message})`;
  }
  if (probe.status !== 200) return `POST /graphql answered ${probe.status}: ${probe.text.slice(0, 200)}`;
  const fields = (
    (probe.json.data as { __type?: { fields?: { name: string }[] } })?.__type?.fields ?? []
  ).map((field) => field.name);
  const rest = await fetch(`${base}/v2/organizations/${organization}/pipelines/${pipeline}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const pipelineId = ((await rest.json()) as { graphql_id?: string }).graphql_id ?? '';
  const variables = {
    slug: `${organization}/${pipeline}`,
    id: pipelineId,
    buildSlug: `${organization}/${pipeline}/1`,
  };
  const override = process.env.BENCH_GRAPHQL_QUERY;
  const candidates = override
    ? [resolve(process.env.INIT_CWD ?? ROOT, override)]
    : [
        ...(fields.includes('pipeline') ? ['list-pipeline.graphql'] : []),
        ...(fields.includes('node') ? ['list-node.graphql'] : []),
        ...(fields.includes('build') ? ['list-via-build.graphql'] : []),
      ].map((name) => resolve(ROOT, 'bench/graphql', name));
  const reasons: string[] = fields.includes('pipeline') ? [] : ['no "pipeline" root field'];
  for (const file of candidates) {
    const query = `${readFileSync(file, 'utf8')}\n${fragment}`;
    const used = Object.fromEntries(Object.entries(variables).filter(([name]) => query.includes(`$${name}`)));
    const body = JSON.stringify({ query, variables: used, operationName: 'BenchList' });
    const check = await postGraphql(base, token, body);
    const builds = graphqlBuilds(check.json);
    if (typeof builds !== 'string' && builds.builds > 0) {
      return { file, body, note: reasons.length ? `${reasons.join('; ')}: using ${basename(file)}` : null };
    }
    reasons.push(`${basename(file)}: ${typeof builds === 'string' ? builds : 'no builds'}`);
  }
  return reasons.length
    ? reasons.join('; ')
    : `no root field to reach a pipeline (has: ${fields.join(', ')})`;
}

/** One phase of the GraphQL twin with the same tool, sampler and columns as run-load.sh's phases. */
export async function runGraphqlPhase(options: {
  base: string;
  token: string;
  operation: GraphqlOperation;
  label: string;
  serverPid: number;
  pgPid: number | null;
  load: LoadOptions;
}): Promise<PhaseResult & { responseBytes: number; checkAfter: string }> {
  const tool =
    options.load.tool === 'auto'
      ? (await run('bash', ['-c', 'command -v wrk'], process.env, false)).code === 0
        ? 'wrk'
        : 'autocannon'
      : options.load.tool;
  const url = `${options.base}/graphql`;
  const outDir = resolve(options.load.resultsDir, `${options.label}-graphql-${Date.now()}`);
  mkdirSync(outDir, { recursive: true });
  const before = await postGraphql(options.base, options.token, options.operation.body);
  const env = { ...process.env, BK_TOKEN: options.token, BK_BODY: options.operation.body };
  const threads = Math.min(2, options.load.conc);
  const [command, args] =
    tool === 'wrk'
      ? [
          'wrk',
          [
            `-t${threads}`,
            `-c${options.load.conc}`,
            `-d${options.load.duration}s`,
            '--timeout',
            '10s',
            '-s',
            resolve(ROOT, 'bench/load/graphql.lua'),
            url,
          ],
        ]
      : [
          process.execPath,
          [
            resolve(ROOT, 'bench/load/graphql-ac.mjs'),
            url,
            String(options.load.conc),
            String(options.load.duration),
          ],
        ];
  const toolProcess = spawnCollecting(command as string, args as string[], { env });
  const sampler = spawnCollecting(
    process.execPath,
    [
      resolve(LOAD_DIR, 'load/sampler.mjs'),
      '--until',
      String(toolProcess.child.pid),
      '--load',
      String(toolProcess.child.pid),
      '--server',
      String(options.serverPid),
      ...(options.pgPid ? ['--pg', String(options.pgPid)] : []),
    ],
    { env: process.env },
  );
  // Its result is the last line of its stdout alone.
  let samplerOut = '';
  sampler.child.stdout?.on('data', (chunk) => {
    samplerOut += chunk;
  });
  await Promise.all([toolProcess.exit, sampler.exit]);
  const toolOut = toolProcess.output();
  writeFileSync(resolve(outDir, 'graphql.tool'), toolOut);
  writeFileSync(resolve(outDir, 'graphql.sampler'), samplerOut);
  const resultLine = toolOut.split('\n').find((line) => line.startsWith('WRK_JSON '));
  if (!resultLine) throw new Error(`the load tool produced no result for graphql:\n${toolOut}`);
  const r = JSON.parse(resultLine.slice('WRK_JSON '.length)) as Record<string, number>;
  const s = JSON.parse(samplerOut.trim().split('\n').pop() ?? '{}') as {
    server_peak_rss_kb?: number;
    cpu_pct?: Record<string, number>;
  };
  const after = graphqlBuilds((await postGraphql(options.base, options.token, options.operation.body)).json);
  const seconds = r.duration_us! / 1e6;
  return {
    rps: Math.round((r.requests! / seconds) * 10) / 10,
    p50Ms: r.p50_us! / 1000,
    p90Ms: r.p90_us! / 1000,
    p99Ms: r.p99_us! / 1000,
    errors: r.err_connect! + r.err_read! + r.err_write! + r.err_status! + r.err_timeout!,
    mbPerS: Math.round((r.bytes! / seconds / 1048576) * 10) / 10,
    rssMb: s.server_peak_rss_kb ? Math.round(s.server_peak_rss_kb / 1024) : null,
    cpu: {
      server: s.cpu_pct?.server ?? null,
      pg: options.pgPid ? (s.cpu_pct?.pg ?? null) : null,
      load: s.cpu_pct?.load ?? null,
      other: s.cpu_pct?.other ?? null,
    },
    responseBytes: Buffer.byteLength(before.text),
    checkAfter: typeof after === 'string' ? `FAIL ${after}` : 'OK',
  };
}

/** The time of one list page, alone: `count` sequential requests after a few to warm up; median and p90 (ms). */
export async function firstPageTime(
  url: string,
  token: string,
  count = 30,
): Promise<{ medianMs: number; p90Ms: number; status: number }> {
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  let status = 0;
  const times: number[] = [];
  for (let i = 0; i < count + 5; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    status = response.status;
    if (i >= 5) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]! * 100) / 100;
  return { medianMs: at(0.5), p90Ms: at(0.9), status };
}
