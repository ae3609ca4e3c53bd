import { buildApp } from '../../apps/server/src/app';
import { readServerConfig } from '../../apps/server/src/config';
import { freshDatabase } from './database';

/**
 * The real HTTP server on a fresh database, listening on a free loopback port. Rate limiting is off
 * unless `env` turns it on (`RATE_LIMIT_ENABLED: 'true'`): suites that make many requests fast would
 * otherwise meet the limits. Nor is load shed unless `env` sets a `PRESSURE_` limit: this process's
 * event loop also runs the tests, and a busy machine delays it past any threshold. Every REST and tRPC
 * response is validated against its schema (VALIDATE_RESPONSES): one that does not match answers 500.
 * `now` is the application's clock (the rate-limit window follows it); `onQuery` sees every SQL statement.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: Parameters<typeof freshDatabase>[0] = {},
) {
  const db = await freshDatabase(options);
  const config = readServerConfig({
    LOG_LEVEL: 'silent',
    PORT: '0',
    RATE_LIMIT_ENABLED: 'false',
    PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    VALIDATE_RESPONSES: 'true',
    ...env,
    DATABASE_URL: db.url,
  });
  const app = await buildApp({
    config,
    useCases: db.useCases,
    pingDatabase: db.database.ping,
    requestContext: db.database.requestContext,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;
  db.setApiUrl(baseUrl);
  return {
    ...db,
    app,
    baseUrl,
    fetch: (path: string, init?: RequestInit) => fetch(`${baseUrl}${path}`, init),
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}
