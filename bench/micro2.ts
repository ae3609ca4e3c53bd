import { createUseCases } from '@ci/application';
import { openDatabase } from '@ci/db';
import { newId } from '@ci/domain';
import { BENCH_TOKEN, benchSettings, PROJECT_DATABASE } from './lib/config';
import { startBenchPostgres } from './lib/postgres';

const settings = benchSettings(process.env);
const pg = await startBenchPostgres(settings, PROJECT_DATABASE);
const database = await openDatabase({ url: pg.url } as never);
const useCases = createUseCases({
  repos: database.repos,
  clock: { now: () => new Date() },
  newId: () => newId(),
  agentTimings: { lostAfter: 60 } as never,
});
const actor = await useCases.authenticate(`Bearer ${BENCH_TOKEN}`);
const target = { kind: 'pipeline' as const, organization: 'acme', pipeline: 'pipeline-1' };
const filter = { branches: ['main'], states: ['passed'] } as never;
const page = { page: 1, perPage: 30 } as never;
const N = Number(process.env.N ?? 1500);
for (let i = 0; i < 200; i++)
  await Promise.all([1, 2, 3, 4].map(() => useCases.listBuilds(actor, target, filter, page)));
const c0 = process.cpuUsage();
for (let i = 0; i < N / 4; i++)
  await Promise.all([1, 2, 3, 4].map(() => useCases.listBuilds(actor, target, filter, page)));
const cpu = process.cpuUsage(c0);
console.log(`use case list cpu/req ${((cpu.user + cpu.system) / 1000 / N).toFixed(3)} ms`);
await database.close();
await pg.stop();
