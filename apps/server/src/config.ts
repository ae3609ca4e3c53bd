import { join, resolve } from 'node:path';
import { DatabaseEnv, readDatabaseConfig } from '@ci/db';
import { DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE, DEFAULT_RATE_LIMIT_POLICY } from '@ci/domain';
import { z } from 'zod';

const flag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

// At least a millisecond: Node reads 0 as no limit at all.
const seconds = z.coerce.number().min(0.001).max(86_400);

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
  RATE_LIMIT_ENABLED: flag.default(true),
  RATE_LIMIT_ORGANIZATION_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .default(DEFAULT_RATE_LIMIT_POLICY.organizationPerMinute),
  RATE_LIMIT_USER_PER_MINUTE: z.coerce.number().int().min(1).default(DEFAULT_RATE_LIMIT_POLICY.userPerMinute),
  RATE_LIMIT_FAILED_AUTHENTICATIONS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .default(DEFAULT_FAILED_AUTHENTICATIONS_PER_MINUTE),
  AGENT_PING_INTERVAL_SECONDS: z.coerce.number().positive().max(3600).default(5),
  AGENT_JOB_STATUS_INTERVAL_SECONDS: z.coerce.number().positive().max(3600).default(5),
  AGENT_HEARTBEAT_INTERVAL_SECONDS: z.coerce.number().positive().max(3600).default(30),
  AGENT_LOST_AFTER_SECONDS: z.coerce.number().positive().max(86400).default(120),
  TRIGGER_PASS_SECONDS: z.coerce.number().min(0.05).max(3600).default(1),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0.1).max(3600).default(20),
  RESPONSE_CACHE: z.enum(['on', 'off']).default('on'),
  RESPONSE_CACHE_MB: z.coerce.number().min(0).max(65_536).default(32),
  REQUEST_TIMEOUT_SECONDS: seconds.default(30),
  HEADERS_TIMEOUT_SECONDS: seconds.optional(),
  KEEP_ALIVE_TIMEOUT_SECONDS: seconds.default(72),
  CONNECTION_TIMEOUT_SECONDS: seconds.default(60),
  REQUEST_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(10),
  REQUEST_QUEUE_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(1000),
  PRESSURE_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().min(0).default(1000),
  PRESSURE_MAX_LOOP_UTILIZATION: z.coerce.number().min(0).max(1).default(0),
  PRESSURE_MAX_HEAP_USED_MB: z.coerce.number().min(0).default(0),
  PRESSURE_MAX_RSS_MB: z.coerce.number().min(0).default(0),
  PRESSURE_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  VALIDATE_RESPONSES: flag.default(false),
  ARTIFACTS_DIR: z.string().min(1).optional(),
  ARTIFACT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(1024 * 1024 * 1024),
  ARTIFACT_URL_TTL_SECONDS: z.coerce.number().int().min(1).max(604_800).default(600),
  ARTIFACT_URL_SECRET: z.string().min(16).optional(),
  ARTIFACTS_S3_BUCKET: z.string().min(1).optional(),
  ARTIFACTS_S3_ENDPOINT: z.url().optional(),
  ARTIFACTS_S3_REGION: z.string().min(1).default('us-east-1'),
  ARTIFACTS_S3_PREFIX: z.string().default(''),
  ARTIFACTS_S3_FORCE_PATH_STYLE: flag.optional(),
  BACKGROUND_WORK: flag.default(true),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  WORKER_POLL_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
  WORKER_HEARTBEAT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  WORKER_STALE_AFTER_MS: z.coerce.number().int().min(300).max(86_400_000).default(60_000),
  SCHEDULE_TICK_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: flag.default(false),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(10).max(300_000).default(10_000),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(25).default(5),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(10_000),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value, context) => corsOrigins(value, context)),
}).refine((env) => (env.HEADERS_TIMEOUT_SECONDS ?? 0) <= env.REQUEST_TIMEOUT_SECONDS, {
  path: ['HEADERS_TIMEOUT_SECONDS'],
  message: 'must not exceed REQUEST_TIMEOUT_SECONDS (Node refuses it)',
});

/**
 * `CORS_ORIGINS`: comma-separated origins (`https://app.example.com`, a port if any, no path) or `*` for
 * any; each kept in the form browsers send (`URL.origin`). Empty: no CORS at all.
 */
