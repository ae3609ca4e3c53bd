import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, type World } from '../support/world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

const fetchPath = (path: string, init?: RequestInit) => world.server.fetch(path, init);

/** Signs in with the token; the session cookie (`name=value`) and the CSRF token. */
async function signIn(token: string) {
  const response = await fetchPath('/sign-in', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: world.server.baseUrl },
    body: JSON.stringify({ token }),
  });
  expect(response.status).toBe(200);
  const setCookie = response.headers.get('set-cookie') ?? '';
  const body = (await response.json()) as { csrf_token: string };
  return { setCookie, cookie: setCookie.split(';')[0] as string, csrf: body.csrf_token };
}

describe('the web app’s pages', () => {
  it('answer the page shell at every web_url path, with its assets served by the server', async () => {
    const build = await world.createBuild('web');
    const paths = [
      '/acme',
      '/acme/web',
      '/acme/web/builds',
      new URL(build.web_url as string).pathname,
      '/organizations/acme/agents',
      '/organizations/acme/agents/0190f3a0-0000-7abc-8def-000000000001',
      '/organizations/acme/teams',
      '/organizations/acme/packages/registries',
      '/organizations/acme/packages/registries/npm',
      '/sign-in',
    ];
    for (const path of paths) {
      const response = await fetchPath(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const html = await response.text();
      expect(html).toContain('<div id="app">');
      // Signed out: the CSRF token is empty, and the page holds no data at all.
      expect(html).toContain('<meta name="csrf-token" content="">');
    }
    const shell = await (await fetchPath('/acme')).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(shell)?.[1] as string;
    const asset = await fetchPath(script);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await fetchPath('/assets/missing.js')).status).toBe(404);
  });

  it('leave the API’s own routes ahead of the pages’ parametric ones', async () => {
    expect(await (await fetchPath('/healthz')).json()).toEqual({ status: 'ok', database: 'ok' });
    const openApi = await fetchPath('/v2/openapi.json');
    expect(openApi.headers.get('content-type')).toMatch(/^application\/json/);
    const graphql = await fetchPath('/graphql?query=%7B__typename%7D', {
      headers: { Authorization: `Bearer ${world.tokens.admin}` },
    });
    expect(graphql.headers.get('content-type')).toMatch(/json/);
    const trpc = await fetchPath('/trpc/user.get');
    expect(trpc.status).toBe(401);
    const rest = await fetchPath('/v2/organizations/acme', {
      headers: { Authorization: `Bearer ${world.tokens.admin}` },
    });
    expect(((await rest.json()) as { slug: string }).slug).toBe('acme');
    // Paths no page names still answer the API's 404.
    const unknown = await fetchPath('/acme/web/nothing/here/at/all');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'No route matches GET /acme/web/nothing/here/at/all' });
  });
});

