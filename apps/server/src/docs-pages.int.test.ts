import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../test/support/server';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const BROWSER = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** Every address a page loads or links to: scripts, stylesheets, icons, images, links (not inside scripts). */
function addresses(html: string): string[] {
  const markup = html.replace(/(<(script|style)\b[^>]*>)[\s\S]*?(<\/\2>)/gi, '$1$3');
  const found = markup.matchAll(
    /<(?:script|link|img|a|iframe)\b[^>]*?\b(?:src|href)\s*=\s*["']([^"']+)["']/gi,
  );
  return [...found].map((match) => match[1] ?? '');
}

/** Fetches each address from our origin; answers those that are absolute to another host. */
async function checkServedHere(page: string, html: string) {
  const list = addresses(html);
  const elsewhere = list.filter(
    (address) => /^(https?:)?\/\//i.test(address) && !address.startsWith(server.baseUrl),
  );
  expect(elsewhere, `${page} loads from another host`).toEqual([]);
  for (const address of list.filter((a) => !a.startsWith('data:') && !a.startsWith('#'))) {
    const response = await server.fetch(new URL(address, `${server.baseUrl}${page}`).pathname, {
      headers: BROWSER,
    });
    expect(response.status, `${address} on ${page}`).toBe(200);
    await response.arrayBuffer();
  }
  return list;
}

describe('the pages for people, served offline', () => {
  it('answers / with HTML to a browser, linking the reference and GraphiQL, and JSON to API clients', async () => {
    const page = await server.fetch('/', { headers: BROWSER });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    const links = await checkServedHere('/', html);
    expect(links).toEqual(expect.arrayContaining(['/docs', '/graphql', '/v2/openapi.json']));

    for (const accept of [undefined, '*/*', 'application/json']) {
      const response = await server.fetch('/', accept ? { headers: { Accept: accept } } : {});
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await response.json()).toMatchObject({ message: expect.stringContaining('/graphql') });
    }
  });

  it('serves the REST reference page and its script from our origin, rendering the served openapi.json', async () => {
    const page = await server.fetch('/docs', { headers: BROWSER });
    expect(page.status).toBe(200);
    const html = await page.text();
    const loaded = await checkServedHere('/docs', html);
    expect(loaded).toEqual(['/docs/scalar-standalone.js']);
    const script = await server.fetch('/docs/scalar-standalone.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await script.text()).length).toBeGreaterThan(1_000_000);
    expect(html).toContain("url: '/v2/openapi.json'");
    expect(html).toContain('withDefaultFonts: false'); // no fonts from fonts.scalar.com
    const document = await server.fetch('/v2/openapi.json');
    expect(document.status).toBe(200);
    expect((await document.json()).openapi).toMatch(/^3\./);
  });

  it('serves GraphiQL whole from our origin (no CDN), keeping pasted headers in the browser', async () => {
    const page = await server.fetch('/graphql', { headers: BROWSER });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    await checkServedHere('/graphql', html);
    expect(html).not.toMatch(/unpkg\.com|cdn\.jsdelivr|esm\.sh/);
    expect(html).not.toContain('__TITLE__');
    expect(html).toContain('<title>CI control API: GraphQL</title>');
    expect(html).toContain('"shouldPersistHeaders":true');
  });
});
