/**
 * `pnpm bench:webhooks`: issue 30's webhook figures. Two project servers (built as `pnpm start` runs
 * them) on one fresh embedded PostgreSQL in a temporary folder; BENCH_WEBHOOK_BUILDS builds (1,000) of a
 * pipeline no agent runs finish over BENCH_WEBHOOK_SPREAD_MS (1,000), their cancels sent to the servers
 * in turn, and each `build.finished` reaches a local receiver (the targets: p99 within 5 s); then a
 * signed GitHub push to the pipeline's webhook URL against a REST create, BENCH_WEBHOOK_INBOUND (200)
 * of each (the target: the push at most twice the create). Prints the figures; no thresholds.
 */
import { startBenchOrganization } from './lib/bench-organization';
import { startProjectServer } from './lib/processes';
import { describeWebhookPhase, runWebhookPhase } from './lib/webhook-phase';

const env = process.env;
const builds = Number(env.BENCH_WEBHOOK_BUILDS ?? 1000);
const spreadMs = Number(env.BENCH_WEBHOOK_SPREAD_MS ?? 1000);
const inboundRequests = Number(env.BENCH_WEBHOOK_INBOUND ?? 200);
const serverCount = Number(env.BENCH_WEBHOOK_SERVERS ?? 2);

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
      }),
    );
  }
  process.stdout.write(
    `webhooks: ${servers.length} server processes, ${builds} builds finishing over ${spreadMs} ms, ` +
      `${inboundRequests} inbound requests of each kind\n`,
  );
  const result = await runWebhookPhase({
    servers: servers.map((server) => server.baseUrl),
    token,
    organization: 'bench',
    pipeline: 'events',
    builds,
    spreadMs,
    inboundRequests,
  });
  for (const line of describeWebhookPhase(result)) process.stdout.write(`  ${line}\n`);
} finally {
  for (const server of servers) await server.stop();
  await remove();
}
