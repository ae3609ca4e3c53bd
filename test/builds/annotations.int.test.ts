import { encodeGraphqlId } from '@ci/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorsOf, type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/**
 * A build's annotations over REST (list, create, delete), the agent API's annotate with bad input, and
 * GraphQL's `Build.annotations` over a page of builds, `node` and `annotationDelete`.
 */

let world: GraphqlWorld;
let number: number;
let agentJob: { id: string; token: string; number: number };
beforeAll(async () => {
  world = await startGraphqlWorld();
  // An agent driven by hand takes the organization's oldest job: this build's.
  const { number: agentBuild } = await world.createBuild('api');
  const registration = (await world.server.useCases.admin.createAgentToken({ organization: 'acme' })).secret;
  const registered = await v3('POST', '/register', registration, { name: 'annotator' });
  const token = registered.body.access_token as string;
  const ping = await v3('GET', '/ping', token);
  const jobId = ping.body.job.id as string;
  expect((await v3('PUT', `/jobs/${jobId}/accept`, token)).status).toBe(200);
  expect((await v3('PUT', `/jobs/${jobId}/start`, token, {})).status).toBe(200);
  agentJob = { id: jobId, token, number: agentBuild };
  ({ number } = await world.createBuild('web'));
});
afterAll(async () => {
  await world?.close();
});

async function v3(method: string, path: string, token: string, body?: unknown) {
  const response = await world.server.fetch(`/v3${path}`, {
    method,
    headers: { Authorization: `Token ${token}`, 'Content-Type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: the untyped JSON a client sees
  return { status: response.status, body: (text ? JSON.parse(text) : null) as any };
}

const path = (pipeline = 'web', build = number) =>
  `/v2/organizations/acme/pipelines/${pipeline}/builds/${build}/annotations`;
const annotate = (body: unknown, options: { token?: string; pipeline?: string; build?: number } = {}) =>
  world.call('POST', path(options.pipeline, options.build), {
    body,
    ...(options.token ? { token: options.token } : {}),
  });
const list = async (pipeline = 'web', build = number) =>
  (await world.call('GET', path(pipeline, build))).body;
/** The Markdown as stored, which only GraphQL shows. */
async function texts(pipeline: string, build: number) {
  const response = await world.gql(
    'query ($slug: ID!) { build(slug: $slug) { annotations(first: 100) { edges { node { context body { text } } } } } }',
    { slug: `acme/${pipeline}/${build}` },
  );
  expect(response.body.errors, response.text).toBeUndefined();
  return Object.fromEntries(
    response.body.data.build.annotations.edges.map(
      (e: { node: { context: string; body: { text: string } } }) => [e.node.context, e.node.body.text],
    ),
  );
}

describe('REST annotations', () => {
  it('creates one (201) with the defaults: context default, style default', async () => {
    const response = await annotate({ body: 'Hello *there*' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(String),
      context: 'default',
      style: 'default',
      created_at: expect.any(String),
      updated_at: response.body.created_at,
      body_html: '<p>Hello <em>there</em></p>\n',
    });
  });

  it('replaces the same context, appends with append, restyles with no body', async () => {
    const first = (await annotate({ body: 'one', context: 'c', style: 'warning' })).body;
    const replaced = await annotate({ body: 'two', context: 'c' });
    expect(replaced.body).toMatchObject({ id: first.id, style: 'warning', body_html: '<p>two</p>\n' });
    expect(replaced.body.created_at).toBe(first.created_at);
    const appended = await annotate({ body: ' three', context: 'c', append: true, style: 'success' });
    expect(appended.body).toMatchObject({ id: first.id, style: 'success', body_html: '<p>two three</p>\n' });
    const restyled = await annotate({ body: '', context: 'c', style: 'error' });
    expect(restyled.body).toMatchObject({ id: first.id, style: 'error', body_html: '<p>two three</p>\n' });
    expect((await texts('web', number)).c).toBe('two three');
  });

  it.each([
    [{ body: 'x', style: 'loud' }, 'style must be one of success, info, warning, error'],
    [{ body: '', context: 'fresh' }, "body can't be blank"],
    [{ context: 'fresh' }, "body can't be blank"],
    [{ body: 'x', context: 'c'.repeat(101) }, 'context is too long (maximum is 100 characters)'],
    [{ body: 'x', append: 'yes' }, 'append must be true or false'],
  ])('refuses %j with 422 and writes nothing', async (body, message) => {
    const before = await list();
    const response = await annotate(body);
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ message });
    expect(await list()).toEqual(before);
  });

  it('refuses a body past the request limit (413) and writes nothing', async () => {
    const before = await list();
    const response = await annotate({ body: 'a'.repeat(1024 * 1024 + 1), context: 'big' });
    expect(response.status).toBe(413);
    expect(await list()).toEqual(before);
  });

  it('loses no append of many at once to one context', async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i}\n`);
    const answers = await Promise.all(
      lines.map((line) => annotate({ body: line, context: 'race', append: true })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(lines.map(() => 201));
    const text = (await texts('web', number)).race as string;
    expect(text.split('\n').filter(Boolean).sort()).toEqual(lines.map((line) => line.trim()).sort());
  });

  it('lists newest first, a page at a time with a Link header', async () => {
    const all = await list();
    expect(all.map((a: { context: string }) => a.context)).toEqual(['race', 'c', 'default']);
    const page = await world.call('GET', `${path()}?per_page=1&page=2`);
    expect(page.body.map((a: { context: string }) => a.context)).toEqual(['c']);
    expect(page.headers.get('link')).toContain('rel="next"');
  });

  it('deletes one by id (204), then answers 404 for it', async () => {
    const [race] = await list();
    const deleted = await world.call('DELETE', `${path()}/${race.id}`);
    expect(deleted.status).toBe(204);
    expect((await list()).map((a: { id: string }) => a.id)).not.toContain(race.id);
    const again = await world.call('DELETE', `${path()}/${race.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'No annotation found' });
    expect((await world.call('DELETE', `${path()}/not-a-uuid`)).status).toBe(404);
  });

  it('answers 404 for a build that does not exist', async () => {
    expect((await world.call('GET', path('web', 9999))).status).toBe(404);
    expect((await annotate({ body: 'x' }, { build: 9999 })).status).toBe(404);
  });

  it.each([
    ['list', 'GET', 'read_builds'],
    ['create', 'POST', 'write_builds'],
    ['delete', 'DELETE', 'write_builds'],
  ] as const)('%s needs the %s scope', async (_name, method, scope) => {
    const token = await world.token('admin', {
      scopes: (['read_builds', 'write_builds'] as const).filter((s) => s !== scope),
    });
    const target = method === 'DELETE' ? `${path()}/${(await list())[0].id}` : path();
    const response = await world.call(method, target, {
      token,
      ...(method === 'POST' ? { body: { body: 'x' } } : {}),
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: `Your access token doesn't have the ${scope} scope` });
  });
});

