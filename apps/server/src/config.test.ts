import { describe, expect, it } from 'vitest';
import { readServerConfig } from './config';

describe('readServerConfig', () => {
  it('defaults to 127.0.0.1:3000 with public URLs derived from them', () => {
    const config = readServerConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.publicUrls).toEqual({ api: 'http://127.0.0.1:3000', web: 'http://127.0.0.1:3000' });
    expect(config.seedDemo).toBe(true);
    expect(config.database.url).toBeUndefined();
    expect(config.database.dataDir).toMatch(/\.data$/);
  });

  it('takes explicit public URLs without their trailing slash', () => {
    const config = readServerConfig({
      PUBLIC_API_URL: 'https://api.example.com/',
      PUBLIC_WEB_URL: 'https://ci.example.com',
    });
    expect(config.publicUrls).toEqual({ api: 'https://api.example.com', web: 'https://ci.example.com' });
  });

  it('refuses invalid values with a message naming them', () => {
    expect(() => readServerConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => readServerConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => readServerConfig({ SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO/);
  });

  it('tells agents the default intervals, and takes fractional ones for tests', () => {
    expect(readServerConfig({}).triggerPassMs).toBe(1000);
    expect(readServerConfig({ TRIGGER_PASS_SECONDS: '0.2' }).triggerPassMs).toBe(200);
    expect(() => readServerConfig({ TRIGGER_PASS_SECONDS: '0' })).toThrow(/TRIGGER_PASS_SECONDS/);
    expect(readServerConfig({}).shutdownGraceMs).toBe(20_000);
    expect(readServerConfig({ SHUTDOWN_GRACE_SECONDS: '2.5' }).shutdownGraceMs).toBe(2500);
    expect(() => readServerConfig({ SHUTDOWN_GRACE_SECONDS: '0' })).toThrow(/SHUTDOWN_GRACE_SECONDS/);
    expect(readServerConfig({}).agentTimings).toEqual({
      pingInterval: 5,
      jobStatusInterval: 5,
      heartbeatInterval: 30,
      lostAfter: 120,
    });
    expect(
      readServerConfig({ AGENT_PING_INTERVAL_SECONDS: '0.2', AGENT_LOST_AFTER_SECONDS: '3' }).agentTimings,
    ).toMatchObject({ pingInterval: 0.2, lostAfter: 3 });
    expect(() => readServerConfig({ AGENT_PING_INTERVAL_SECONDS: '0' })).toThrow(
      /AGENT_PING_INTERVAL_SECONDS/,
    );
    expect(() => readServerConfig({ AGENT_LOST_AFTER_SECONDS: 'soon' })).toThrow(/AGENT_LOST_AFTER_SECONDS/);
  });

  it('looks for due pipeline schedules every 15 s, or as often as SCHEDULE_TICK_MS says', () => {
    expect(readServerConfig({}).backgroundWork.scheduleTickMs).toBe(15_000);
    expect(readServerConfig({ SCHEDULE_TICK_MS: '100' }).backgroundWork.scheduleTickMs).toBe(100);
    expect(() => readServerConfig({ SCHEDULE_TICK_MS: '10' })).toThrow(/SCHEDULE_TICK_MS/);
  });

  it('gives a request 30 s, its headers 10 s, an idle connection 72 s and a silent one 60 s by default', () => {
    expect(readServerConfig({}).timeouts).toEqual({
      requestMs: 30_000,
      headersMs: 10_000,
      keepAliveMs: 72_000,
      connectionMs: 60_000,
    });
    expect(
      readServerConfig({
        REQUEST_TIMEOUT_SECONDS: '0.5',
        HEADERS_TIMEOUT_SECONDS: '0.25',
        KEEP_ALIVE_TIMEOUT_SECONDS: '5',
        CONNECTION_TIMEOUT_SECONDS: '120',
      }).timeouts,
    ).toEqual({ requestMs: 500, headersMs: 250, keepAliveMs: 5000, connectionMs: 120_000 });
    for (const name of [
      'REQUEST_TIMEOUT_SECONDS',
      'HEADERS_TIMEOUT_SECONDS',
      'KEEP_ALIVE_TIMEOUT_SECONDS',
      'CONNECTION_TIMEOUT_SECONDS',
    ]) {
      for (const value of ['0', '-1', 'soon']) {
        expect(() => readServerConfig({ [name]: value })).toThrow(new RegExp(name));
      }
    }
  });

  it('gives the headers no longer than the whole request, and refuses a longer headers timeout', () => {
    expect(readServerConfig({ REQUEST_TIMEOUT_SECONDS: '4' }).timeouts.headersMs).toBe(4000);
    expect(() => readServerConfig({ REQUEST_TIMEOUT_SECONDS: '5', HEADERS_TIMEOUT_SECONDS: '6' })).toThrow(
      /HEADERS_TIMEOUT_SECONDS: must not exceed REQUEST_TIMEOUT_SECONDS/,
    );
    expect(
      readServerConfig({ REQUEST_TIMEOUT_SECONDS: '5', HEADERS_TIMEOUT_SECONDS: '5' }).timeouts.headersMs,
    ).toBe(5000);
  });

  it('sheds API requests past a second of event-loop delay unless the PRESSURE_ settings say otherwise', () => {
    expect(readServerConfig({}).pressure).toEqual({
      maxEventLoopDelayMs: 1000,
      maxEventLoopUtilization: 0,
      maxHeapUsedBytes: 0,
      maxRssBytes: 0,
      retryAfterSeconds: 10,
    });
    expect(
      readServerConfig({
        PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
        PRESSURE_MAX_LOOP_UTILIZATION: '0.98',
        PRESSURE_MAX_HEAP_USED_MB: '1.5',
        PRESSURE_MAX_RSS_MB: '2048',
        PRESSURE_RETRY_AFTER_SECONDS: '1',
      }).pressure,
    ).toEqual({
      maxEventLoopDelayMs: 0,
      maxEventLoopUtilization: 0.98,
      maxHeapUsedBytes: 1.5 * 1024 * 1024,
      maxRssBytes: 2048 * 1024 * 1024,
      retryAfterSeconds: 1,
    });
    for (const [name, value] of [
      ['PRESSURE_MAX_EVENT_LOOP_DELAY_MS', '-1'],
      ['PRESSURE_MAX_LOOP_UTILIZATION', '1.5'],
      ['PRESSURE_MAX_RSS_MB', 'lots'],
      ['PRESSURE_RETRY_AFTER_SECONDS', '0'],
    ] as const) {
      expect(() => readServerConfig({ [name]: value })).toThrow(new RegExp(name));
    }
  });

  it('switches the demo seed off with SEED_DEMO=false', () => {
    expect(readServerConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('limits requests as the public API does unless told otherwise', () => {
    expect(readServerConfig({}).rateLimits).toEqual({
      organizationPerMinute: 200,
      userPerMinute: 50,
      failedAuthenticationsPerMinute: 30,
    });
    expect(
      readServerConfig({
        RATE_LIMIT_ORGANIZATION_PER_MINUTE: '1000',
        RATE_LIMIT_USER_PER_MINUTE: '300',
        RATE_LIMIT_FAILED_AUTHENTICATIONS_PER_MINUTE: '5',
      }).rateLimits,
    ).toEqual({ organizationPerMinute: 1000, userPerMinute: 300, failedAuthenticationsPerMinute: 5 });
  });

  it.each(['false', '0'])('switches rate limiting off with RATE_LIMIT_ENABLED=%s', (value) => {
    expect(readServerConfig({ RATE_LIMIT_ENABLED: value }).rateLimits).toBeNull();
  });

  it.each([
    ['RATE_LIMIT_ENABLED', 'no'],
    ['RATE_LIMIT_USER_PER_MINUTE', '0'],
    ['RATE_LIMIT_ORGANIZATION_PER_MINUTE', '2.5'],
    ['RATE_LIMIT_ORGANIZATION_PER_MINUTE', 'lots'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => readServerConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('validates responses only when VALIDATE_RESPONSES says so', () => {
    expect(readServerConfig({}).validateResponses).toBe(false);
    expect(readServerConfig({ VALIDATE_RESPONSES: 'true' }).validateResponses).toBe(true);
    expect(readServerConfig({ VALIDATE_RESPONSES: '1' }).validateResponses).toBe(true);
    expect(() => readServerConfig({ VALIDATE_RESPONSES: 'yes' })).toThrow(/VALIDATE_RESPONSES/);
  });

  it('has no CORS origins by default', () => {
    expect(readServerConfig({}).corsOrigins).toEqual([]);
  });

  it('reads CORS_ORIGINS as origins in the form browsers send, `*` included', () => {
    expect(
      readServerConfig({
        CORS_ORIGINS:
          ' https://A.example , https://b.example:8443/,*,http://localhost:5173,https://a.example',
      }).corsOrigins,
    ).toEqual(['https://a.example', 'https://b.example:8443', '*', 'http://localhost:5173']);
  });

  it.each([
    'https://a.example/app',
    'ftp://a.example',
    'a.example',
    'https://a.example?x=1',
    'https://u@a.example',
  ])('refuses the CORS origin %s, naming it', (origin) => {
    expect(() => readServerConfig({ CORS_ORIGINS: origin })).toThrow(/CORS_ORIGINS.*is not an origin/);
  });
});

describe('artifact settings', () => {
  it('keeps artifacts under the data directory unless told otherwise, 1 GiB at most', () => {
    const { artifacts } = readServerConfig({ DATA_DIR: '/srv/ci' });
    expect(artifacts).toMatchObject({
      dir: '/srv/ci/artifacts',
      maxBytes: 1024 ** 3,
      s3: null,
      urlTtlSeconds: 600,
    });
  });

  it('names an S3-compatible bucket, path-style when it has its own URL', () => {
    const { artifacts } = readServerConfig({
      ARTIFACTS_S3_BUCKET: 'ci',
      ARTIFACTS_S3_ENDPOINT: 'http://127.0.0.1:9000',
      ARTIFACT_MAX_BYTES: '1024',
    });
    expect(artifacts.maxBytes).toBe(1024);
    expect(artifacts.s3).toEqual({
      bucket: 'ci',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      prefix: '',
      forcePathStyle: true,
    });
  });

  it('refuses a limit that is not a positive whole number', () => {
    expect(() => readServerConfig({ ARTIFACT_MAX_BYTES: '0' })).toThrow('ARTIFACT_MAX_BYTES');
  });
});
