import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acmeWithAdmin } from '../support/database';
import { startTestServer } from '../support/server';

/** Debian's Chromium, which `.ci/run` installs when it can (Playwright's own browser download is not used). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(
    `browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or CHROMIUM_PATH)`,
  );
}

let server: Awaited<ReturnType<typeof startTestServer>>;
let browser: Browser;
let token: string;

beforeAll(async () => {
  if (!hasChromium) return;
  server = await startTestServer();
  token = await (await acmeWithAdmin(server.useCases)).token();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    // As the machine's probe runs it: no sandbox as root, and no calls home that a closed network refuses.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A page that records every request it makes, to show none leaves our origin. */
async function openPage(): Promise<{ page: Page; requests: string[] }> {
  const page = await browser.newPage();
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  return { page, requests };
}

const elsewhere = (requests: string[]) =>
  requests.filter((url) => !url.startsWith(`${server.baseUrl}/`) && !/^(data|blob):/.test(url));

describe.skipIf(!hasChromium)('the pages in a real headless Chromium', { timeout: 120_000 }, () => {
  it('goes from / to the REST reference, rendered from openapi.json with nothing from elsewhere', async () => {
    const { page, requests } = await openPage();
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('link', { name: 'REST API reference' }).click();
    await page.waitForURL(`${server.baseUrl}/docs`);
    await page.getByText('Create a build').first().waitFor({ timeout: 60_000 });
    expect(requests).toContain(`${server.baseUrl}/v2/openapi.json`);
    expect(elsewhere(requests)).toEqual([]);
    await page.close();
  });

  it('runs GraphiQL offline and sends the token kept in the browser with its queries', async () => {
    const { page, requests } = await openPage();
    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('link', { name: 'GraphiQL' }).click();
    await page.locator('.graphiql-container').first().waitFor({ timeout: 60_000 });
    // Headers kept in the browser's localStorage (where GraphiQL keeps those pasted into its editor;
    // typing into its Monaco editor here is left to a person): after a reload, GraphiQL sends them.
    await page.evaluate(
      ({ token }) => {
        localStorage.setItem('graphiql:headers', JSON.stringify({ Authorization: `Bearer ${token}` }));
      },
      { token },
    );
    const sent = page.waitForRequest(
      (request) => request.method() === 'POST' && request.url() === `${server.baseUrl}/graphql`,
    );
    await page.reload();
    const request = await sent;
    expect(request.headers().authorization).toBe(`Bearer ${token}`);
    const response = await request.response();
    if (!response) throw new Error('the introspection request had no response');
    expect(response.status()).toBe(200);
    expect((await response.json()).data.__schema).toBeTruthy();
    expect(elsewhere(requests)).toEqual([]);
    await page.close();
  });
});
