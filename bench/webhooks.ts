/**
 * `pnpm bench:webhooks`: issue 30's webhook figures. Two project servers (built as `pnpm start` runs
 * them) on one fresh embedded PostgreSQL in a temporary folder; BENCH_WEBHOOK_BUILDS builds (1,000) of a
 * pipeline no agent runs, all skipped by one GitHub push to their branch (the pipeline's
 * `skip_queued_branch_builds`), each `build.skipped` reaching a local receiver (the target: p99 within
 * 5 s); then BENCH_WEBHOOK_CANCELS builds (1,000; 0: none) canceled over REST spread over
 * BENCH_WEBHOOK_SPREAD_MS (1,000), each `build.finished` delivered; then a signed GitHub push to the
 * pipeline's webhook URL against a REST create, BENCH_WEBHOOK_INBOUND (200) of each (the target: the
 * push at most twice the create). Prints the figures; no thresholds. BENCH_CPU_PROF=1: the servers run
 * from their sources with `--cpu-prof`, into the folder it prints (`pnpm bench:profile <folder>`), as in
 * `pnpm bench`.
 */
import { resolve } from 'node:path';
import { startBenchOrganization } from './lib/bench-organization';
import { benchSettings } from './lib/config';
import { startProjectServer } from './lib/processes';
import { describeWebhookPhase, runWebhookPhase } from './lib/webhook-phase';

const env = process.env;
const builds = Number(env.BENCH_WEBHOOK_BUILDS ?? 1000);
const cancels = Number(env.BENCH_WEBHOOK_CANCELS ?? 1000);
const spreadMs = Number(env.BENCH_WEBHOOK_SPREAD_MS ?? 1000);
const inboundRequests = Number(env.BENCH_WEBHOOK_INBOUND ?? 200);
const serverCount = Number(env.BENCH_WEBHOOK_SERVERS ?? 2);
const profiles =
  env.BENCH_CPU_PROF === '1'
    ? resolve(benchSettings().workDir, 'results', `webhooks-cpuprof-${Date.now()}`)
    : null;

const { postgresUrl, database, admin, token, remove } = await startBenchOrganization('webhooks');
await admin.createPipeline({
  organization: 'bench',
  name: 'events',
  repository: 'git@github.com:bench/events.git',
  steps: 'steps:\n  - command: "true"\n',
});
await database.close();

const servers = [];
try {
  for (let i = 0; i < serverCount; i += 1) {
    servers.push(
      await startProjectServer({
        databaseUrl: postgresUrl,
        env: { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' },
        ...(profiles ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profiles}`], fromSources: true } : {}),
      }),
    );
  }
  process.stdout.write(
    `webhooks: ${servers.length} server processes, ${builds} builds skipped by one push, ` +
      `${cancels} canceled over ${spreadMs} ms, ${inboundRequests} inbound requests of each kind\n`,
  );
  const result = await runWebhookPhase({
    servers: servers.map((server) => server.baseUrl),
    databaseUrl: postgresUrl,
    token,
    organization: 'bench',
    pipeline: 'events',
    builds,
    cancels,
    spreadMs,
    inboundRequests,
  });
  for (const line of describeWebhookPhase(result)) process.stdout.write(`  ${line}\n`);
  if (profiles) process.stdout.write(`CPU profiles (once the servers stop): ${profiles}\n`);
} finally {
  for (const server of servers) await server.stop();
  await remove();
}
