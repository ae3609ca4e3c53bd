import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { ROOT, spawnCollecting } from '../../test/support/child-process';
import { LOAD_DIR } from './reference';
import { type PhaseResult, resolveTool, runToolPhase } from './tool-phase';

export type { PhaseResult };

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
  /** the mixed phase's list and create connections */
  mixedConc: number;
  mixedCreateConc: number;
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
  const before = await postGraphql(options.base, options.token, options.operation.body);
  const { result } = await runToolPhase({
    name: 'graphql',
    tool: await resolveTool(options.load.tool),
    url: `${options.base}/graphql`,
    connections: options.load.conc,
    duration: options.load.duration,
    wrk: { script: resolve(ROOT, 'bench/load/graphql.lua') },
    autocannon: { script: resolve(ROOT, 'bench/load/request-ac.mjs') },
    env: { BK_TOKEN: options.token, BK_METHOD: 'POST', BK_BODY: options.operation.body },
    serverPid: options.serverPid,
    pgPid: options.pgPid,
    outDir: resolve(options.load.resultsDir, `${options.label}-graphql-${Date.now()}`),
  });
  const after = graphqlBuilds((await postGraphql(options.base, options.token, options.operation.body)).json);
  return {
    ...result,
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
