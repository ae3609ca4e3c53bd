import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decidesAccess, startWorld, type World } from '../support/world';

/*
 * Kept answers (ADR 0012): a pipeline's build list (REST) and a GraphQL query about one pipeline are sent
 * again, without reading the builds, while the pipeline's revision holds; every change to what they show,
 * made by plain SQL as another process or an operator would, shows in the very next answer.
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
async function list(path = LIST, token?: string) {
  const { result, sql: statements } = await world.countStatements(() =>
    world.call('GET', path, token === undefined ? {} : { token }),
  );
  return { ...result, statements };
}

const PIPELINE_QUERY = `query Builds($slug: ID!) {
  pipeline(slug: $slug) {
    name
    webhookURL
    builds(first: 10) { edges { node { number message state createdBy { ... on User { name email } }
      jobs(first: 5) { edges { node { ... on JobTypeCommand { label state agent { name } } } } } } } }
  }
}`;

async function graphql(query: string, variables: Record<string, unknown> = {}, token?: string) {
  const { result, sql: statements } = await world.countStatements(() =>
    world.call('POST', '/graphql', { body: { query, variables }, ...(token === undefined ? {} : { token }) }),
  );
  return { ...result, statements };
}

describe('a kept REST build list', () => {
  it('is sent again, the same to the byte and with its headers, reading only the token and the access', async () => {
    const first = await list();
    expect(first.status).toBe(200);
    const again = await list();
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.statements).toHaveLength(1);
    expect(decidesAccess(again.statements[0] as string)).toBe(true);
    for (const header of ['content-type', 'x-oauth-scopes', 'x-accepted-oauth-scopes']) {
      expect(again.headers.get(header)).toBe(first.headers.get(header));
    }
  });

  it('keeps its page links, and answers other queries on their own', async () => {
    const paged = `${LIST}?per_page=1`;
    const first = await list(paged);
    expect(first.headers.get('link')).toContain('rel="next"');
    const again = await list(paged);
    expect(again.statements).toHaveLength(1);
    expect(again.headers.get('link')).toBe(first.headers.get('link'));
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
      expect(after.statements.length).toBeGreaterThan(1);
    },
  );

  it("follows the reader's access: a user who may not edit the pipeline never gets the webhook address", async () => {
    const path = '/v2/organizations/acme/pipelines/api/builds';
    await world.createBuild('api');
    await list(path);
    const admin = await list(path);
    expect(admin.statements).toHaveLength(1);
    expect(admin.text).toContain('/webhooks/');
    const member = await list(path, world.tokens.member);
    expect(member.status).toBe(200);
    expect(member.text).not.toContain('/webhooks/');
    expect(member.statements.length).toBeGreaterThan(1);
  });

  it('refuses a revoked token and a token without the scope, whatever was kept', async () => {
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
    expect(after.statements.length).toBeGreaterThan(1);
  });
});

describe('a kept GraphQL answer', () => {
  const variables = { slug: 'acme/web' };

  it('is sent again for the same query about one pipeline, reading only the token and the access', async () => {
    const first = await graphql(PIPELINE_QUERY, variables);
    expect(first.status).toBe(200);
    expect(first.body.errors).toBeUndefined();
    const again = await graphql(PIPELINE_QUERY, variables);
    expect(again.text).toBe(first.text);
    expect(again.statements).toHaveLength(1);
    expect(again.headers.get('x-oauth-scopes')).toBe(first.headers.get('x-oauth-scopes'));
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
  });

  it('shows a change to a job, a build or a creator in the very next answer', async () => {
    await graphql(PIPELINE_QUERY, variables);
    await sql("update jobs set state = 'running' where build_id = $1", [buildId]);
    const running = await graphql(PIPELINE_QUERY, variables);
    expect(running.text).toContain('"state":"RUNNING"');
    await sql("update users set email = 'ada@renamed.test' where email = 'admin@acme.test'");
    const renamed = await graphql(PIPELINE_QUERY, variables);
    expect(renamed.text).toContain('ada@renamed.test');
    await sql("update users set email = 'admin@acme.test' where email = 'ada@renamed.test'");
  });

  it('answers other variables, another token and another access on their own', async () => {
    const web = await graphql(PIPELINE_QUERY, variables);
    const api = await graphql(PIPELINE_QUERY, { slug: 'acme/api' });
    expect(api.body.data.pipeline.name).toBe('api');
    expect(api.text).not.toBe(web.text);
    await graphql(PIPELINE_QUERY, { slug: 'acme/api' });
    expect(api.body.data.pipeline.webhookURL).not.toBeNull();
    const member = await graphql(PIPELINE_QUERY, { slug: 'acme/api' }, world.tokens.member);
    expect(member.body.data.pipeline.webhookURL).toBeNull();
    expect(member.statements.length).toBeGreaterThan(1);
  });

  it("is not kept for a query that shows what the revision does not stand for (a pipeline's teams)", async () => {
    const query =
      '{ pipeline(slug: "acme/web") { name teams(first: 5) { edges { node { accessLevel } } } } }';
    await graphql(query);
    const again = await graphql(query);
    expect(again.status).toBe(200);
    expect(again.statements.length).toBeGreaterThan(1);
  });

  it('is not kept when the answer has errors', async () => {
    const query =
      '{ pipeline(slug: "acme/web") { name builds(first: 1) { edges { node { number } } } none: builds(first: -1) { count } } }';
    await graphql(query);
    const again = await graphql(query);
    expect(again.body.errors).toBeDefined();
    expect(again.statements.length).toBeGreaterThan(1);
  });
});

describe('build numbers beside kept answers', () => {
  it('a build created between two reads is in the second', async () => {
    await list();
    const created = await world.createBuild('web', { message: 'between' });
    const after = await list();
    expect(after.body.map((build: { number: number }) => build.number)).toContain(created.number);
    expect(buildNumber).toBeLessThan(created.number);
  });
});
