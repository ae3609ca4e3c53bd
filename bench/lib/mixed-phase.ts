import { resolve } from 'node:path';
import { spawnCollecting } from '../../test/support/child-process';
import type { LoadOptions } from './load';
import { LOAD_DIR } from './reference';
import { type PhaseResult, resolveTool, runToolPhase } from './tool-phase';

export interface MixedResult {
  list: PhaseResult;
  create: PhaseResult;
  /** OK when check.mjs found every created build once, each above the number before the phase */
  createVerify: string;
  verifyDetail: string;
}

async function check(args: string[]): Promise<{ code: number; out: string }> {
  const spawned = spawnCollecting(process.execPath, [resolve(LOAD_DIR, 'load/check.mjs'), ...args], {
    env: process.env,
  });
  const { code } = await spawned.exit;
  return { code: code ?? 1, out: spawned.output().trim() };
}

/**
 * Readers and writers of one pipeline at once: `mixedConc` connections on the list phase's page while
 * `mixedCreateConc` create builds on the same pipeline, for `duration` seconds. Both tools are the
 * reference's own scripts (bk.lua or ac.mjs, modes list and create), so the page and the create's body
 * are the list and create phases'; the creates are checked afterwards as run-load.sh checks its own.
 */
export async function runMixedPhase(options: {
  base: string;
  token: string;
  organization: string;
  pipeline: string;
  /** the list phase's path and query (on `pipeline`) */
  listPath: string;
  label: string;
  serverPid: number;
  pgPid: number | null;
  load: LoadOptions;
}): Promise<MixedResult> {
  const { base, token, organization, pipeline, load } = options;
  const preflight = await check(['preflight', base, token, organization, pipeline, 'per_page=1']);
  const preMax = preflight.out.split(/\s+/)[0];
  if (preflight.code !== 0 || !/^\d+$/.test(preMax ?? '')) {
    throw new Error(`mixed: check.mjs preflight failed: ${preflight.out}`);
  }
  // run-load.sh's branch shape, so that the bench's clean-up between runs deletes these builds too.
  const branch = `bench-mixed-${Date.now()}-${Math.floor(Math.random() * 32768)}`;
  const tool = await resolveTool(load.tool);
  const outDir = resolve(load.resultsDir, `${options.label}-mixed-${Date.now()}`);
  const common = {
    tool,
    duration: load.duration,
    wrk: { script: resolve(LOAD_DIR, 'load/bk.lua') },
    autocannon: { script: resolve(LOAD_DIR, 'load/ac.mjs') },
    serverPid: options.serverPid,
    pgPid: options.pgPid,
    outDir,
  };
  const [list, create] = await Promise.all([
    runToolPhase({
      ...common,
      name: 'mixed-list',
      url: `${base}${options.listPath}`,
      connections: load.mixedConc,
      env: { BK_MODE: 'list', BK_TOKEN: token },
    }),
    runToolPhase({
      ...common,
      name: 'mixed-create',
      url: `${base}/v2/organizations/${organization}/pipelines/${pipeline}/builds`,
      connections: load.mixedCreateConc,
      env: { BK_MODE: 'create', BK_TOKEN: token, BK_BRANCH: branch },
    }),
  ]);
  const answered = create.counts.requests - create.counts.err_status;
  const verify = await check([
    'verify',
    base,
    token,
    organization,
    pipeline,
    branch,
    preMax!,
    String(answered),
    String(load.mixedCreateConc + create.result.errors),
  ]);
  return {
    list: list.result,
    create: create.result,
    createVerify: verify.code === 0 ? 'OK' : 'FAIL',
    verifyDetail: verify.out,
  };
}
