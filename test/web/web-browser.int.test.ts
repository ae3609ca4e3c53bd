import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsWorld } from '../support/agents-world';

/**
 * The web app in a real browser (Debian's Chromium, which `.ci/run` installs through
 * scripts/ensure-chromium.sh) against a real server process and a real agent. Screenshots of the main
 * pages go to test-artifacts/web/ (not committed).
 */

type World = Awaited<ReturnType<typeof startAgentsWorld>>;

const SCREENSHOTS = 'test-artifacts/web';

function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('No Chromium: run scripts/ensure-chromium.sh (or set CHROMIUM_PATH)');
  }
}

let world: World;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let pipelines: { logs: string; failing: string; blocked: string; slow: string; secret: string };
let bystanderToken: string;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  world = await startAgentsWorld();
  world.startAgent({ name: 'browser-agent' });
  const admin = world.db.useCases.admin;
  pipelines = {
    // A log in sections, coloured, written over a few seconds so the page sees it arrive.
    logs: await world.createPipeline(`steps:
  - label: ":scroll: Logs"
    command: >-
      echo "--- Preparing"; echo "setting up";
      echo "+++ Running"; printf '\\033[32mgreen line\\033[0m\\n';
      echo "progress 1"; sleep 1; echo "progress 2"; sleep 1; echo "progress 3"; sleep 1; echo "all done"
`),
    failing: await world.createPipeline(`steps:
  - label: Broken
    command: echo "about to fail"; exit 3
`),
    blocked: await world.createPipeline(`steps:
  - block: Release
    fields:
      - text: Version
        key: release-version
        hint: The version to ship
      - select: Stream
        key: release-stream
        default: beta
        options: [{ label: Beta, value: beta }, { label: Stable, value: stable }]
  - label: Ship
    command: echo shipped
`),
    slow: await world.createPipeline(`steps:
  - label: Slow
    command: sleep 60
`),
    secret: await world.createPipeline(`steps:
  - command: echo secret
`),
  };
  // `secret` belongs to a team the bystander is not in: for them it does not exist.
  await admin.createTeam({ organization: 'acme', name: 'Core' });
  await admin.addTeamPipeline({
    organization: 'acme',
    team: 'core',
    pipeline: pipelines.secret,
    accessLevel: 'build_and_read',
  });
  const bystander = await admin.createUser({ name: 'Bea Bystander', email: 'bystander@acme.test' });
  await admin.addMember({ organization: 'acme', email: bystander.email, role: 'member' });
  bystanderToken = (await admin.createAccessToken({ email: bystander.email, scopes: 'all' })).secret;

  browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
  context = await browser.newContext({
    baseURL: world.server.baseUrl,
    viewport: { width: 1280, height: 900 },
  });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await world?.close();
});

const shot = (name: string, target: Page = page) =>
  target.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });

async function signIn(target: Page, token: string) {
  await target.goto('/sign-in');
  await target.getByLabel('API access token').fill(token);
  await target.getByRole('button', { name: 'Sign in' }).click();
}

