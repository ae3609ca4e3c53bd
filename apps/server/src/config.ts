import { DatabaseEnv, readDatabaseConfig } from '@ci/db';
import { z } from 'zod';

const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

const ServerEnv = DatabaseEnv.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_API_URL: z.url().optional(),
  PUBLIC_WEB_URL: z.url().optional(),
  SEED_DEMO: flag.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
});

export type ServerConfig = ReturnType<typeof readServerConfig>;

/** The server's settings from the environment; an invalid value stops start-up with a clear message. */
export function readServerConfig(env: NodeJS.ProcessEnv) {
  const result = ServerEnv.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
      .join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const parsed = result.data;
  const apiUrl = (parsed.PUBLIC_API_URL ?? `http://${parsed.HOST}:${parsed.PORT}`).replace(/\/+$/, '');
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    database: readDatabaseConfig(env),
    publicUrls: { api: apiUrl, web: (parsed.PUBLIC_WEB_URL ?? apiUrl).replace(/\/+$/, '') },
    seedDemo: parsed.SEED_DEMO,
    logLevel: parsed.LOG_LEVEL,
    bodyLimit: parsed.BODY_LIMIT_BYTES,
  };
}
