import { createUseCases } from '@ci/application';
import { openDatabase } from '@ci/db';
import { newId } from '@ci/domain';
import { buildApp } from '../apps/server/src/app';
import { readServerConfig } from '../apps/server/src/config';
import { presentBuilds } from '../packages/trpc/src/builds/build.presenter';
import { BENCH_TOKEN, benchSettings, PROJECT_DATABASE } from './lib/config';
import { startBenchPostgres } from './lib/postgres';

const settings = benchSettings(process.env);
const pg = await startBenchPostgres(settings, PROJECT_DATABASE);
const database = await openDatabase({ url: pg.url } as never);
const config = readServerConfig({
  LOG_LEVEL: 'silent',
  PORT: '0',
  RATE_LIMIT_ENABLED: 'false',
  DATABASE_URL: pg.url,
});
const useCases = createUseCases({
  repos: database.repos,
  clock: { now: () => new Date() },
  newId: () => newId(),
  agentTimings: config.agentTimings,
});
const app = await buildApp({ config, useCases, pingDatabase: database.ping });
const N = Number(process.env.N ?? 300);
const url = '/v2/organizations/acme/pipelines/pipeline-1/builds?per_page=30&branch=main&state=passed';
const headers = { authorization: `Bearer ${BENCH_TOKEN}` };
const actor = await useCases.authenticate(headers.authorization);
const target = { kind: 'pipeline' as const, organization: 'acme', pipeline: 'pipeline-1' };
const filter = { branches: ['main'], states: ['passed'] } as never;
const page = { page: 1, perPage: 30 } as never;
async function time(label: string, f: () => Promise<unknown> | unknown) {
  for (let i = 0; i < 50; i++) await f();
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await f();
  const wall = Number(process.hrtime.bigint() - t0) / 1e6 / N;
  const cpu = process.cpuUsage(c0);
  console.log(
    `${label.padEnd(28)} wall ${wall.toFixed(3)} ms  cpu ${((cpu.user + cpu.system) / 1000 / N).toFixed(3)} ms`,
  );
}
const result = await useCases.listBuilds(actor, target, filter, page);
const presented = presentBuilds(result.builds, { urls: config.publicUrls, form: 'pipeline-list' });
const text = JSON.stringify(presented);
console.log('builds', result.builds.length, 'bytes', text.length);
await time('inject list (whole)', () => app.inject({ method: 'GET', url, headers }));
await time('authenticate', () => useCases.authenticate(headers.authorization));
await time('use case list', () => useCases.listBuilds(actor, target, filter, page));
await time('present', () => presentBuilds(result.builds, { urls: config.publicUrls, form: 'pipeline-list' }));
await time('stringify', () => JSON.stringify(presented));
await time('Buffer.from', () => Buffer.from(text));
const { appRouter } = await import('../packages/trpc/src/router');
const ctxFor = () => ({
  useCases,
  urls: config.publicUrls,
  authorization: headers.authorization,
  rest: {
    query: new URLSearchParams('per_page=30&branch=main&state=passed'),
    url: new URL(`${config.publicUrls.api}${url}`),
    body: undefined,
    accept: undefined,
  },
  response: { headers: {} },
  rateLimits: null,
});
await time('trpc caller list', () =>
  appRouter
    .createCaller(ctxFor() as never)
    .builds.listForPipeline({ organization: 'acme', pipeline: 'pipeline-1' } as never),
);
await time('caller+stringify', async () =>
  JSON.stringify(
    await appRouter
      .createCaller(ctxFor() as never)
      .builds.listForPipeline({ organization: 'acme', pipeline: 'pipeline-1' } as never),
  ),
);
await time('inject healthz', () => app.inject({ method: 'GET', url: '/healthz' }));
await time('inject get', () =>
  app.inject({ method: 'GET', url: '/v2/organizations/acme/pipelines/pipeline-1/builds/500', headers }),
);
await app.close();
await database.close();
await pg.stop();
