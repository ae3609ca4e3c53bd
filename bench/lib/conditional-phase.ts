import { resolve } from 'node:path';
import { ROOT } from '../../test/support/child-process';
import type { LoadOptions } from './load';
import { LOAD_DIR } from './reference';
import { type PhaseResult, resolveTool, runToolPhase } from './tool-phase';

export interface ConditionalResult extends PhaseResult {
  /** the list page's tag the phase sent as `If-None-Match` */
  etag: string;
  /** bytes the tool read per answer: a 304 is headers alone, the list page ~280 KB */
  bytesPerAnswer: number;
  /** OK when a conditional GET still answered 304 after the phase and no answer carried a page */
  checkAfter: string;
}

/** Above this many bytes per answer, some answers were whole pages, not 304s (wrk counts no 200 as an error). */
const MAX_BYTES_PER_304 = 4096;

async function statusOf(url: string, headers: Record<string, string>) {
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  return { status: response.status, etag: response.headers.get('etag') };
}

/**
 * The list page asked again with the tag it answered (`If-None-Match`), as a polling client does: each
 * answer is a 304 without a body. Same tool, connections and columns as the list phase, so the two
 * phases' req/s compare the cost of a 304 with a full page's. A string says why it cannot run.
 */
export async function runConditionalPhase(options: {
  base: string;
  token: string;
  /** the list phase's path and query */
  path: string;
  label: string;
  serverPid: number;
  pgPid: number | null;
  load: LoadOptions;
}): Promise<ConditionalResult | string> {
  const url = `${options.base}${options.path}`;
  const headers = { authorization: `Bearer ${options.token}`, accept: 'application/json' };
  const first = await statusOf(url, headers);
  if (first.status !== 200 || !first.etag) return `the list answered ${first.status} without an ETag`;
  const etag = first.etag;
  const probe = await statusOf(url, { ...headers, 'if-none-match': etag });
  if (probe.status !== 304) return `If-None-Match: ${etag} answered ${probe.status}, not 304`;
  const { result, counts } = await runToolPhase({
    name: 'conditional',
    tool: await resolveTool(options.load.tool),
    url,
    connections: options.load.conc,
    duration: options.load.duration,
    // The reference's list script, plus the header; wrk puts -H headers in wrk.headers before the script runs.
    wrk: { script: resolve(LOAD_DIR, 'load/bk.lua'), args: ['-H', `If-None-Match: ${etag}`] },
    autocannon: { script: resolve(ROOT, 'bench/load/request-ac.mjs') },
    env: {
      BK_MODE: 'list',
      BK_TOKEN: options.token,
      BK_HEADERS: JSON.stringify({ 'if-none-match': etag }),
      BK_EXPECT_STATUS: '304',
    },
    serverPid: options.serverPid,
    pgPid: options.pgPid,
    outDir: resolve(options.load.resultsDir, `${options.label}-conditional-${Date.now()}`),
  });
  const bytesPerAnswer = counts.requests ? Math.round(counts.bytes / counts.requests) : 0;
  const after = await statusOf(url, { ...headers, 'if-none-match': etag });
  const checkAfter =
    after.status !== 304
      ? `FAIL: answered ${after.status} after the phase`
      : bytesPerAnswer > MAX_BYTES_PER_304
        ? `FAIL: ${bytesPerAnswer} bytes per answer (pages, not 304s)`
        : 'OK';
  return { ...result, etag, bytesPerAnswer, checkAfter };
}
