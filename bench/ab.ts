import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

import { createUseCases } from '@ci/application';
import { openDatabase } from '@ci/db';
import { newId } from '@ci/domain';
import { buildApp } from '../apps/server/src/app';
import { readServerConfig } from '../apps/server/src/config';
import { appRouter } from '../packages/trpc/src/router';
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
  NODE_ENV: 'production',
});
const useCases = createUseCases({
  repos: database.repos,
  clock: { now: () => new Date() },
  newId: () => newId(),
  agentTimings: config.agentTimings,
});
const app = await buildApp({ config, useCases, pingDatabase: database.ping });
app.get('/fast/organizations/:organization/pipelines/:pipeline/builds', async (request, reply) => {
  const q = request.originalUrl.indexOf('?');
  const ctx = {
    useCases,
    urls: config.publicUrls,
    authorization: request.headers.authorization,
    rest: {
      query: new URLSearchParams(q === -1 ? '' : request.originalUrl.slice(q + 1)),
      url: new URL(`${config.publicUrls.api}${request.originalUrl}`),
      body: undefined,
      accept: undefined,
    },
    response: { headers: {} as Record<string, string> },
    rateLimits: null,
  };
  const params = request.params as { organization: string; pipeline: string };
  const data = await appRouter.createCaller(ctx as never).builds.listForPipeline(params as never);
  for (const [k, v] of Object.entries(ctx.response.headers)) reply.header(k, v);
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(data));
});
app.get('/fast/organizations/:organization/pipelines/:pipeline/builds/:number', async (request, reply) => {
  const q = request.originalUrl.indexOf('?');
  const ctx = {
    useCases,
    urls: config.publicUrls,
    authorization: request.headers.authorization,
    rest: {
      query: new URLSearchParams(q === -1 ? '' : request.originalUrl.slice(q + 1)),
      url: new URL(`${config.publicUrls.api}${request.originalUrl}`),
      body: undefined,
      accept: undefined,
    },
    response: { headers: {} as Record<string, string> },
    rateLimits: null,
  };
  const data = await appRouter.createCaller(ctx as never).builds.get(request.params as never);
  for (const [k, v] of Object.entries(ctx.response.headers)) reply.header(k, v);
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(data));
});
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
const query = '?per_page=30&branch=main&state=passed';
const suffix = process.env.GET ? '/500' : query;
for (const [label, path] of [
  ['v2', '/v2'],
  ['fast', '/fast'],
  ['v2', '/v2'],
  ['fast', '/fast'],
] as const) {
  const c0 = process.cpuUsage();
  const { stdout: out } = await run('wrk', [
    '-t1',
    '-c8',
    '-d6s',
    '-H',
    `Authorization: Bearer ${BENCH_TOKEN}`,
    `http://127.0.0.1:${port}${path}/organizations/acme/pipelines/pipeline-1/builds${suffix}`,
  ]);
  const cpu = process.cpuUsage(c0);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const total = Number(/(\d+) requests in/.exec(out)?.[1]);
  console.log(
    `${label.padEnd(6)} ${rps.toFixed(1)} req/s  cpu/req ${((cpu.user + cpu.system) / 1000 / total).toFixed(3)} ms`,
  );
}
await app.close();
await database.close();
await pg.stop();
