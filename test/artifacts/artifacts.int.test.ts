import { createHash } from 'node:crypto';
import { encodeGraphqlId } from '@ci/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentProtocol } from '../support/agent-protocol';
import { errorsOf, type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/**
 * The artifact calls of /v3 driven by hand, and the REST endpoints and GraphQL fields that show what
 * they stored.
 */

let world: GraphqlWorld;
let protocol: ReturnType<typeof agentProtocol>;
let agent: string;
let jobId: string;
let buildNumber: number;
let buildId: string;
const PIPELINE = '/v2/organizations/acme/pipelines/web';

const digest = (algorithm: string, bytes: Uint8Array) => createHash(algorithm).update(bytes).digest('hex');
const declare = (path: string, bytes: Uint8Array, change: Record<string, unknown> = {}) => ({
  path,
  file_size: bytes.byteLength,
  sha1sum: digest('sha1', bytes),
  sha256sum: digest('sha256', bytes),
  ...change,
});

const raw = async (method: string, path: string, body?: Uint8Array, token = agent) => {
  const response = await world.server.fetch(path, {
    method,
    headers: { Authorization: `Token ${token}` },
    ...(body ? { body: body as Uint8Array<ArrayBuffer> } : {}),
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: the untyped JSON an agent reads
  return { status: response.status, body: (text ? JSON.parse(text) : null) as any };
};

async function upload(path: string, bytes: Uint8Array, change: Record<string, unknown> = {}) {
  const created = await protocol.v3('POST', `/jobs/${jobId}/artifacts`, agent, {
    artifacts: [declare(path, bytes, change)],
  });
  const id = created.artifact_ids[0] as string;
  const stored = await raw('PUT', `/v3/jobs/${jobId}/artifacts/${id}/data`, bytes);
  return { id, stored };
}

beforeAll(async () => {
  world = await startGraphqlWorld();
  const registration = (await world.server.useCases.admin.createAgentToken({ organization: 'acme' })).secret;
  protocol = agentProtocol(world.server, registration);
  agent = (await protocol.register({ name: 'artifacts' })).token;
  const build = await world.createBuild('web');
  buildNumber = build.number;
  buildId = build.id;
  jobId = await protocol.start(agent);
});
afterAll(async () => {
  await world?.close();
});

describe('uploading artifacts over /v3', () => {
  const readme = Buffer.from('# hello\n');

  it('declares a batch as new, then stores checked bytes as finished', async () => {
    const created = await protocol.v3('POST', `/jobs/${jobId}/artifacts`, agent, {
      artifacts: [declare('README.md', readme)],
    });
    expect(created.artifact_ids).toHaveLength(1);
    expect(created.artifacts[0]).toMatchObject({ path: 'README.md', state: 'new', file_size: readme.length });
    expect(created.upload_instructions.action).toMatchObject({
      method: 'PUT',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the public agent's placeholder
      path: '${artifact:id}/data',
    });
    const id = created.artifact_ids[0];
    const stored = await raw('PUT', `/v3/jobs/${jobId}/artifacts/${id}/data`, readme);
    expect(stored.status).toBe(200);
    expect(stored.body.state).toBe('finished');

    const listed = await world.call('GET', `${PIPELINE}/builds/${buildNumber}/jobs/${jobId}/artifacts`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({
        id,
        job_id: jobId,
        path: 'README.md',
        dirname: '.',
        filename: 'README.md',
        mime_type: 'text/markdown',
        file_size: readme.length,
        state: 'finished',
        sha1sum: digest('sha1', readme),
        glob_path: null,
        original_path: null,
      }),
    ]);
    expect(listed.body[0].download_url).toBe(`${listed.body[0].url}/download`);
  });

  it('redirects a download to a signed address that serves the bytes without a token', async () => {
    const { id } = await upload('out/data.bin', Buffer.from([1, 2, 3]));
    const download = await world.server.fetch(
      `${PIPELINE}/builds/${buildNumber}/jobs/${jobId}/artifacts/${id}/download`,
      { headers: { Authorization: `Bearer ${world.tokens.admin}` }, redirect: 'manual' },
    );
    expect(download.status).toBe(302);
    const location = download.headers.get('location') as string;
    expect((await download.json()).url).toBe(location);
    const served = await fetch(location);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(Buffer.from([1, 2, 3]));
    expect(served.headers.get('content-type')).toBe('application/octet-stream');
    // A changed signature serves nothing.
    const forged = await fetch(location.replace(/signature=[^&]+/, 'signature=forged'));
    expect(forged.status).toBe(404);
  });

  it('finds finished artifacts by glob and step for other jobs of the build', async () => {
    await upload('logs/a.log', Buffer.from('a'));
    const search = (query: string) =>
      protocol.v3('GET', `/builds/${buildId}/artifacts/search?query=${encodeURIComponent(query)}`, agent);
    expect((await search('logs/*.log')).map((found: { path: string }) => found.path)).toEqual(['logs/a.log']);
    expect(await search('*.log')).toEqual([]);
    const [found] = await search('**/a.log');
    expect(Buffer.from(await (await fetch(found.url)).arrayBuffer()).toString()).toBe('a');
    expect(await protocol.v3('GET', `/builds/${buildId}/artifacts/search?query=*&step=test`, agent)).toEqual(
      [],
    );
    expect(
      (await protocol.v3('GET', `/builds/${buildId}/artifacts/search?query=README.md&step=build`, agent))
        .length,
    ).toBe(1);
  });

  it('refuses paths that leave the working directory and stores nothing', async () => {
    for (const path of ['../escape.txt', '/etc/passwd', 'a/../../b']) {
      const refused = await world.server.fetch(`/v3/jobs/${jobId}/artifacts`, {
        method: 'POST',
        headers: { Authorization: `Token ${agent}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ artifacts: [declare('ok.txt', readme), declare(path, readme)] }),
      });
      expect(refused.status).toBe(400);
      expect((await refused.json()).message).toMatch(/working directory|relative/);
    }
    const listed = await world.call('GET', `${PIPELINE}/builds/${buildNumber}/artifacts`);
    expect(listed.body.map((artifact: { path: string }) => artifact.path)).not.toContain('ok.txt');
  });

  it('refuses a declared size past the limit with 413', async () => {
    const response = await world.server.fetch(`/v3/jobs/${jobId}/artifacts`, {
      method: 'POST',
      headers: { Authorization: `Token ${agent}` },
      body: JSON.stringify({ artifacts: [declare('huge.bin', readme, { file_size: 2 * 1024 * 1024 })] }),
    });
    expect(response.status).toBe(413);
    expect((await response.json()).message).toContain('the limit is 1048576');
  });

  it('refuses bytes past the declared size with 413 and marks the artifact error', async () => {
    const { id, stored } = await upload('short.txt', Buffer.from('abcdef'), { file_size: 3 });
    expect(stored.status).toBe(413);
    const artifact = await world.call(
      'GET',
      `${PIPELINE}/builds/${buildNumber}/jobs/${jobId}/artifacts/${id}`,
    );
    expect(artifact.body.state).toBe('error');
  });

  it('refuses bytes whose checksum differs with 422, keeping nothing', async () => {
    const { id, stored } = await upload('tampered.txt', Buffer.from('abc'), {
      sha1sum: digest('sha1', Buffer.from('abd')),
    });
    expect(stored.status).toBe(422);
    expect(stored.body.message).toContain('sha1sum');
    const download = await world.call(
      'GET',
      `${PIPELINE}/builds/${buildNumber}/jobs/${jobId}/artifacts/${id}/download`,
    );
    expect(download.status).toBe(404);
    const again = await raw('PUT', `/v3/jobs/${jobId}/artifacts/${id}/data`, Buffer.from('abc'));
    expect(again.status).toBe(422);
  });

  it('takes error from the agent, refuses finished without bytes', async () => {
    const created = await protocol.v3('POST', `/jobs/${jobId}/artifacts`, agent, {
      artifacts: [declare('never.txt', readme), declare('failed.txt', readme)],
    });
    const [never, failed] = created.artifact_ids;
    const finish = await world.server.fetch(`/v3/jobs/${jobId}/artifacts`, {
      method: 'PUT',
      headers: { Authorization: `Token ${agent}` },
      body: JSON.stringify({ artifacts: [{ id: never, state: 'finished' }] }),
    });
    expect(finish.status).toBe(422);
    const error = await world.server.fetch(`/v3/jobs/${jobId}/artifacts`, {
      method: 'PUT',
      headers: { Authorization: `Token ${agent}` },
      body: JSON.stringify({ artifacts: [{ id: failed, state: 'error' }] }),
    });
    expect(error.status).toBe(204);
  });

  it("refuses another agent's job and unknown tokens", async () => {
    const other = (await protocol.register({ name: 'other' })).token;
    const body = Buffer.from(JSON.stringify({ artifacts: [declare('x.txt', readme)] }));
    expect((await raw('POST', `/v3/jobs/${jobId}/artifacts`, body, other)).status).toBe(404);
    expect((await raw('POST', `/v3/jobs/${jobId}/artifacts`, body, 'nope')).status).toBe(401);
  });
});

describe('artifacts over REST', () => {
  it('lists a build and pages it with Link', async () => {
    const all = await world.call('GET', `${PIPELINE}/builds/${buildNumber}/artifacts`);
    expect(all.status).toBe(200);
    expect(all.body.length).toBeGreaterThan(2);
    const page = await world.call('GET', `${PIPELINE}/builds/${buildNumber}/artifacts?per_page=1`);
    expect(page.body).toHaveLength(1);
    expect(page.headers.get('link')).toContain('rel="next"');
  });

  it('needs read_artifacts to read and write_artifacts to delete', async () => {
    const reader = await world.token('admin', { scopes: ['read_artifacts'] });
    const builds = await world.token('admin', { scopes: ['read_builds'] });
    const path = `${PIPELINE}/builds/${buildNumber}/artifacts`;
    expect((await world.call('GET', path, { token: reader })).status).toBe(200);
    const refused = await world.call('GET', path, { token: builds });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Your access token doesn't have the read_artifacts scope");
    const [first] = (await world.call('GET', path)).body;
    const deleting = await world.call('DELETE', first.url.replace(/^https?:\/\/[^/]+/, ''), {
      token: reader,
    });
    expect(deleting.status).toBe(403);
    expect(deleting.body.message).toBe("Your access token doesn't have the write_artifacts scope");
    // write_artifacts deletes, and is no read scope.
    const writer = await world.token('admin', { scopes: ['write_artifacts'] });
    const { id } = await upload('written-off.txt', Buffer.from('w'));
    const own = `${PIPELINE}/builds/${buildNumber}/jobs/${jobId}/artifacts/${id}`;
    expect((await world.call('GET', own, { token: writer })).status).toBe(403);
    expect((await world.call('GET', `${own}/download`, { token: writer })).status).toBe(403);
    expect((await world.call('DELETE', own, { token: writer })).status).toBe(204);
    expect((await world.call('GET', own)).status).toBe(404);
  });

  it('deletes an artifact: 204, then 404', async () => {
    const { id } = await upload('gone.txt', Buffer.from('bye'));
    const path = `${PIPELINE}/builds/${buildNumber}/jobs/${jobId}/artifacts/${id}`;
    const deleted = await world.call('DELETE', path);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await world.call('GET', path)).status).toBe(404);
  });

  it('answers 404 for an artifact of another job or one that does not exist', async () => {
    const other = '00000000-0000-7000-8000-000000000000';
    expect(
      (await world.call('GET', `${PIPELINE}/builds/${buildNumber}/jobs/${jobId}/artifacts/${other}`)).status,
    ).toBe(404);
    expect(
      (await world.call('GET', `${PIPELINE}/builds/${buildNumber}/jobs/${jobId}/artifacts/nope`)).status,
    ).toBe(404);
  });
});

describe('artifacts over GraphQL', () => {
  const NODE = `query ($id: ID!) { node(id: $id) { __typename
    ... on Artifact { id uuid path state size sha1sum job { uuid } } } }`;
  const BY_UUID = 'query ($uuid: ID!) { artifact(uuid: $uuid) { uuid path downloadURL } }';
  const DELETE = `mutation ($input: ArtifactDeleteInput!) {
    artifactDelete(input: $input) { clientMutationId deletedArtifactId artifact { uuid path } } }`;

  it('answers node and artifact(uuid) for an artifact the viewer sees, null where the pipeline is hidden', async () => {
    const bytes = Buffer.from('seen');
    const { id } = await upload('graphql/seen.txt', bytes);
    const graphqlId = encodeGraphqlId('Artifact', id);
    const node = await world.gql(NODE, { id: graphqlId });
    expect(node.body).toEqual({
      data: {
        node: {
          __typename: 'Artifact',
          id: graphqlId,
          uuid: id,
          path: 'graphql/seen.txt',
          state: 'FINISHED',
          size: bytes.length,
          sha1sum: digest('sha1', bytes),
          job: { uuid: jobId },
        },
      },
    });
    const found = await world.gql(BY_UUID, { uuid: id });
    expect(found.body.data.artifact).toMatchObject({ uuid: id, path: 'graphql/seen.txt' });
    expect(Buffer.from(await (await fetch(found.body.data.artifact.downloadURL)).arrayBuffer())).toEqual(
      bytes,
    );

    // `web` belongs to a team the bystander is not in; the outsider is not in acme.
    for (const token of [world.tokens.bystander, world.tokens.outsider]) {
      expect((await world.gql(NODE, { id: graphqlId }, { token })).body).toEqual({ data: { node: null } });
      const hidden = await world.gql(BY_UUID, { uuid: id }, { token });
      expect(hidden.body.data).toEqual({ artifact: null });
      expect(errorsOf(hidden)).toEqual(['No artifact found']);
    }
  });

  it('reads any number of artifacts by node in the statements of one', async () => {
    const listed = await world.call('GET', `${PIPELINE}/builds/${buildNumber}/artifacts?per_page=3`);
    const ids = listed.body.map((artifact: { id: string }) => artifact.id) as string[];
    expect(ids).toHaveLength(3);
    const nodes = (count: number) =>
      world.countStatements(() =>
        world.gql(
          `{ ${ids
            .slice(0, count)
            .map(
              (id, i) => `a${i}: node(id: "${encodeGraphqlId('Artifact', id)}") { ... on Artifact { uuid } }`,
            )
            .join(' ')} }`,
        ),
      );
    const one = await nodes(1);
    const three = await nodes(3);
    expect(Object.values(three.result.body.data)).toEqual(ids.map((uuid) => ({ uuid })));
    expect(three.statements).toBe(one.statements);
  });

  it("deletes with artifactDelete under REST's rules: refused without write_artifacts, then gone", async () => {
    const { id } = await upload('graphql/gone.txt', Buffer.from('bye'));
    const input = { id: encodeGraphqlId('Artifact', id), clientMutationId: 'c-1' };
    const reader = await world.token('admin', { scopes: ['graphql', 'read_builds', 'read_artifacts'] });
    const refused = await world.gql(DELETE, { input }, { token: reader });
    expect(refused.body.data).toEqual({ artifactDelete: null });
    expect(errorsOf(refused)).toEqual(["Your access token doesn't have the write_artifacts scope"]);
    const hidden = await world.gql(DELETE, { input }, { token: world.tokens.outsider });
    expect(errorsOf(hidden)).toEqual(['No artifact found']);

    const deleted = await world.gql(DELETE, { input });
    expect(deleted.body).toEqual({
      data: {
        artifactDelete: {
          clientMutationId: 'c-1',
          deletedArtifactId: input.id,
          artifact: { uuid: id, path: 'graphql/gone.txt' },
        },
      },
    });
    const listed = await world.call(
      'GET',
      `${PIPELINE}/builds/${buildNumber}/jobs/${jobId}/artifacts?per_page=100`,
    );
    expect(listed.body.map((artifact: { id: string }) => artifact.id)).not.toContain(id);
    expect((await world.gql(NODE, { id: input.id })).body).toEqual({ data: { node: null } });
    expect(errorsOf(await world.gql(DELETE, { input }))).toEqual(['No artifact found']);
  });
});