describe('the agent API annotate', () => {
  it("annotates its job's build, and refuses a body past 1 MiB with 422", async () => {
    const ok = await v3('POST', `/jobs/${agentJob.id}/annotations`, agentJob.token, {
      body: 'from the agent',
      style: 'success',
      context: 'agent',
    });
    expect(ok.status).toBe(200);
    const big = await v3('POST', `/jobs/${agentJob.id}/annotations`, agentJob.token, {
      body: 'é'.repeat(512 * 1024 + 1),
      context: 'agent',
      append: true,
    });
    expect(big.status).toBe(422);
    expect(big.body.message).toMatch(
      /^body is too large \(1048578 bytes; the maximum is 1048576 bytes, 1 MiB\)$/,
    );
    // An append past the limit in total is refused too.
    const nearly = await v3('POST', `/jobs/${agentJob.id}/annotations`, agentJob.token, {
      body: 'a'.repeat(1024 * 1024 - 5),
      context: 'agent',
      append: true,
    });
    expect(nearly.status).toBe(422);
    expect(await texts('api', agentJob.number)).toEqual({ agent: 'from the agent' });
    expect((await v3('DELETE', `/jobs/${agentJob.id}/annotations/agent`, agentJob.token)).status).toBe(204);
    expect(await texts('api', agentJob.number)).toEqual({});
  });

  it("refuses another agent's job as a missing one", async () => {
    const registration = (await world.server.useCases.admin.createAgentToken({ organization: 'acme' }))
      .secret;
    const other = (await v3('POST', '/register', registration, { name: 'other' })).body.access_token;
    const response = await v3('POST', `/jobs/${agentJob.id}/annotations`, other, { body: 'x' });
    expect(response.status).toBe(404);
  });
});

