import { parseArgs } from 'node:util';
import { createUseCases, newId, storeOutage } from '@ci/application';
import { type Database, EmbeddedPostgresError, openDatabase } from '@ci/db';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { runAgent } from '../../agent/src/agent';
import { buildApp } from './app';
import { artifactSettings } from './artifact-settings';
import { startBackgroundWork } from './background/background-work';
import { readServerConfig, type ServerConfig } from './config';

/**
 * What a person reads when the server does not start: what failed and what to do, in a line or two,
 * without a stack (LOG_LEVEL=debug adds it).
 */
function startFailure(error: unknown, config: ServerConfig | null): string {
  const { code, message } = error as { code?: string; message?: string };
  if (error instanceof EmbeddedPostgresError) return error.message;
  if (config && (code === 'EADDRINUSE' || code === 'EACCES')) {
    const why = code === 'EADDRINUSE' ? 'is already in use' : 'may not be opened by this user';
    return (
      `The server could not listen on ${config.host}:${config.port}: the port ${why}.\n` +
      `Stop what uses it, or pick another port: PORT=${config.port + 1} pnpm start`
    );
  }
  if (config?.database.url && typeof code === 'string' && /^(E[A-Z]+|28\w{3}|3D000)$/.test(code)) {
    const url = new URL(config.database.url);
    return (
      `Could not use the database at ${url.host}${url.pathname} (DATABASE_URL): ${message}\n` +
      'Check that PostgreSQL runs there and that DATABASE_URL names it, its user and its password.'
    );
  }
  if (message?.startsWith('Invalid configuration')) return `${message}\nFix the variables named above.`;
  return `The server did not start: ${message ?? String(error)}`;
}

const { values: flags } = parseArgs({ options: { 'with-agent': { type: 'boolean' } }, strict: false });

/**
 * Opens the database, builds the HTTP server and listens; on any failure prints `startFailure` and
 * exits 1, having closed what it opened (the HTTP server, the pool, the embedded PostgreSQL).
 */
async function start() {
  const startedAt = Date.now();
  let config: ServerConfig | null = null;
  let database: Database | null = null;
  let app: FastifyInstance | null = null;
  try {
    config = readServerConfig(process.env);
    const settings = config;
    database = await openDatabase({
      url: settings.database.url,
      dataDir: settings.database.dataDir,
      embeddedPort: settings.database.embeddedPort,
      whenEmbeddedRunning: 'refuse',
    });
    const useCases = createUseCases({
      repos: database.repos,
      clock: { now: () => new Date() },
      newId: () => newId(),
      agentTimings: settings.agentTimings,
      artifacts: await artifactSettings(settings.artifacts, () => settings.publicUrls.api),
    });
    // An outage's recovery is known when the database answers a ping again (logged once, as its start).
    storeOutage.probeWith(database.ping);
    app = await buildApp({
      config: settings,
      useCases,
      pingDatabase: database.ping,
      requestContext: database.requestContext,
    });
    await app.listen({ port: settings.port, host: settings.host });
    // Seeded only once the server listens: a start that fails leaves the database as it was.
    const demoToken =
      settings.seedDemo && (await useCases.admin.isEmpty()) ? (await useCases.admin.seedDemo()).secret : null;
    app.log.info(
      { migrations: database.migrated, readyInMs: Date.now() - startedAt, embedded: !settings.database.url },
      'ready',
    );
    return { config: settings, database, app, useCases, demoToken };
  } catch (error) {
    process.stderr.write(`${startFailure(error, config)}\n`);
    if (config?.logLevel === 'debug' || config?.logLevel === 'trace') {
      process.stderr.write(`${(error as Error).stack ?? ''}\n`);
    }
    await app?.close().catch(() => {});
    await database?.close().catch(() => {});
    process.exit(1);
  }
}

const { config, database, app, useCases, demoToken } = await start();
// Agents that went silent, and their jobs, are marked lost: every process sweeps now and then; the work
// is idempotent (each job changes under its build's lock, each agent in one statement), so several
// processes may sweep at once.
const sweeper = setInterval(
  () => {
    useCases.agents
      .markSilentAgentsLost()
      .catch((error) => app.log.error({ err: error }, 'lost-agent sweep failed'));
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

// Notifications (ADR 0019): every process takes its share of the queue; a shutdown waits for its start.
const backgroundStarting = config.backgroundWork.enabled
  ? startBackgroundWork({
      databaseUrl: database.url,
      sql: database.sql,
      useCases,
      config,
      log: app.log,
    })
  : Promise.resolve(null);
const agentStop = new AbortController();
let agentDone: Promise<void> = Promise.resolve();
// SIGTERM, SIGINT, an uncaught error or a natural end (close-with-grace): the demo agent stops, then the
// HTTP server lets its requests finish (later ones get 503 {message}), then background work, and the
// database, with the embedded PostgreSQL this process started, closes last. Past the grace delay, or on a
// second signal or error, the process exits at once, asking PostgreSQL to stop as it goes. Installed as
// soon as the server listens: a signal that comes right after its first answer is a graceful one too.
const stopNow = (why: string, details: Record<string, unknown>) => {
  app.log.error(details, `${why}: stopping now`);
  database.stopAtOnce();
};
closeWithGrace(
  {
    delay: config.shutdownGraceMs,
    logger: { error: (err: unknown) => app.log.error({ err }, 'shutdown failed') },
    onTimeout: (delay) => stopNow('shutdown took longer than its grace', { graceMs: delay }),
    onSecondSignal: (signal) => stopNow('a second signal during shutdown', { signal }),
    onSecondError: (err) => stopNow('a second uncaught error during shutdown', { err }),
  },
  async ({ signal, err }) => {
    if (err) app.log.fatal({ err }, 'uncaught error: shutting down');
    else app.log.info({ signal: signal ?? null }, 'shutting down');
    try {
      agentStop.abort(); // the demo agent stops its job and disconnects while the server still answers
      await agentDone;
      clearInterval(sweeper);
      clearInterval(triggerPass);
      await app.close(); // stops accepting, lets in-flight requests finish
      const background = await backgroundStarting.catch(() => null);
      await background?.stop(); // lets running jobs finish (deliveries are bounded by their timeout)
    } finally {
      await database.close(); // closes MikroORM and its pool, stops the embedded PostgreSQL if we started it
    }
  },
);

await backgroundStarting;

if (demoToken) {
  // Printed once, on the run that seeds the demo: the token is not stored anywhere in clear.
  process.stdout.write(
    `\nDemo data seeded (organization "acme"). Admin token, shown only now:\n  ${demoToken}\nTry:\n  curl -H "Authorization: Bearer ${demoToken}" ${config.publicUrls.api}/v2/organizations/acme/pipelines/website/builds\nA new one later: pnpm cli token create --email admin@acme.test --scopes all\n\n`,
  );
}

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
