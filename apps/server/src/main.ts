import { parseArgs } from 'node:util';
import { createUseCases } from '@ci/application';
import { openDatabase } from '@ci/db';
import { newId } from '@ci/domain';
import { runAgent } from '../../agent/src/agent';
import { buildApp } from './app';
import { artifactSettings } from './artifact-settings';
import { startBackgroundWork } from './background/background-work';
import { readServerConfig } from './config';

const { values: flags } = parseArgs({ options: { 'with-agent': { type: 'boolean' } }, strict: false });
const config = readServerConfig(process.env);
const startedAt = Date.now();
const database = await openDatabase({
  url: config.database.url,
  dataDir: config.database.dataDir,
  embeddedPort: config.database.embeddedPort,
});
const useCases = createUseCases({
  repos: database.repos,
  clock: { now: () => new Date() },
  newId: () => newId(),
  agentTimings: config.agentTimings,
  artifacts: await artifactSettings(config.artifacts, () => config.publicUrls.api),
});
const app = await buildApp({
  config,
  useCases,
  pingDatabase: database.ping,
  requestContext: database.requestContext,
});

let demoToken: string | null = null;
if (config.seedDemo && (await useCases.admin.isEmpty())) {
  demoToken = (await useCases.admin.seedDemo()).secret;
}

await app.listen({ port: config.port, host: config.host });
// Notifications (ADR 0019): every process takes its share of the queue.
const background = config.backgroundWork.enabled
  ? await startBackgroundWork({
      databaseUrl: database.url,
      sql: database.sql,
      useCases,
      config,
      log: app.log,
    })
  : null;
app.log.info(
  { migrations: database.migrated, readyInMs: Date.now() - startedAt, embedded: !config.database.url },
  'ready',
);
if (demoToken) {
  // Printed once, on the run that seeds the demo: the token is not stored anywhere in clear.
  process.stdout.write(
    `\nDemo data seeded (organization "acme"). Admin token, shown only now:\n  ${demoToken}\nTry:\n  curl -H "Authorization: Bearer ${demoToken}" ${config.publicUrls.api}/v2/organizations/acme/pipelines/website/builds\n\n`,
  );
}

// Jobs of agents that went silent are marked lost: every process sweeps now and then; the work is
// idempotent (each job changes under its build's lock), so several processes may sweep at once.
const sweeper = setInterval(
  () => {
    useCases.agents.sweepLostJobs().catch((error) => app.log.error({ err: error }, 'lost-job sweep failed'));
  },
  Math.max(500, (config.agentTimings.lostAfter * 1000) / 2),
);
sweeper.unref();

// Trigger steps are the server's to run: every process passes over the trigger jobs with something to do
// (a build to make or to wait for) now and then; each job changes under its build's lock (trigger-jobs.ts).
const triggerPass = setInterval(() => {
  useCases.runTriggerJobs().catch((error) => app.log.error({ err: error }, 'trigger pass failed'));
}, config.triggerPassMs);
triggerPass.unref();

/** Where the in-process agent reaches this server: the loopback address when it listens on all of them. */
function loopbackHost(): string {
  if (config.host === '0.0.0.0' || config.host === '::') return '127.0.0.1';
  return config.host.includes(':') ? `[${config.host}]` : config.host;
}

function listeningPort(): number {
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : config.port;
}

// `--with-agent`: one agent in this process for the demo, so a first build actually runs.
const agentStop = new AbortController();
let agentDone: Promise<void> = Promise.resolve();
if (flags['with-agent']) {
  const organization = process.env.AGENT_ORGANIZATION ?? 'acme';
  try {
    const { secret } = await useCases.admin.createAgentToken({
      organization,
      description: 'in-process demo agent (--with-agent)',
    });
    agentDone = runAgent(
      {
        token: secret,
        endpoint: `http://${loopbackHost()}:${listeningPort()}/v3`,
        tags: ['queue=default'],
        name: 'demo-agent',
        log: (message) => app.log.info({ agent: 'demo-agent' }, message),
      },
      agentStop.signal,
    ).catch((error) => app.log.error({ err: error }, 'demo agent stopped'));
  } catch (error) {
    app.log.warn({ err: error, organization }, '--with-agent: no agent started (set AGENT_ORGANIZATION)');
  }
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'shutting down');
  try {
    agentStop.abort(); // the demo agent stops its job and disconnects while the server still answers
    await agentDone;
    clearInterval(sweeper);
    clearInterval(triggerPass);
    await app.close(); // stops accepting, lets in-flight requests finish
    await background?.stop(); // lets running jobs finish (deliveries are bounded by their timeout)
    await database.close(); // closes MikroORM and its pool, stops the embedded PostgreSQL if we started it
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
