import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PipelinesWorld, startPipelinesWorld } from '../support/pipelines-world';

/**
 * Build badges through the real HTTP server and PostgreSQL: the SVG of a branch's latest build at the
 * pipeline's `badge_url`, public only for public pipelines, with README-friendly cache headers.
 */

let world: PipelinesWorld;
beforeAll(async () => {
  world = await startPipelinesWorld();
});
afterAll(() => world?.close());

async function badgePath(slug: string): Promise<string> {
  const pipeline = await world.call('GET', world.pipelinePath(slug));
  return new URL(pipeline.body.badge_url).pathname;
}

const statusOf = (svg: string) => /aria-label="build: (\w+)"/.exec(svg)?.[1];

describe('GET /badges/{pipeline}.svg', () => {
  it("shows a public pipeline's latest build on the default branch or the one asked for, to anyone", async () => {
    const pipeline = await world.createPipeline({ visibility: 'public', default_branch: 'main' });
    const path = await badgePath(pipeline.slug);
    const none = await world.call('GET', path, { token: null });
    expect(none.status).toBe(200);
    expect(none.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(statusOf(none.text)).toBe('unknown');

    const build = await world.createBuild(pipeline.slug, { branch: 'main' });
    expect(statusOf((await world.call('GET', path, { token: null })).text)).toBe('scheduled');
    await world.call('PUT', `${world.pipelinePath(pipeline.slug)}/builds/${build.number}/cancel`);
    expect(statusOf((await world.call('GET', path, { token: null })).text)).toBe('canceled');
    await world.createBuild(pipeline.slug, { branch: 'dev' });
    await world.server.database.sql.query(
      `update builds set state = 'passed', finished_at = now() where pipeline_id = $1 and branch = 'dev'`,
      [pipeline.id],
    );
    expect(statusOf((await world.call('GET', `${path}?branch=dev`, { token: null })).text)).toBe('passing');
    expect(statusOf((await world.call('GET', `${path}?branch=nowhere`, { token: null })).text)).toBe(
      'unknown',
    );
  });

  it('answers with a short max-age and an ETag, and 304 while the state is the same', async () => {
    const pipeline = await world.createPipeline({ visibility: 'public' });
    const path = await badgePath(pipeline.slug);
    const first = await world.call('GET', path, { token: null });
    expect(first.headers.get('cache-control')).toBe('public, max-age=30');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await world.call('GET', path, { token: null, headers: { 'If-None-Match': etag ?? '' } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    await world.createBuild(pipeline.slug, { branch: 'main' });
    const changed = await world.call('GET', path, { token: null, headers: { 'If-None-Match': etag ?? '' } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it("keeps a private pipeline's badge from anyone without a token that may read it (404)", async () => {
    const path = await badgePath('secret');
    const anonymous = await world.call('GET', path, { token: null });
    expect(anonymous.status).toBe(404);
    expect(anonymous.body).toEqual({ message: 'No pipeline found' });
    expect((await world.call('GET', path, { token: world.tokens.member })).status).toBe(404);
    expect((await world.call('GET', path, { token: 'bkua_nonsense' })).status).toBe(401);
    const admin = await world.call('GET', path, { token: world.tokens.admin });
    expect(admin.status).toBe(200);
    expect(admin.headers.get('cache-control')).toBe('private, max-age=30');
    expect((await world.call('GET', '/badges/not-a-uuid.svg', { token: null })).status).toBe(404);
  });
});
