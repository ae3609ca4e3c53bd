/**
 * `pnpm bench:web`: issue 32's two performance bullets, against the project's server (built as
 * `pnpm start` runs it) on a fresh embedded PostgreSQL in a temporary folder.
 *
 * - A build page with 500 jobs in Debian's Chromium (playwright-core, as the browser tests): the time
 *   from navigation to the 500th job row visible, `BENCH_WEB_LOADS` loads (default 5), cold first.
 * - A 50 MB job log (`BENCH_LOG_MB`) read whole through the web's live log (server-sent events), with
 *   the server's peak RSS growth over its RSS before (its peak reset through /proc/<pid>/clear_refs).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startBenchOrganization } from './lib/bench-organization';
import { serverCalls, startProjectServer } from './lib/processes';

const LOADS = Number(process.env.BENCH_WEB_LOADS ?? 5);
const LOG_MB = Number(process.env.BENCH_LOG_MB ?? 50);
const CHUNK_BYTES = 1024 * 1024;

const { postgresUrl, database, admin, token, remove } = await startBenchOrganization('web');
// 5 steps of 100 parallel copies: 500 jobs, which stay scheduled (no agent takes them).
const wideSteps = Array.from(
  { length: 5 },
  (_, step) =>
    `  - label: "step ${step}"\n    command: "true"\n    parallelism: 100\n    agents: { queue: none }\n`,
).join('');
await admin.createPipeline({
  organization: 'bench',
  name: 'wide',
  repository: 'git@example.com:bench/wide.git',
  steps: `steps:\n${wideSteps}`,
});
await admin.createPipeline({
  organization: 'bench',
  name: 'logs',
  repository: 'git@example.com:bench/logs.git',
  steps: 'steps:\n  - command: "true"\n',
});
const registration = (await admin.createAgentToken({ organization: 'bench' })).secret;
await database.close();

const server = await startProjectServer({
  databaseUrl: postgresUrl,
  env: { AGENT_LOST_AFTER_SECONDS: '600' },
});

const call = serverCalls(server.baseUrl);

const createBuild = (pipeline: string) =>
  call<{ number: number; jobs: unknown[] }>(
    'POST',
    `/v2/organizations/bench/pipelines/${pipeline}/builds`,
    `Bearer ${token}`,
    { commit: 'HEAD', branch: 'main' },
  );

function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function buildPage(): Promise<void> {
  const build = await createBuild('wide');
  if (build.jobs.length !== 500) throw new Error(`expected 500 jobs, got ${build.jobs.length}`);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext({
      baseURL: server.baseUrl,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const signIn = await context.request.post('/sign-in', { data: { token } });
    if (!signIn.ok()) throw new Error(`sign-in: ${signIn.status()}`);
    // In the page, from the navigation's start: once the first job row is there the page scrolls to its
    // end, as a reader would, and the time is taken when the 500th row is on screen (checked every frame).
    // (A string: tsx would wrap a named function in a helper the page does not have.)
    await page.addInitScript(`(() => {
      const check = () => {
        const last = document.querySelector('li.job[aria-posinset="500"]');
        const box = last ? last.getBoundingClientRect() : null;
        if (box && box.height > 0 && box.top < window.innerHeight && box.bottom > 0) {
          window.lastRowAt = performance.now();
          return;
        }
        if (document.querySelector('li.job')) window.scrollTo(0, document.body.scrollHeight);
        requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    })()`);
    const inPage: number[] = [];
    const times: number[] = [];
    const shares: { shell: number; data: number; dataStart: number }[] = [];
    for (let load = 0; load < LOADS; load++) {
      const began = performance.now();
      await page.goto(`/bench/wide/builds/${build.number}`);
      await page.waitForFunction(() => (window as unknown as { lastRowAt?: number }).lastRowAt !== undefined);
      times.push(performance.now() - began);
      inPage.push(await page.evaluate(() => (window as unknown as { lastRowAt: number }).lastRowAt));
      // Where the time went: the page shell, and the build's data call (both from the browser's timing).
      const parts = await page.evaluate(() => {
        const shell = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const data = performance
          .getEntriesByType('resource')
          .find((entry) => entry.name.includes('/trpc/builds.get')) as PerformanceResourceTiming | undefined;
        return {
          shell: shell.responseEnd - shell.startTime,
          data: data ? data.responseEnd - data.startTime : 0,
          dataStart: data?.startTime ?? 0,
        };
      });
      shares.push(parts);
      // A look at what was measured, when asked (BENCH_WEB_SHOT=file.png).
      if (process.env.BENCH_WEB_SHOT && load === 0)
        await page.screenshot({ path: process.env.BENCH_WEB_SHOT });
      await page.goto('about:blank');
    }
    const list = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
    process.stdout.write(
      `build page, 500 jobs, navigation to the 500th row on screen (the page's clock): first ` +
        `${inPage[0]?.toFixed(0)} ms, median of ${LOADS} ${median(inPage).toFixed(0)} ms (${list(inPage)})\n` +
        `  as Playwright sees it (with its round trips): median ${median(times).toFixed(0)} ms (${list(times)})\n` +
        `  of which (medians): shell answered ${median(shares.map((share) => share.shell)).toFixed(0)} ms, ` +
        `data call started at ${median(shares.map((share) => share.dataStart)).toFixed(0)} ms ` +
        `and took ${median(shares.map((share) => share.data)).toFixed(0)} ms\n`,
    );
  } finally {
    await browser.close();
  }
}

/** The server's resident memory now, and its peak since the last reset, in bytes. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

async function bigLog(): Promise<void> {
  const build = await createBuild('logs');
  const registered = await call<{ access_token: string }>('POST', '/v3/register', `Token ${registration}`, {
    name: 'bench-logs',
    meta_data: ['queue=default'],
  });
  const auth = `Token ${registered.access_token}`;
  await call('POST', '/v3/connect', auth, {});
  let jobId: string | undefined;
  for (let attempt = 0; attempt < 50 && !jobId; attempt++) {
    jobId = (await call<{ job?: { id: string } }>('GET', '/v3/ping', auth)).job?.id;
    if (!jobId) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (!jobId) throw new Error('no job offered');
  await call('PUT', `/v3/jobs/${jobId}/accept`, auth);
  await call('PUT', `/v3/jobs/${jobId}/start`, auth, {});
  // Lines of printable text, 1 MB a chunk, as an agent sends them.
  const line = `${randomBytes(60).toString('base64')}\n`;
  const chunk = new TextEncoder().encode(line.repeat(Math.floor(CHUNK_BYTES / line.length)));
  for (let sequence = 0; sequence < LOG_MB; sequence++) {
    await call(
      'POST',
      `/v3/jobs/${jobId}/chunks?sequence=${sequence}&offset=${sequence * chunk.length}`,
      auth,
      chunk,
    );
  }
  await call('PUT', `/v3/jobs/${jobId}/finish`, auth, { exit_status: '0' });
  const expected = LOG_MB * chunk.length;

  const pid = server.pid;
  // Settle, then reset the peak (5 → clear_refs resets VmHWM to the current RSS).
  await new Promise((resolve) => setTimeout(resolve, 1000));
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const before = memoryOf(pid);
  let sampledPeak = before.rss;
  const sampler = setInterval(() => {
    sampledPeak = Math.max(sampledPeak, memoryOf(pid).rss);
  }, 20);
  const began = performance.now();
  const response = await fetch(`${server.baseUrl}/live/jobs/bench/logs/${build.number}/${jobId}/log`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (!response.ok || !response.body) throw new Error(`live log: ${response.status}`);
  // Counts the text of the `chunk` events as it arrives, holding at most one event at a time.
  let received = 0;
  let pending = '';
  let ended = false;
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    pending += decoder.decode(read.value, { stream: true });
    let boundary = pending.indexOf('\n\n');
    while (boundary >= 0) {
      const event = pending.slice(0, boundary);
      pending = pending.slice(boundary + 2);
      if (event.includes('event: end')) ended = true;
      const data = /^data: (.*)$/m.exec(event)?.[1];
      if (event.includes('event: chunk') && data) received += Buffer.byteLength(JSON.parse(data) as string);
      boundary = pending.indexOf('\n\n');
    }
  }
  const seconds = (performance.now() - began) / 1000;
  clearInterval(sampler);
  const after = memoryOf(pid);
  if (!ended || received !== expected) throw new Error(`log: ${received} of ${expected} bytes, end ${ended}`);
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  const growth = Math.max(after.peak, sampledPeak) - before.rss;
  process.stdout.write(
    `live log, ${mb(expected)} MB: read in ${seconds.toFixed(1)} s; server RSS before ${mb(before.rss)} MB, ` +
      `peak ${mb(Math.max(after.peak, sampledPeak))} MB: growth ${mb(growth)} MB\n`,
  );
}

try {
  // The log first: its job must be offered before 500 others wait in the queue ahead of it.
  if (process.env.BENCH_WEB !== 'page') await bigLog();
  if (process.env.BENCH_WEB !== 'log') await buildPage();
} finally {
  await server.stop();
  await remove();
}