function corsOrigins(value: string, context: z.RefinementCtx): string[] {
  const origins: string[] = [];
  for (const entry of value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    if (entry === '*') {
      origins.push('*');
      continue;
    }
    const url = URL.canParse(entry) ? new URL(entry) : null;
    // An origin is a scheme, a host and a port: nothing after them but the optional `/`.
    if (!url || !/^https?:$/.test(url.protocol) || url.href !== `${url.origin}/`) {
      context.addIssue({
        code: 'custom',
        message: `"${entry}" is not an origin like https://app.example.com`,
      });
      continue;
    }
    origins.push(url.origin);
  }
  return [...new Set(origins)];
}

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
    /** null: rate limiting is off */
    rateLimits: parsed.RATE_LIMIT_ENABLED
      ? {
          organizationPerMinute: parsed.RATE_LIMIT_ORGANIZATION_PER_MINUTE,
          userPerMinute: parsed.RATE_LIMIT_USER_PER_MINUTE,
          failedAuthenticationsPerMinute: parsed.RATE_LIMIT_FAILED_AUTHENTICATIONS_PER_MINUTE,
        }
      : null,
    /** the response cache's byte budget (ADR 0016); 0: no cache */
    responseCacheBytes:
      parsed.RESPONSE_CACHE === 'off' ? 0 : Math.floor(parsed.RESPONSE_CACHE_MB * 1024 * 1024),
    /** Node's limits on a connection, in ms: whole request, its headers, idle between requests, silent */
    timeouts: {
      requestMs: Math.round(parsed.REQUEST_TIMEOUT_SECONDS * 1000),
      headersMs: Math.round(
        (parsed.HEADERS_TIMEOUT_SECONDS ?? Math.min(10, parsed.REQUEST_TIMEOUT_SECONDS)) * 1000,
      ),
      keepAliveMs: Math.round(parsed.KEEP_ALIVE_TIMEOUT_SECONDS * 1000),
      connectionMs: Math.round(parsed.CONNECTION_TIMEOUT_SECONDS * 1000),
    },
    /**
     * API calls (REST, tRPC, GraphQL) worked on at once, about the database pool's size; more wait their
     * turn before they read anything (ADR 0028)
     */
    requestConcurrency: parsed.REQUEST_CONCURRENCY,
    /** API requests that may wait for a place; past it, more are answered 503 at once (ADR 0028) */
    requestQueueLimit: parsed.REQUEST_QUEUE_LIMIT,
    /** past any of these (0: not checked), API requests are answered 503 at once (@fastify/under-pressure) */
    pressure: {
      maxEventLoopDelayMs: parsed.PRESSURE_MAX_EVENT_LOOP_DELAY_MS,
      maxEventLoopUtilization: parsed.PRESSURE_MAX_LOOP_UTILIZATION,
      maxHeapUsedBytes: Math.floor(parsed.PRESSURE_MAX_HEAP_USED_MB * 1024 * 1024),
      maxRssBytes: Math.floor(parsed.PRESSURE_MAX_RSS_MB * 1024 * 1024),
      retryAfterSeconds: parsed.PRESSURE_RETRY_AFTER_SECONDS,
    },
    /** origins allowed to call the API from a browser (`*`: any); empty: no CORS headers */
    corsOrigins: parsed.CORS_ORIGINS,
    /**
     * every REST and tRPC response parsed by its procedure's response schema, a mismatch answered 500 and
     * logged with the schema's issues: for development and the tests (it parses every page again)
     */
    validateResponses: parsed.VALIDATE_RESPONSES,
    /**
     * where artifacts' bytes go: files under `dir` (DATA_DIR/artifacts), or an S3-compatible bucket when one
     * is named (credentials from the AWS SDK's usual environment: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)
     */
    artifacts: {
      dir: parsed.ARTIFACTS_DIR
        ? resolve(parsed.ARTIFACTS_DIR)
        : join(readDatabaseConfig(env).dataDir, 'artifacts'),
      maxBytes: parsed.ARTIFACT_MAX_BYTES,
      urlTtlSeconds: parsed.ARTIFACT_URL_TTL_SECONDS,
      urlSecret: parsed.ARTIFACT_URL_SECRET ?? null,
      s3: parsed.ARTIFACTS_S3_BUCKET
        ? {
            bucket: parsed.ARTIFACTS_S3_BUCKET,
            endpoint: parsed.ARTIFACTS_S3_ENDPOINT ?? null,
            region: parsed.ARTIFACTS_S3_REGION,
            prefix: parsed.ARTIFACTS_S3_PREFIX,
            forcePathStyle: parsed.ARTIFACTS_S3_FORCE_PATH_STYLE ?? Boolean(parsed.ARTIFACTS_S3_ENDPOINT),
          }
        : null,
    },
    /**
     * how long a shutdown may take (in-flight requests, background work, the database's close) before the
     * process stops at once, asking the embedded PostgreSQL to stop as it goes
     */
    shutdownGraceMs: Math.round(parsed.SHUTDOWN_GRACE_SECONDS * 1000),
    /** how often each process passes over the trigger jobs with something to do (trigger-jobs.ts) */
    triggerPassMs: parsed.TRIGGER_PASS_SECONDS * 1000,
    /**
     * graphile-worker in this process (ADR 0019): notification fan-out and deliveries, and the pipeline
     * schedules' tick every `scheduleTickMs` (ADR 0024). Every process runs it; a process silent for
     * `staleAfterMs` has its locked jobs freed for the others.
     */
    backgroundWork: {
      enabled: parsed.BACKGROUND_WORK,
      concurrency: parsed.WORKER_CONCURRENCY,
      pollMs: parsed.WORKER_POLL_MS,
      heartbeatMs: parsed.WORKER_HEARTBEAT_MS,
      staleAfterMs: parsed.WORKER_STALE_AFTER_MS,
      scheduleTickMs: parsed.SCHEDULE_TICK_MS,
    },
    /**
     * outbound webhooks: `allowPrivateAddresses` lets them reach loopback, private and link-local addresses
     * (local development and tests; off by default against SSRF), each attempt cut after `timeoutMs`
     */
    webhooks: {
      allowPrivateAddresses: parsed.WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
      timeoutMs: parsed.WEBHOOK_TIMEOUT_MS,
      maxAttempts: parsed.WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: parsed.WEBHOOK_RETRY_BASE_MS,
    },
    /** what agents are told at registration, and the silence after which their job is lost */
    agentTimings: {
      pingInterval: parsed.AGENT_PING_INTERVAL_SECONDS,
      jobStatusInterval: parsed.AGENT_JOB_STATUS_INTERVAL_SECONDS,
      heartbeatInterval: parsed.AGENT_HEARTBEAT_INTERVAL_SECONDS,
      lostAfter: parsed.AGENT_LOST_AFTER_SECONDS,
    },
  };
}
