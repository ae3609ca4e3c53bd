/**
 * `pnpm bench:artifacts`: artifact uploads of 1 KB from 4 agents at once, through the agent protocol
 * (declare in batches of 100, then each file's bytes, 4 at a time per agent), against the project's
 * server (built as `pnpm start` runs it) with files under its data directory, on a fresh embedded
 * PostgreSQL in a temporary folder. `BENCH_ARTIFACTS` lists the totals to measure (default 250,1000,4000);
 * each runs in a build of its own. Prints the wall time, files per second and the p50/p99 of one file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startBenchOrganization } from './lib/bench-organization';
import { serverCalls, startProjectServer } from './lib/processes';

const AGENTS = 4;
const FILE_BYTES = 1024;
const BATCH = 100;
const PER_AGENT_CONCURRENCY = 4;
const totals = (process.env.BENCH_ARTIFACTS ?? '250,1000,4000').split(',').map(Number);

const { work, postgresUrl, database, admin, token, remove } = await startBenchOrganization('artifacts');
await admin.createPipeline({
  organization: 'bench',
  name: 'uploads',
  repository: 'git@example.com:bench/uploads.git',
  steps: `steps:\n  - command: "true"\n    parallelism: ${AGENTS}\n`,
});
const registration = (await admin.createAgentToken({ organization: 'bench' })).secret;
await database.close();

const server = await startProjectServer({
  databaseUrl: postgresUrl,
  env: { ARTIFACTS_DIR: join(work, 'artifacts'), AGENT_LOST_AFTER_SECONDS: '600' },
});

const call = serverCalls(server.baseUrl);

/** A registered agent holding a running job of the newest build. */
async function agentWithJob(): Promise<{ auth: string; jobId: string }> {
  const registered = await call<{ access_token: string }>('POST', '/v3/register', `Token ${registration}`, {
    name: `bench-${randomBytes(3).toString('hex')}`,
    meta_data: ['queue=default'],
  });
  const auth = `Token ${registered.access_token}`;
  await call('POST', '/v3/connect', auth, {});
  const ping = await call<{ job?: { id: string } }>('GET', '/v3/ping', auth);
  if (!ping.job) throw new Error('no job offered');
  await call('PUT', `/v3/jobs/${ping.job.id}/accept`, auth);
  await call('PUT', `/v3/jobs/${ping.job.id}/start`, auth, {});
  return { auth, jobId: ping.job.id };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

async function uploads(agent: { auth: string; jobId: string }, count: number, times: number[]) {
  for (let start = 0; start < count; start += BATCH) {
    const files = Array.from({ length: Math.min(BATCH, count - start) }, (_, index) => {
      const bytes = randomBytes(FILE_BYTES);
      return {
        bytes,
        declared: {
          path: `out/${start + index}.bin`,
          file_size: FILE_BYTES,
          sha1sum: createHash('sha1').update(bytes).digest('hex'),
          sha256sum: createHash('sha256').update(bytes).digest('hex'),
        },
      };
    });
    const began = performance.now();
    const created = await call<{ artifact_ids: string[] }>(
      'POST',
      `/v3/jobs/${agent.jobId}/artifacts`,
      agent.auth,
      {
        artifacts: files.map((file) => file.declared),
      },
    );
    const declareShare = (performance.now() - began) / files.length;
    let next = 0;
    const worker = async () => {
      while (next < files.length) {
        const index = next++;
        const at = performance.now();
        await call(
          'PUT',
          `/v3/jobs/${agent.jobId}/artifacts/${created.artifact_ids[index]}/data`,
          agent.auth,
          files[index]?.bytes,
        );
        times.push(performance.now() - at + declareShare);
      }
    };
    await Promise.all(Array.from({ length: PER_AGENT_CONCURRENCY }, worker));
  }
}

try {
  process.stdout.write(
    `artifact uploads: ${AGENTS} agents, ${FILE_BYTES} B each, files under the data directory\n`,
  );
  for (const total of totals) {
    await call('POST', '/v2/organizations/bench/pipelines/uploads/builds', `Bearer ${token}`, {
      commit: 'HEAD',
      branch: 'main',
    });
    const agents = await Promise.all(Array.from({ length: AGENTS }, agentWithJob));
    const times: number[] = [];
    const began = performance.now();
    await Promise.all(agents.map((agent) => uploads(agent, Math.ceil(total / AGENTS), times)));
    const seconds = (performance.now() - began) / 1000;
    times.sort((a, b) => a - b);
    process.stdout.write(
      `  ${String(total).padStart(5)} files: ${seconds.toFixed(2)} s, ${Math.round(total / seconds)} files/s, ` +
        `one file p50 ${percentile(times, 0.5).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms\n`,
    );
    for (const agent of agents) {
      await call('PUT', `/v3/jobs/${agent.jobId}/finish`, agent.auth, { exit_status: '0' });
      await call('POST', '/v3/disconnect', agent.auth, {});
    }
  }
} finally {
  await server.stop();
  await remove();
}