describe('signing in', () => {
  it('keeps an HttpOnly, SameSite=Lax session cookie, Secure under an https web URL, holding no token', async () => {
    const { setCookie, cookie, csrf } = await signIn(world.tokens.admin);
    expect(setCookie).toMatch(/^ci_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Secure');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain(world.tokens.admin);
    expect(csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The stored row holds the hash of the secret and a reference to the token, never either secret.
    const secret = cookie.split('=')[1] as string;
    const rows = await world.server.database.sql.query<Record<string, unknown>>('select * from web_sessions');
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(JSON.stringify(rows)).not.toContain(world.tokens.admin);
    // The page shell carries the session's CSRF token.
    expect(await (await fetchPath('/acme', { headers: { Cookie: cookie } })).text()).toContain(
      `<meta name="csrf-token" content="${csrf}">`,
    );
  });

  it('refuses an unknown token with 401, a missing one with 422, and another site’s form with 403', async () => {
    const unknown = await fetchPath('/sign-in', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: `bkua_${'0'.repeat(40)}` }),
    });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('set-cookie')).toBeNull();
    expect(await unknown.json()).toHaveProperty('message');
    const missing = await fetchPath('/sign-in', { method: 'POST', body: '{}' });
    expect(missing.status).toBe(422);
    const crossSite = await fetchPath('/sign-in', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
      body: JSON.stringify({ token: world.tokens.admin }),
    });
    expect(crossSite.status).toBe(403);
  });

  it('authenticates tRPC calls by the session, and a change only with its CSRF token', async () => {
    const { cookie, csrf } = await signIn(world.tokens.admin);
    const user = await fetchPath('/trpc/user.get', { headers: { Cookie: cookie } });
    expect(user.status).toBe(200);
    expect(((await user.json()) as { result: { data: { email: string } } }).result.data.email).toBe(
      'admin@acme.test',
    );
    const create = (headers: Record<string, string>) =>
      fetchPath('/trpc/builds.create', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: cookie, ...headers },
        body: JSON.stringify({ organization: 'acme', pipeline: 'web', commit: 'HEAD', branch: 'main' }),
      });
    expect((await create({})).status).toBe(401);
    expect((await create({ 'x-csrf-token': 'x'.repeat(43) })).status).toBe(401);
    expect((await create({ 'x-csrf-token': csrf })).status).toBe(200);
    // The session is not a way into REST: /v2 takes API tokens only.
    expect((await fetchPath('/v2/user', { headers: { Cookie: cookie } })).status).toBe(401);
  });

  it('decides access as the token would: a member sees 404 for a pipeline of a team they are not in', async () => {
    const { cookie } = await signIn(world.tokens.member);
    const input = encodeURIComponent(JSON.stringify({ organization: 'acme', pipeline: 'secret' }));
    const hidden = await fetchPath(`/trpc/pipelines.get?input=${input}`, { headers: { Cookie: cookie } });
    expect(hidden.status).toBe(404);
    const visible = encodeURIComponent(JSON.stringify({ organization: 'acme', pipeline: 'web' }));
    expect(
      (await fetchPath(`/trpc/pipelines.get?input=${visible}`, { headers: { Cookie: cookie } })).status,
    ).toBe(200);
    // Its page answers 404 as well (the shell, which shows the 404 page), and so do missing things.
    const page = (path: string) => fetchPath(path, { headers: { Cookie: cookie } });
    for (const path of ['/acme/secret', '/acme/secret/builds', '/acme/web/builds/999', '/nowhere']) {
      const response = await page(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain('<div id="app">');
    }
    expect((await page('/acme/web')).status).toBe(200);
    expect((await page('/organizations/acme/teams')).status).toBe(200);
    expect((await page('/organizations/acme/packages/registries/nothing')).status).toBe(404);
  });

  it('signs out: the session works no more, and the cookie is cleared', async () => {
    const { cookie, csrf } = await signIn(world.tokens.admin);
    expect((await fetchPath('/sign-out', { method: 'POST', headers: { Cookie: cookie } })).status).toBe(403);
    const out = await fetchPath('/sign-out', {
      method: 'POST',
      headers: { Cookie: cookie, 'x-csrf-token': csrf },
    });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^ci_session=;/);
    expect((await fetchPath('/trpc/user.get', { headers: { Cookie: cookie } })).status).toBe(401);
  });

  it('ends the session when its token is revoked', async () => {
    const token = await world.token('admin');
    const { cookie } = await signIn(token);
    expect((await fetchPath('/trpc/user.get', { headers: { Cookie: cookie } })).status).toBe(200);
    await fetchPath('/v2/access-token', { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
    expect((await fetchPath('/trpc/user.get', { headers: { Cookie: cookie } })).status).toBe(401);
  });
});

describe('a job’s live log', () => {
  it('streams the chunks as they arrive, resumes after the last one seen, and ends when the job finished', async () => {
    const build = await world.createBuild('web');
    const job = (build.jobs as { id: string; type: string }[]).find(
      (candidate) => candidate.type === 'script',
    );
    const jobId = job?.id as string;
    const { cookie } = await signIn(world.tokens.admin);
    const repos = world.server.database.repos;
    const append = (sequence: number, content: string) =>
      repos.jobs.appendLogChunk(jobId, { sequence, offset: 0, content, receivedAt: new Date() });
    await append(0, '--- Setup\n');
    const path = `/live/jobs/acme/web/${build.number}/${jobId}/log`;

    const controller = new AbortController();
    const response = await fetchPath(path, { headers: { Cookie: cookie }, signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let received = '';
    const readUntil = async (text: string) => {
      while (!received.includes(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${text}: ${received}`);
        received += decoder.decode(value, { stream: true });
      }
    };
    await readUntil('id: 0\n');
    expect(received).toContain(`event: chunk\ndata: ${JSON.stringify('--- Setup\n')}`);
    // Written while the stream is open, as an agent in another process would.
    await append(1, '\u001b[31mred\u001b[0m\n');
    await readUntil('id: 1\n');
    await world.server.database.sql.query(
      `update jobs set state = 'passed', finished_at = now() where id = $1`,
      [jobId],
    );
    await readUntil('event: end');
    controller.abort();

    const resumed = await fetchPath(path, { headers: { Cookie: cookie, 'Last-Event-ID': '0' } });
    const text = await resumed.text();
    expect(text).not.toContain('id: 0\n');
    expect(text).toContain('id: 1\n');
    expect(text).toContain('event: end');
  });

  it('answers 401 without a session, and 404 for a job the user may not see', async () => {
    const build = await world.createBuild('secret');
    const job = (build.jobs as { id: string }[])[0]?.id as string;
    const path = `/live/jobs/acme/secret/${build.number}/${job}/log`;
    expect((await fetchPath(path)).status).toBe(401);
    const { cookie } = await signIn(world.tokens.member);
    const hidden = await fetchPath(path, { headers: { Cookie: cookie } });
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toHaveProperty('message');
  });
});
