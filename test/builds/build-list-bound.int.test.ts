import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linksOf, walkPages } from '../support/answers';
import { startWorld, type World } from '../support/world';

/*
 * Build lists are counted only so far (docs/compatibility.md, "Performance"): `last` when the list ends
 * within the bound, else `first`/`prev`/`next` only; `next` is exact either way. The bound here is 5.
 */

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read as the untyped JSON a client sees
type Json = Record<string, any>;

const BOUND = 5;
const BUILDS = 8;

let world: World;
const builds = (query: string, target = '/v2/organizations/acme/pipelines/web/builds') =>
  world.call('GET', `${target}?${query}`);

/** The rels of a Link header by name, each with its page number. */
const rels = (link: string | null): Record<string, number> =>
  Object.fromEntries(
    Object.entries(linksOf(link)).map(([rel, url]) => [rel, Number(new URL(url).searchParams.get('page'))]),
  );

beforeAll(async () => {
  world = await startWorld({}, { listLimits: { buildCount: BOUND } });
  for (let i = 0; i < BUILDS; i++) {
    await world.createBuild('web', { branch: i < 3 ? 'short' : 'main' });
  }
  // Exactly the bound on `main` (numbers 4–8); `short` (1–3) well within it.
});
afterAll(() => world?.close());

describe('a build list longer than the count bound', () => {
  it('gives page 1 next but no last', async () => {
    const response = await builds('per_page=2');
    expect(response.status).toBe(200);
    expect(response.body.map((build: Json) => build.number)).toEqual([8, 7]);
    expect(rels(response.headers.get('link'))).toEqual({ next: 2 });
  });

  it('gives a middle page first, prev and next, still no last', async () => {
    const response = await builds('page=3&per_page=2');
    expect(response.body.map((build: Json) => build.number)).toEqual([4, 3]);
    expect(rels(response.headers.get('link'))).toEqual({ first: 1, prev: 2, next: 4 });
  });

  it('ends with the real last page: first and prev, no next', async () => {
    const response = await builds('page=4&per_page=2');
    expect(response.body.map((build: Json) => build.number)).toEqual([2, 1]);
    expect(rels(response.headers.get('link'))).toEqual({ first: 1, prev: 3 });
    const uneven = await builds('page=3&per_page=3');
    expect(uneven.body.map((build: Json) => build.number)).toEqual([2, 1]);
    expect(rels(uneven.headers.get('link'))).toEqual({ first: 1, prev: 2 });
  });

  it('answers [] past the end with first and prev', async () => {
    const response = await builds('page=7&per_page=2');
    expect(response.body).toEqual([]);
    expect(rels(response.headers.get('link'))).toEqual({ first: 1, prev: 6 });
  });

  it('reaches every build once by following next, keeping the query in each link', async () => {
    const { pages, items } = await walkPages(
      (path) => world.call('GET', path),
      '/v2/organizations/acme/pipelines/web/builds?per_page=3&state=scheduled',
    );
    for (const page of pages) {
      const link = page.headers.get('link');
      expect(link ?? '').not.toContain('rel="last"');
      const next = linksOf(link).next;
      if (next) expect(next).toContain('state=scheduled&page=');
    }
    expect(items.map((build) => (build as Json).number)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it('counts the organization and all-builds lists the same way', async () => {
    for (const target of ['/v2/organizations/acme/builds', '/v2/builds']) {
      const response = await builds('per_page=3', target);
      expect(rels(response.headers.get('link'))).toEqual({ next: 2 });
    }
  });
});

describe('a build list within the count bound', () => {
  it('gives last when the list holds exactly the bound', async () => {
    const response = await builds('branch=main&per_page=2');
    expect(response.body.map((build: Json) => build.number)).toEqual([8, 7]);
    expect(rels(response.headers.get('link'))).toEqual({ next: 2, last: 3 });
  });

  it('gives last, and no Link when one page holds it', async () => {
    const paged = await builds('branch=short&per_page=2');
    expect(rels(paged.headers.get('link'))).toEqual({ next: 2, last: 2 });
    const whole = await builds('branch=short');
    expect(whole.body.map((build: Json) => build.number)).toEqual([3, 2, 1]);
    expect(whole.headers.get('link')).toBeNull();
  });
});

describe('a page size past the largest', () => {
  it.each(['101', '100000', '99999999999999999999'])(
    'clamps per_page=%s to 100 (decisions.md), on REST and tRPC',
    async (perPage) => {
      const rest = await builds(`per_page=${perPage}`);
      expect(rest.status).toBe(200);
      expect(rest.body).toHaveLength(BUILDS);
      const input = encodeURIComponent(
        JSON.stringify({ organization: 'acme', pipeline: 'web', per_page: perPage }),
      );
      const trpc = await world.call('GET', `/trpc/builds.listForPipeline?input=${input}`);
      expect(trpc.status).toBe(200);
    },
  );
});
