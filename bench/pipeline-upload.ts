/**
 * `pnpm bench:upload`: how long the server takes to accept a pipeline upload (`POST
 * /v3/jobs/{id}/pipelines`) of 10, 100 and 1,000 steps, from a running job of a fresh build each time,
 * through the built server on the embedded PostgreSQL in a temporary folder. Prints the median, p95 and
 * the time per step for each size (docs/performance.md). `BENCH_UPLOAD_REPEATS` sets the runs per size.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUseCases, newId } from '@ci/application';
import { openDatabase } from '@ci/db';
import { acmeWithAdmin } from '../test/support/database';
import { benchSettings, PROJECT_DATABASE } from './lib/config';
import { startBenchPostgres } from './lib/postgres';
import { freePort, startProjectServer } from './lib/processes';

const SIZES = [10, 100, 1000];
const REPEATS = Number(process.env.BENCH_UPLOAD_REPEATS ?? 30);
const QUEUE = 'upload-bench';

const dir = mkdtempSync(join(tmpdir(), 'ci-bench-upload-'));
const settings = benchSettings({ BENCH_DATA_DIR: dir, BENCH_PG_PORT: String(await freePort()) });
const postgres = await startBenchPostgres(settings, PROJECT_DATABASE);
const database = await openDatabase({ url: postgres.url, dataDir: '', embeddedPort: 0, poolMax: 2 });
const useCases = createUseCases({ repos: database.repos, clock: { now: () => new Date() }, newId });
const token = await (await acmeWithAdmin(useCases)).token();
const registration = (await useCases.admin.createAgentToken({ organization: 'acme' })).secret;
await useCases.admin.createPipeline({
  organization: 'acme',
  name: 'uploads',
  repository: 'git@example.com:acme/uploads.git',
  steps: `steps:\n  - command: upload\n    agents: { queue: ${QUEUE} }\n`,
});
await database.close();
const server = await startProjectServer({ databaseUrl: postgres.url });

const call = async (method: string, path: string, auth: string, body?: unknown) => {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { Authorization: auth, 'Content-Type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
};

/**
 * A pipeline file of `size` steps: command steps each with a label, env and agents, and a wait midway, behind
 * a block step: the builds' jobs stay waiting, so the agent's next upload job is always the one offered
 * (dispatch looks at an organization's oldest 100 runnable jobs).
 */
const pipelineOf = (size: number) =>
  `env:\n  TARGET: bench-$BUILDKITE_BUILD_NUMBER\nsteps:\n  - block: hold\n${Array.from(
    { length: size - 2 },
    (_, i) =>
      `${i === (size - 2) / 2 ? '  - wait\n' : ''}  - label: "step ${i} on \${BUILDKITE_BRANCH}"\n    command: make test-${i} TARGET=$TARGET\n    env: { PART: "${i}" }\n    agents: { queue: default }\n`,
  ).join('')}`;

try {
  const agent = await call('POST', '/v3/register', `Token ${registration}`, {
    name: 'bench',
    meta_data: [`queue=${QUEUE}`],
  });
  const agentAuth = `Token ${agent.access_token}`;
  await call('POST', '/v3/connect', agentAuth, {});
  const rows: string[] = [];
  for (const size of SIZES) {
    const text = pipelineOf(size);
    const times: number[] = [];
    for (let run = 0; run < REPEATS + 2; run++) {
      await call('POST', '/v2/organizations/acme/pipelines/uploads/builds', `Bearer ${token}`, {
        commit: 'HEAD',
        branch: 'main',
      });
      const ping = await call('GET', '/v3/ping', agentAuth);
      const job = ping.job;
      if (!job) {
        const builds = await call(
          'GET',
          '/v2/organizations/acme/pipelines/uploads/builds',
          `Bearer ${token}`,
        );
        throw new Error(`no job offered: ${JSON.stringify(ping)} ${JSON.stringify(builds[0]?.jobs)}`);
      }
      await call('PUT', `/v3/jobs/${job.id}/accept`, agentAuth);
      await call('PUT', `/v3/jobs/${job.id}/start`, agentAuth, {});
      const started = performance.now();
      const answer = await call('POST', `/v3/jobs/${job.id}/pipelines`, agentAuth, {
        uuid: newId(),
        pipeline: text,
      });
      const took = performance.now() - started;
      if (answer.jobs.length !== size) throw new Error(`expected ${size} jobs, got ${answer.jobs.length}`);
      if (run >= 2) times.push(took); // the first two warm the server up
      await call('PUT', `/v3/jobs/${job.id}/finish`, agentAuth, { exit_status: '0' });
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    rows.push(
      `| ${size.toLocaleString('en')} | ${(text.length / 1024).toFixed(0)} KiB | ${at(0.5).toFixed(1)} ms | ${at(0.95).toFixed(1)} ms | ${((at(0.5) * 1000) / size).toFixed(0)} µs |`,
    );
  }
  console.log(`pipeline upload, ${REPEATS} runs per size (node ${process.version})\n`);
  console.log('| steps | YAML | median | p95 | median per step |\n|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  await server.stop();
  await postgres.stop();
  rmSync(dir, { recursive: true, force: true });
}
