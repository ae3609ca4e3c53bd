import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawnCollecting } from '../../test/support/child-process';
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

/** The `WRK_JSON {…}` line every load script prints (the reference's bk.lua and ac.mjs, and ours). */
export interface ToolCounts {
  requests: number;
  duration_us: number;
  bytes: number;
  err_connect: number;
  err_read: number;
  err_write: number;
  err_status: number;
  err_timeout: number;
  p50_us: number;
  p90_us: number;
  p99_us: number;
}

/** The sampler's (load/sampler.mjs) last line. */
export interface SamplerLine {
  server_peak_rss_kb?: number | null;
  cpu_pct?: Record<string, number>;
}

/** A load tool's and its sampler's output as the columns of run-load.sh's table. */
export function phaseResult(counts: ToolCounts, sampled: SamplerLine, withPg: boolean): PhaseResult {
  const seconds = counts.duration_us / 1e6;
  return {
    rps: Math.round((counts.requests / seconds) * 10) / 10,
    p50Ms: counts.p50_us / 1000,
    p90Ms: counts.p90_us / 1000,
    p99Ms: counts.p99_us / 1000,
    errors: counts.err_connect + counts.err_read + counts.err_write + counts.err_status + counts.err_timeout,
    mbPerS: Math.round((counts.bytes / seconds / 1048576) * 10) / 10,
    rssMb: sampled.server_peak_rss_kb ? Math.round(sampled.server_peak_rss_kb / 1024) : null,
    cpu: {
      server: sampled.cpu_pct?.server ?? null,
      pg: withPg ? (sampled.cpu_pct?.pg ?? null) : null,
      load: sampled.cpu_pct?.load ?? null,
      other: sampled.cpu_pct?.other ?? null,
    },
  };
}

/** The `WRK_JSON` line of a load tool's output, or null when it printed none. */
export function toolCounts(output: string): ToolCounts | null {
  const line = output.split('\n').findLast((text) => text.startsWith('WRK_JSON '));
  return line ? (JSON.parse(line.slice('WRK_JSON '.length)) as ToolCounts) : null;
}

/** `auto` as run-load.sh reads it: wrk when installed, else autocannon. */
export async function resolveTool(tool: string): Promise<'wrk' | 'autocannon'> {
  if (tool === 'wrk' || tool === 'autocannon') return tool;
  const probe = spawnCollecting('bash', ['-c', 'command -v wrk'], { env: process.env });
  return (await probe.exit).code === 0 ? 'wrk' : 'autocannon';
}

/**
 * One load tool process with the reference's sampler beside it, as run-load.sh's `run_tool` runs them:
 * wrk with a Lua script (two threads at most) or node with an autocannon driver; both print `WRK_JSON`.
 * Two of these may run at once (the mixed phase): each sampler then counts its own tool as the load.
 */
export async function runToolPhase(options: {
  name: string;
  tool: 'wrk' | 'autocannon';
  url: string;
  connections: number;
  duration: number;
  /** the wrk script and extra wrk arguments (e.g. `-H`), and the autocannon driver */
  wrk: { script: string; args?: string[] };
  autocannon: { script: string };
  /** what the scripts read (BK_TOKEN, BK_MODE, …) */
  env: NodeJS.ProcessEnv;
  serverPid: number;
  pgPid: number | null;
  /** where the tool's and the sampler's raw output go */
  outDir: string;
}): Promise<{ result: PhaseResult; counts: ToolCounts }> {
  const { tool, url, connections, duration } = options;
  const [command, args] =
    tool === 'wrk'
      ? [
          'wrk',
          [
            `-t${Math.min(2, connections)}`,
            `-c${connections}`,
            `-d${duration}s`,
            '--timeout',
            '10s',
            ...(options.wrk.args ?? []),
            '-s',
            options.wrk.script,
            url,
          ],
        ]
      : [process.execPath, [options.autocannon.script, url, String(connections), String(duration)]];
  const toolProcess = spawnCollecting(command, args, { env: { ...process.env, ...options.env } });
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
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(resolve(options.outDir, `${options.name}.tool`), toolOut);
  writeFileSync(resolve(options.outDir, `${options.name}.sampler`), samplerOut);
  const counts = toolCounts(toolOut);
  if (!counts) throw new Error(`the load tool produced no result for ${options.name}:\n${toolOut}`);
  const sampled = JSON.parse(samplerOut.trim().split('\n').pop() || '{}') as SamplerLine;
  return { result: phaseResult(counts, sampled, options.pgPid !== null), counts };
}
