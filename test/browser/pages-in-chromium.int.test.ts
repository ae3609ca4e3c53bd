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

  it('runs GraphiQL offline: a token pasted once in its headers is kept across a reload and sent', async () => {
    // Pasting needs the clipboard, which a page may use only when allowed.
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    /** What a person does: click into an editor, select all of it and paste `text` over it. */
    const pasteInto = async (editor: string, text: string) => {
      await page.evaluate((value) => navigator.clipboard.writeText(value), text);
      await page.locator(editor).click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('ControlOrMeta+V');
    };
    const HEADERS_EDITOR = 'section[aria-label="Headers"] .monaco-editor[data-uri$="headers.json"]';
    const QUERY_EDITOR = '.graphiql-query-editor .monaco-editor';

    await page.goto(`${server.baseUrl}/`);
    await page.getByRole('link', { name: 'GraphiQL' }).click();
    await page.locator(HEADERS_EDITOR).waitFor({ timeout: 60_000 });
    await pasteInto(HEADERS_EDITOR, JSON.stringify({ Authorization: `Bearer ${token}` }));
    // GraphiQL keeps the headers as they are edited; then the page starts again from scratch.
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('graphiql:headers')), { timeout: 10_000 })
      .toContain(token);
    await page.reload();
    await page.locator(QUERY_EDITOR).waitFor({ timeout: 60_000 });

    // No token typed again: the query runs with the one kept, and answers data.
    await pasteInto(QUERY_EDITOR, '{ viewer { user { name } } }');
    const answered = page.waitForResponse(
      (response) =>
        response.url() === `${server.baseUrl}/graphql` &&
        (response.request().postData() ?? '').includes('viewer'),
    );
    await page.locator('.graphiql-execute-button').click();
    const response = await answered;
    expect(response.request().headers().authorization).toBe(`Bearer ${token}`);
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ data: { viewer: { user: { name: 'Ada Admin' } } } });
    // The response pane shows it too (Monaco draws spaces as no-break spaces).
    await expect
      .poll(async () =>
        ((await page.locator('.graphiql-response').textContent()) ?? '').replaceAll('\u00a0', ' '),
      )
      .toContain('"name": "Ada Admin"');
    expect(elsewhere(requests)).toEqual([]);
    await context.close();
  });
});
