import { startBackgroundWork } from '../../apps/server/src/background/background-work';
import { readServerConfig } from '../../apps/server/src/config';
import { API_URL, WEB_URL, type World } from './world';

/**
 * The background work (webhook deliveries, fan-outs) of the test world's server process, polling often and
 * delivering to loopback (the setting's test use); `env` adds or overrides settings.
 */
export function startTestBackgroundWork(
  world: World,
  options: { env?: Record<string, string>; logError?: (details: unknown) => void } = {},
) {
  return startBackgroundWork({
    databaseUrl: world.server.url,
    sql: world.server.database.sql,
    useCases: world.server.useCases,
    config: readServerConfig({
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      WORKER_POLL_MS: '100',
      PUBLIC_API_URL: API_URL,
      PUBLIC_WEB_URL: WEB_URL,
      ...options.env,
    }),
    log: { error: options.logError ?? (() => {}) },
  });
}
