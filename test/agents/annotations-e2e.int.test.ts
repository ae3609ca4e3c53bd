import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentsWorld } from '../support/agents-world';
import { recorded, shapeDifferences } from '../support/recorded';

/**
 * A job annotates its build with `buildkite-agent annotate` and `annotation remove` (a real agent
 * process runs it); REST and GraphQL show what it wrote, as sanitised HTML.
 */

type World = Awaited<ReturnType<typeof startAgentsWorld>>;

let world: World;
let pipeline: string;
let number: number;
let log: string;
beforeAll(async () => {
  world = await startAgentsWorld();
  world.startAgent({ name: 'annotator' });
  pipeline = await world.createPipeline(`steps:
  - command: |
      set -e
      buildkite-agent annotate --style info --context notes "First **line**"
      buildkite-agent annotate --append --context notes "; [docs](https://example.com/docs)"
      printf '%s\\n' '<script>alert(1)</script>' '<img src="x.png" onerror="alert(2)">' '<a href="javascript:alert(3)">a</a>' '[b](javascript:alert(4))' | buildkite-agent annotate --style error --context xss
      ci-agent annotate --context gone "to be removed"
      buildkite-agent annotation remove --context gone
      buildkite-agent annotate --style loud "nope" || echo "refused style: $?"
      buildkite-agent annotate --context empty "" || echo "refused empty: $?"
      head -c 1048577 /dev/zero | tr '\\0' a | buildkite-agent annotate --context big || echo "refused big: $?"
      buildkite-agent annotation remove --context never || echo "refused remove: $?"
`);
  ({ number } = await world.createBuild(pipeline));
  const build = await world.waitForBuild(pipeline, number, 'passed');
  log = (
    await world.call(
      'GET',
      `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/jobs/${build.jobs[0].id}/log.txt`,
    )
  ).text;
}, 60_000);
afterAll(async () => {
  await world?.close();
});

/** No script, no event handler, no `javascript:` URL in any attribute (as text, it is only text). */
function expectSafe(html: string) {
  expect(html).not.toMatch(/<script|alert\(1\)/i);
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/=\s*["']?\s*javascript:/i);
  expect(html).not.toMatch(/<a[^>]*href[^>]*>b<\/a>/);
}

const annotationsPath = () => `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/annotations`;

describe('a job that annotates its build', () => {
  it('fails the commands it cannot do, with their reasons, and writes nothing for them', () => {
    expect(log).toMatch(/422 style must be one of success, info, warning, error\n.*refused style: 1/);
    expect(log).toMatch(/422 body can't be blank\n.*refused empty: 1/);
    expect(log).toMatch(/annotation body size \(1048577B\) exceeds maximum \(1048576B\)\n.*refused big: 1/);
    expect(log).toMatch(/404 No annotation found\n.*refused remove: 1/);
  });

  it('shows REST the contexts it wrote, newest first, in the recorded shape', async () => {
    const response = await world.call('GET', annotationsPath());
    expect(response.status).toBe(200);
    expect(shapeDifferences(response.body, recorded('annotation_list').response.body)).toEqual([]);
    expect(response.body.map((a: { context: string }) => a.context)).toEqual(['xss', 'notes']);
    const [xss, notes] = response.body;
    expect(notes).toMatchObject({
      style: 'info',
      body_html: '<p>First <strong>line</strong>; <a href="https://example.com/docs">docs</a></p>\n',
    });
    const [example] = recorded('annotation_list').response.body as Record<string, unknown>[];
    expect(Object.keys(notes)).toEqual(Object.keys(example ?? {}));
    expect(xss.style).toBe('error');
    expectSafe(xss.body_html);
    expect(xss.body_html).toBe('\n<img src="x.png" />\n<a>a</a>\n[b](javascript:alert(4))\n');
  });

  it('shows GraphQL the same, with the Markdown as sent (the selections of bktide)', async () => {
    const response = await world.call('POST', '/graphql', {
      body: {
        query: `query ($slug: ID!) {
          build(slug: $slug) {
            summary: annotations(first: 50) { edges { node { id style context body { html } } } }
            full: annotations(first: 100) {
              count
              edges { node { id uuid style context priority scope body { text html } createdAt updatedAt } }
            }
            errors: annotations(first: 10, style: [ERROR]) { count edges { node { context } } }
          }
        }`,
        variables: { slug: `acme/${pipeline}/${number}` },
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    const build = response.body.data.build;
    expect(build.summary.edges.map((e: { node: { context: string } }) => e.node.context)).toEqual([
      'xss',
      'notes',
    ]);
    expect(build.full.count).toBe(2);
    const notes = build.full.edges[1].node;
    expect(notes).toMatchObject({
      style: 'INFO',
      context: 'notes',
      priority: 3,
      scope: 'BUILD',
      body: { text: 'First **line**; [docs](https://example.com/docs)' },
    });
    expect(Date.parse(notes.updatedAt)).toBeGreaterThanOrEqual(Date.parse(notes.createdAt));
    const rest = (await world.call('GET', annotationsPath())).body;
    expect(build.full.edges.map((e: { node: { uuid: string } }) => e.node.uuid)).toEqual(
      rest.map((a: { id: string }) => a.id),
    );
    expect(notes.body.html).toBe(rest[1].body_html);
    expect(build.errors).toEqual({ count: 1, edges: [{ node: { context: 'xss' } }] });
    expectSafe(build.full.edges[0].node.body.html);
  });
});