describe('the web app in a browser', () => {
  it('signs in with an API token and lands on the organization’s pipelines', async () => {
    await page.goto('/acme');
    // Signed out, the page asks to sign in and comes back here afterwards.
    await page.waitForURL(/\/sign-in\?next=%2Facme/);
    await shot('sign-in');
    await page.getByLabel('API access token').fill(world.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/acme$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Acme');
    await page.getByRole('link', { name: pipelines.logs, exact: true }).waitFor();
    const cookies = await context.cookies();
    const session = cookies.find((cookie) => cookie.name === 'ci_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    expect(await page.evaluate(() => document.cookie)).not.toContain('ci_session');
    await page.getByText('No builds yet').first().waitFor();
    await shot('organization');
  });

  it('opens a pipeline, starts a build, and streams its job’s log while the agent runs it', async () => {
    await page.getByRole('link', { name: pipelines.logs, exact: true }).click();
    await page.waitForURL(new RegExp(`/acme/${pipelines.logs}$`));
    await page.getByRole('button', { name: 'New build' }).click();
    await page.getByLabel('Message').fill('From the browser');
    await page.getByRole('button', { name: 'Create build' }).click();
    await page.waitForURL(new RegExp(`/acme/${pipelines.logs}/builds/1$`));
    await page.getByText('From the browser').waitFor();

    await page.getByRole('button', { name: /Show log/ }).click();
    // Lines arrive while the job still runs: the stream shows them before its end. (The agent echoes
    // the command first, so an output line is matched as a whole line.)
    const logText = () => page.locator('.log-lines').textContent();
    await expect.poll(logText, { timeout: 30_000 }).toMatch(/^progress 1$/m);
    expect(await logText()).not.toMatch(/^all done$/m);
    expect(await page.getByRole('status').filter({ hasText: 'Streaming the log' }).count()).toBe(1);
    await expect.poll(logText, { timeout: 30_000 }).toMatch(/^all done$/m);
    await page.getByText('End of log').waitFor({ timeout: 30_000 });
    // Colours are rendered, and `---` folds while `+++` stays open.
    const green = page.locator('.log-lines span span', { hasText: 'green line' });
    expect(await green.getAttribute('style')).toMatch(/color/);
    const section = (title: string) =>
      page.locator('details', { has: page.locator('summary', { hasText: new RegExp(`^${title}$`) }) });
    expect(await section('Preparing').getAttribute('open')).toBeNull();
    expect(await section('Running').getAttribute('open')).not.toBeNull();
    // The build's state changes on the page without a reload.
    await page.locator('h1 .badge', { hasText: 'passed' }).waitFor({ timeout: 30_000 });
    await shot('build');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot('build-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows each pipeline’s latest build on the organization’s page, read in one call', async () => {
    const calls: string[] = [];
    const record = (request: { url(): string }) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/trpc/')) calls.push(path.slice('/trpc/'.length));
    };
    page.on('request', record);
    try {
      await page.goto('/acme');
      const card = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: pipelines.logs }) });
      await card.getByRole('link', { name: /#1 From the browser/ }).waitFor();
      await page.getByRole('listitem').filter({ hasText: 'No builds yet' }).first().waitFor();
    } finally {
      page.off('request', record);
    }
    expect(calls.filter((call) => call.includes('builds.latestOfPipelines')).length).toBeGreaterThanOrEqual(
      1,
    );
    expect(calls.filter((call) => call.includes('builds.listForPipeline'))).toEqual([]);
  });

  it('lists builds with filters and pages, and the agents, teams and registries pages', async () => {
    await page.goto(`/acme/${pipelines.logs}/builds?state=passed`);
    await page.getByRole('link', { name: /#1 From the browser/ }).waitFor();
    await shot('pipeline');
    await page.goto(`/acme/${pipelines.logs}/builds?state=failed`);
    await page.getByText('No builds match.').waitFor();
    await page.goto('/organizations/acme/agents');
    await page.getByRole('link', { name: 'browser-agent' }).waitFor();
    await shot('agents');
    await page.goto('/organizations/acme/teams');
    await page.getByRole('heading', { name: 'Core' }).waitFor();
    await page.goto('/organizations/acme/packages/registries');
    await page.getByText('No registries.').waitFor();
  });

  it('adds a pipeline schedule, refuses a bad cron expression, and deletes it', async () => {
    await page.goto(`/acme/${pipelines.failing}/builds`);
    const schedules = page.getByRole('region', { name: 'Schedules' });
    await schedules.getByText('No schedules.').waitFor();
    await schedules.getByRole('button', { name: 'New schedule' }).click();
    const form = schedules.getByRole('form', { name: 'New schedule' });
    await form.getByLabel('Label').fill('Nightly');
    await form.getByLabel('Cron expression').fill('every night');
    await form.getByRole('button', { name: 'Add schedule' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toMatch(/cron/i);
    await form.getByLabel('Cron expression').fill('0 3 * * *');
    await form.getByLabel('Branch').fill('release');
    await form.getByRole('button', { name: 'Add schedule' }).click();
    await schedules.getByText('0 3 * * *').waitFor();
    const listed = await world.call('GET', `/v2/organizations/acme/pipelines/${pipelines.failing}/schedules`);
    expect(listed.body).toEqual([
      expect.objectContaining({ label: 'Nightly', cronline: '0 3 * * *', branch: 'release', enabled: true }),
    ]);
    expect(await schedules.locator('time').count()).toBe(1);
    await shot('schedules');
    await schedules.getByRole('button', { name: 'Delete Nightly' }).click();
    await schedules.getByText('No schedules.').waitFor();
    const after = await world.call('GET', `/v2/organizations/acme/pipelines/${pipelines.failing}/schedules`);
    expect(after.body).toEqual([]);
  });

  it('retries a failed job', async () => {
    const { number } = await world.createBuild(pipelines.failing);
    await world.waitForBuild(pipelines.failing, number, 'failed');
    await page.goto(`/acme/${pipelines.failing}/builds/${number}`);
    await page.locator('h1 .badge', { hasText: 'failed' }).waitFor();
    await page.getByRole('button', { name: 'Retry Broken' }).click();
    // The old run shows retried, the new one runs (and fails again: the command is the same).
    await page.getByText('retried').waitFor();
    await expect.poll(() => page.locator('li.job').count()).toBe(2);
    await world.waitForBuild(pipelines.failing, number, 'failed');
    await expect
      .poll(() => page.locator('li.job .badge', { hasText: 'failed' }).count(), { timeout: 20_000 })
      .toBe(2);
  });

  it('unblocks a block step with its fields, which become the build’s meta-data', async () => {
    const { number } = await world.createBuild(pipelines.blocked);
    await page.goto(`/acme/${pipelines.blocked}/builds/${number}`);
    await page.locator('h1 .badge', { hasText: 'blocked' }).waitFor();
    await page.getByRole('button', { name: 'Unblock Release' }).click();
    const form = page.getByRole('form', { name: 'Unblock Release' });
    // The select shows its default; the required text field must be filled before the form goes.
    expect(await form.getByLabel('Stream (required)').inputValue()).toBe('beta');
    await form.getByRole('button', { name: 'Continue' }).click();
    expect(await page.locator('h1 .badge', { hasText: 'blocked' }).count()).toBe(1);
    await form.getByLabel('Version (required)').fill('2.0.1');
    await form.getByLabel('Stream (required)').selectOption('stable');
    await shot('unblock');
    await form.getByRole('button', { name: 'Continue' }).click();
    await page.locator('h1 .badge', { hasText: 'passed' }).waitFor({ timeout: 30_000 });
    const metaData = page.getByRole('region', { name: 'Meta-data' });
    await expect.poll(() => metaData.textContent()).toContain('release-version2.0.1');
    expect(await metaData.textContent()).toContain('release-streamstable');
    const build = await world.getBuild(pipelines.blocked, number);
    expect(build.meta_data).toEqual({ 'release-version': '2.0.1', 'release-stream': 'stable' });
  });

  it('cancels a running build', async () => {
    const { number } = await world.createBuild(pipelines.slow);
    await world.waitForBuild(pipelines.slow, number, 'running');
    await page.goto(`/acme/${pipelines.slow}/builds/${number}`);
    await page.locator('h1 .badge', { hasText: 'running' }).waitFor();
    await page.getByRole('button', { name: 'Cancel build' }).click();
    await page.locator('h1 .badge', { hasText: /^cancel(ing|ed)$/ }).waitFor();
    await page.locator('h1 .badge', { hasText: 'canceled' }).waitFor({ timeout: 30_000 });
  });

  it('shows a member without access a 404 page, not the pipeline', async () => {
    const other = await browser.newContext({ baseURL: world.server.baseUrl });
    const stranger = await other.newPage();
    await signIn(stranger, bystanderToken);
    await stranger.waitForURL(/\/acme$/);
    // The server answers 404 for what the user may not see, and the page holds none of its data.
    expect((await stranger.goto(`/acme/${pipelines.secret}`))?.status()).toBe(404);
    await stranger.getByRole('heading', { name: '404: not found' }).waitFor();
    expect(await stranger.content()).not.toContain('echo secret');
    expect((await stranger.goto(`/acme/${pipelines.secret}/builds/1`))?.status()).toBe(404);
    await stranger.getByRole('heading', { name: '404: not found' }).waitFor();
    await shot('not-found', stranger);
    // Signing out ends the session: the next page asks to sign in again.
    await stranger.goto('/acme');
    await stranger.getByRole('button', { name: 'Sign out' }).click();
    await stranger.waitForURL(/\/sign-in/);
    await stranger.goto('/acme');
    await stranger.waitForURL(/\/sign-in\?next=/);
    await other.close();
  });

  it('draws only the rows near the window of a big build, and scrolls to the job its address names', async () => {
    // 200 jobs on a queue no agent serves: they wait, and the page windows its list from 150 on.
    const big = await world.createPipeline(
      `steps:\n${'  - command: "true"\n    agents: { queue: nowhere }\n    parallelism: 100\n'.repeat(2)}`,
    );
    const { number } = await world.createBuild(big);
    const { jobs } = await world.getBuild(big, number);
    expect(jobs).toHaveLength(200);
    await page.goto(`/acme/${big}/builds/${number}`);
    await page.locator('[aria-posinset="1"]').waitFor();
    expect(await page.locator('[aria-setsize="200"]').count()).toBeLessThan(60);
    expect(await page.locator('[aria-posinset="200"]').count()).toBe(0);

    await page.goto('about:blank');
    await page.goto(`/acme/${big}/builds/${number}#${jobs[179].id}`);
    const late = page.locator('[aria-posinset="180"]');
    await late.waitFor();
    // Scrolled to: its row is on screen (its top at the window's, give or take a pixel's rounding).
    await expect
      .poll(
        async () => {
          const box = await late.boundingBox();
          return box !== null && box.y > -2 && box.y < (page.viewportSize()?.height ?? 0);
        },
        { timeout: 5000 },
      )
      .toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await shot('big-build');
  });
});
