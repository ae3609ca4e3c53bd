import { type AppDeps, buildApp } from '../../apps/server/src/app';
import { readServerConfig } from '../../apps/server/src/config';
import { freshDatabase } from './database';

/**
 * The real HTTP server on a fresh database, listening on a free loopback port. Rate limiting is off
 * unless `env` turns it on (`RATE_LIMIT_ENABLED: 'true'`): suites that make many requests fast would
 * otherwise meet the limits. `now` is the application's clock (the rate-limit window follows it);
 * `onQuery` sees every SQL statement; `slots` counts the API requests at work and waiting.
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
    ...env,
    DATABASE_URL: db.url,
  });
  let slots: Parameters<NonNullable<AppDeps['watchSlots']>>[0] | undefined;
  const app = await buildApp({
    config,
    useCases: db.useCases,
    pingDatabase: db.database.ping,
    requestContext: db.database.requestContext,
    watchSlots: (watched) => {
      slots = watched;
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    ...db,
    app,
    baseUrl,
    slots: () => ({ active: slots?.active ?? 0, waiting: slots?.waiting ?? 0 }),
    fetch: (path: string, init?: RequestInit) => fetch(`${baseUrl}${path}`, init),
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}
