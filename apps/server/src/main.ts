import { createUseCases } from '@ci/application';
import { openDatabase } from '@ci/db';
import { newId } from '@ci/domain';
import { buildApp } from './app';
import { readServerConfig } from './config';

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
});
const app = await buildApp({ config, useCases, pingDatabase: database.ping });

let demoToken: string | null = null;
if (config.seedDemo && (await useCases.admin.isEmpty())) {
  demoToken = (await useCases.admin.seedDemo()).secret;
}

await app.listen({ port: config.port, host: config.host });
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

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'shutting down');
  try {
    await app.close(); // stops accepting, lets in-flight requests finish
    await database.close(); // closes the pool, stops the embedded PostgreSQL if we started it
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
