import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decidesAccessAlone, startWorld, type World } from '../support/world';

/*
 * The response cache and conditional GETs (ADR 0016): a pipeline's REST build list is sent again from the
 * cache, and a build list or a build answers 304 to its ETag, after reading only the token and the access
 * (with the content revision); every change to what they show, made by plain SQL as another process or an
 * operator would, shows in the very next answer.
 */

let world: World;
let buildNumber: number;
let buildId: string;

beforeAll(async () => {
  world = await startWorld();
  const build = await world.createBuild('web', { message: 'first' });
  buildNumber = build.number;
  buildId = build.id;
  await world.createBuild('web', { message: 'second', branch: 'feature' });
});
afterAll(async () => {
  await world?.close();
});

const LIST = '/v2/organizations/acme/pipelines/web/builds';
const sql = (text: string, params: unknown[] = []) => world.server.database.sql.query(text, params);

/** The answer and the statements it took. */
async function list(path = LIST, token?: string, headers: Record<string, string> = {}) {
  const { result, sql: statements } = await world.countStatements(() =>
    world.call('GET', path, { headers, ...(token === undefined ? {} : { token }) }),
  );
  return { ...result, statements };
}

describe('a cached REST build list', () => {
  it('is sent again, the same to the byte and with its headers, reading only the token and the access', async () => {
    const first = await list();
    expect(first.status).toBe(200);
    const again = await list();
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.statements).toHaveLength(2);
    // The narrow access with the revision: not the pipeline's columns.
    expect(decidesAccessAlone(again.statements[1] as string)).toBe(true);
    for (const header of ['content-type', 'x-oauth-scopes', 'x-accepted-oauth-scopes', 'etag']) {
      expect(again.headers.get(header)).toBe(first.headers.get(header));
    }
  });

  it('keeps its page links, and answers other queries on their own', async () => {
    const paged = `${LIST}?per_page=1`;
    const first = await list(paged);
    expect(first.headers.get('link')).toContain('rel="next"');
    const again = await list(paged);
    expect(again.statements).toHaveLength(2);
    expect(again.headers.get('link')).toBe(first.headers.get('link'));
    expect(again.headers.get('etag')).not.toBe((await list()).headers.get('etag'));
    const branch = await list(`${LIST}?branch=feature`);
    expect(branch.body.map((build: { branch: string }) => build.branch)).toEqual(['feature']);
  });

  const changes: [string, () => Promise<unknown>, (body: string) => void][] = [
    [
      "a build's message",
      () => sql("update builds set message = 'changed by SQL' where id = $1", [buildId]),
      (body) => expect(body).toContain('changed by SQL'),
    ],
    [
      "a job's name",
      () => sql("update jobs set name = 'renamed job' where build_id = $1", [buildId]),
      (body) => expect(body).toContain('renamed job'),
    ],
    [
      'a new build',
      () => world.createBuild('web', { message: 'third' }),
      (body) => expect(body).toContain('"message":"third"'),
    ],
    [
      "the pipeline's name",
      () => sql("update pipelines set name = 'Web renamed' where slug = 'web'"),
      (body) => expect(body).toContain('"name":"Web renamed"'),
    ],
    [
      "the creator's name",
      () => sql("update users set name = 'Ada Renamed' where email = 'admin@acme.test'"),
      (body) => expect(body).toContain('"name":"Ada Renamed"'),
    ],
    [
      'a deleted build',
      () => sql("delete from builds where message = 'second'"),
      (body) => expect(body).not.toContain('"message":"second"'),
    ],
  ];
  it.each(changes)(
    'shows %s changed by another writer in the very next answer',
    async (_what, change, shows) => {
      const before = await list();
      await list();
      await change();
      const after = await list();
      expect(after.status).toBe(200);
      expect(after.text).not.toBe(before.text);
      shows(after.text);
      expect(after.statements.length).toBeGreaterThan(2);
    },
  );

  it("follows the reader's access: a user who may not edit the pipeline never gets the webhook address", async () => {
    const path = '/v2/organizations/acme/pipelines/api/builds';
    await world.createBuild('api');
    await list(path);
    const admin = await list(path);
    expect(admin.statements).toHaveLength(2);
    expect(admin.text).toContain('/webhooks/');
    const member = await list(path, world.tokens.member);
    expect(member.status).toBe(200);
    expect(member.text).not.toContain('/webhooks/');
    expect(member.statements.length).toBeGreaterThan(2);
  });

  it('refuses a revoked token and a token without the scope, whatever was cached', async () => {
    const secret = await world.token('admin');
    expect((await list(LIST, secret)).status).toBe(200);
    expect((await list(LIST, secret)).status).toBe(200);
    await sql(
      'update access_tokens set revoked_at = now() where revoked_at is null and created_at = (select max(created_at) from access_tokens)',
    );
    expect((await list(LIST, secret)).status).toBe(401);
    const noScope = await world.token('admin', { scopes: ['read_pipelines'] });
    expect((await list(LIST, noScope)).status).toBe(403);
  });

  it('follows a change in access: a team association removed takes the pipeline away at once', async () => {
    const member = world.tokens.member;
    expect((await list('/v2/organizations/acme/pipelines/docs/builds', member)).status).toBe(200);
    expect((await list('/v2/organizations/acme/pipelines/docs/builds', member)).status).toBe(200);
    await sql(
      "delete from team_pipelines where pipeline_id = (select id from pipelines where slug = 'docs')",
    );
    // Docs is then open to every member again (no teams): still readable, now with the member's access.
    const after = await list('/v2/organizations/acme/pipelines/docs/builds', member);
    expect(after.status).toBe(200);
    expect(after.statements.length).toBeGreaterThan(2);
  });

  it('refuses a cached answer and a 304 to a member whose team lost the pipeline, as a full read does', async () => {
    const path = '/v2/organizations/acme/pipelines/releases/builds';
    const member = world.tokens.member;
    await world.createBuild('releases');
    // Another team keeps the pipeline: it is not open to every member once the member's team is gone.
    await world.server.useCases.admin.addTeamPipeline({
      organization: 'acme',
      team: 'hidden',
      pipeline: 'releases',
      accessLevel: 'read_only',
    });
    await list(path, member);
    const cached = await list(path, member);
    expect(cached.status).toBe(200);
    expect(cached.statements).toHaveLength(2);
    const tag = cached.headers.get('etag') as string;
    await sql(
      `delete from team_pipelines where team_id = (select id from teams where slug = 'platform')
       and pipeline_id = (select id from pipelines where slug = 'releases')`,
    );
    const refused = { status: 404, body: { message: 'No pipeline found' } };
    for (const headers of [{}, { 'If-None-Match': tag }] as Record<string, string>[]) {
      const answer = await list(path, member, headers);
      expect({ status: answer.status, body: answer.body }).toEqual(refused);
      expect(answer.statements).toHaveLength(2);
    }
    // The same refusal as a read of the whole pipeline gives (a build of it, unconditional).
    const full = await world.call('GET', `${path}/1`, { token: member });
    expect({ status: full.status, body: full.body }).toEqual(refused);
  });
});

