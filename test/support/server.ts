import { buildApp } from '../../apps/server/src/app';
import { readServerConfig } from '../../apps/server/src/config';
import { freshDatabase } from './database';

/**
 * The real HTTP server on a fresh database, listening on a free loopback port. `onQuery` sees every SQL
 * statement the repositories send (tests count them).
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { onQuery?: (sql: string) => void } = {},
) {
  const db = await freshDatabase(options.onQuery ? { onQuery: options.onQuery } : {});
  const config = readServerConfig({ LOG_LEVEL: 'silent', PORT: '0', ...env, DATABASE_URL: db.url });
  const app = await buildApp({ config, useCases: db.useCases, pingDatabase: db.database.ping });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;
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