describe('GraphQL Build.annotations', () => {
  it('reads a page of builds with their annotations in as many statements as a page of two', async () => {
    for (let i = 0; i < 6; i++) {
      const build = await world.createBuild('docs');
      await annotate({ body: `**build ${i}**`, context: 'one' }, { pipeline: 'docs', build: build.number });
      await annotate(
        { body: 'second', context: 'two', style: 'info' },
        { pipeline: 'docs', build: build.number },
      );
    }
    const query = `query ($first: Int) { pipeline(slug: "acme/docs") { builds(first: $first) { edges { node {
      number annotations(first: 10) { count edges { node { uuid context style body { html } } } }
    } } } } }`;
    const { few, many } = await world.pageStatements(query, 2, 6);
    const edges = many.result.body.data.pipeline.builds.edges;
    expect(edges).toHaveLength(6);
    for (const edge of edges) {
      expect(edge.node.annotations.count).toBe(2);
      expect(edge.node.annotations.edges.map((e: { node: { context: string } }) => e.node.context)).toEqual([
        'two',
        'one',
      ]);
    }
    expect(many.statements).toBe(few.statements);
  });
});

describe('GraphQL node and annotationDelete', () => {
  const NODE = `query ($id: ID!) { node(id: $id) { __typename
    ... on Annotation { id uuid context style body { text } } } }`;
  const DELETE = `mutation ($input: AnnotationDeleteInput!) {
    annotationDelete(input: $input) { clientMutationId deletedAnnotationId build { uuid number } } }`;

  it('answers node for an annotation the viewer sees, null where the pipeline is hidden', async () => {
    const { id } = (await annotate({ body: '**seen**', context: 'graphql-node', style: 'info' })).body;
    const graphqlId = encodeGraphqlId('Annotation', id);
    expect((await world.gql(NODE, { id: graphqlId })).body).toEqual({
      data: {
        node: {
          __typename: 'Annotation',
          id: graphqlId,
          uuid: id,
          context: 'graphql-node',
          style: 'INFO',
          body: { text: '**seen**' },
        },
      },
    });
    // `web` belongs to a team the bystander is not in; the outsider is not in acme.
    for (const token of [world.tokens.bystander, world.tokens.outsider]) {
      expect((await world.gql(NODE, { id: graphqlId }, { token })).body).toEqual({ data: { node: null } });
    }
  });

  it("deletes with annotationDelete under REST's rules: refused without write_builds, then gone", async () => {
    const { id } = (await annotate({ body: 'bye', context: 'graphql-delete' })).body;
    const input = { id: encodeGraphqlId('Annotation', id), clientMutationId: 'c-1' };
    const reader = await world.token('admin', { scopes: ['graphql', 'read_builds'] });
    const refused = await world.gql(DELETE, { input }, { token: reader });
    expect(refused.body.data).toEqual({ annotationDelete: null });
    expect(errorsOf(refused)).toEqual(["Your access token doesn't have the write_builds scope"]);
    expect(errorsOf(await world.gql(DELETE, { input }, { token: world.tokens.outsider }))).toEqual([
      'No annotation found',
    ]);

    const build = (await world.call('GET', `/v2/organizations/acme/pipelines/web/builds/${number}`)).body;
    expect((await world.gql(DELETE, { input })).body).toEqual({
      data: {
        annotationDelete: {
          clientMutationId: 'c-1',
          deletedAnnotationId: input.id,
          build: { uuid: build.id, number },
        },
      },
    });
    expect((await list()).map((a: { id: string }) => a.id)).not.toContain(id);
    expect((await world.gql(NODE, { id: input.id })).body).toEqual({ data: { node: null } });
    expect(errorsOf(await world.gql(DELETE, { input }))).toEqual(['No annotation found']);
  });
});