describe('conditional GETs', () => {
  const BUILD = () => `${LIST}/${buildNumber}`;

  it('answer 304 with no body to the ETag of a list or a build, reading only the token and the access', async () => {
    for (const path of [LIST, `${LIST}?per_page=1`, BUILD()]) {
      const first = await list(path);
      const tag = first.headers.get('etag');
      expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await list(path, undefined, { 'If-None-Match': tag as string });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(tag);
      expect(again.headers.get('x-oauth-scopes')).toBe(first.headers.get('x-oauth-scopes'));
      expect(again.statements).toHaveLength(2);
      expect(decidesAccessAlone(again.statements[1] as string)).toBe(true);
      const weak = await list(path, undefined, { 'If-None-Match': `"other", W/${tag}` });
      expect(weak.status).toBe(304);
    }
  });

  it('answer in full once what they show changed, or for another tag', async () => {
    const first = await list(BUILD());
    const tag = first.headers.get('etag') as string;
    expect((await list(BUILD(), undefined, { 'If-None-Match': '"other"' })).status).toBe(200);
    await sql("update jobs set name = 'renamed for the tag' where build_id = $1", [buildId]);
    const changed = await list(BUILD(), undefined, { 'If-None-Match': tag });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('renamed for the tag');
    expect(changed.headers.get('etag')).not.toBe(tag);
  });

  it("differ by reader: another token's tag is not this one's", async () => {
    const admin = await list(LIST);
    const member = await list(LIST, world.tokens.member, {
      'If-None-Match': admin.headers.get('etag') as string,
    });
    expect(member.status).toBe(200);
  });

  it('still refuse what the token may not read', async () => {
    const tag = (await list(LIST)).headers.get('etag') as string;
    const noScope = await world.token('admin', { scopes: ['read_pipelines'] });
    expect((await list(LIST, noScope, { 'If-None-Match': tag })).status).toBe(403);
    expect((await list(LIST, world.tokens.outsider, { 'If-None-Match': '*' })).status).toBe(404);
  });
});

describe('without the response cache (RESPONSE_CACHE=off)', () => {
  it('reads every list in full, and still answers conditional GETs', async () => {
    const uncached = await startWorld({ RESPONSE_CACHE: 'off' });
    try {
      await uncached.createBuild('web');
      const call = (headers: Record<string, string> = {}) =>
        uncached.countStatements(() => uncached.call('GET', LIST, { headers }));
      const first = await call();
      const again = await call();
      expect(again.result.text).toBe(first.result.text);
      expect(again.statements).toBe(4);
      const conditional = await call({ 'If-None-Match': first.result.headers.get('etag') as string });
      expect(conditional.result.status).toBe(304);
      expect(conditional.statements).toBe(2);
      expect(decidesAccessAlone(conditional.sql[1] as string)).toBe(true);
    } finally {
      await uncached.close();
    }
  });
});

describe('build numbers beside cached answers', () => {
  it('a build created between two reads is in the second', async () => {
    await list();
    const created = await world.createBuild('web', { message: 'between' });
    const after = await list();
    expect(after.body.map((build: { number: number }) => build.number)).toContain(created.number);
    expect(buildNumber).toBeLessThan(created.number);
  });
});
