import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectMessage,
  expectNoContent,
  ISO_MS_Z,
  linksOf,
  UNKNOWN_UUID,
  UUID_V7,
  walkPages,
} from '../support/answers';
import { recorded, shapeDifferences } from '../support/recorded';
import { API_URL, startWorld, WEB_URL, type World } from '../support/world';

/**
 * Clusters, queues and cluster agent tokens on /v2 through the real HTTP server and PostgreSQL (issue 28):
 * every endpoint's status and shape against its recorded response, values, scopes, roles, other
 * organizations' clusters, validation, pagination, and pipelines' `cluster_id`.
 */

type Json = Record<string, unknown>;

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world?.close());

const CLUSTERS = '/v2/organizations/acme/clusters';
const clusterPath = (id: string, organization = 'acme') => `/v2/organizations/${organization}/clusters/${id}`;

async function expectStatus(response: Awaited<ReturnType<World['call']>>, status: number) {
  expect(response.status, response.text).toBe(status);
  return response.body;
}

/** A cluster made through the API as `admin` (or `token`). */
async function createCluster(body: Json = {}, options: { token?: string; organization?: string } = {}) {
  const response = await world.call('POST', `/v2/organizations/${options.organization ?? 'acme'}/clusters`, {
    body: { name: 'Private Apps', ...body },
    ...(options.token ? { token: options.token } : {}),
  });
  return expectStatus(response, 201);
}

async function createQueue(clusterId: string, body: Json, organization = 'acme') {
  const response = await world.call('POST', `${clusterPath(clusterId, organization)}/queues`, { body });
  return expectStatus(response, 201);
}

async function createToken(clusterId: string, body: Json = { description: 'Windows Agents' }) {
  return expectStatus(await world.call('POST', `${clusterPath(clusterId)}/tokens`, { body }), 201);
}

/** Our answer has every key of the recorded one with its JSON type and null-versus-empty choice. */
function expectRecordedShape(body: unknown, name: string) {
  expect(shapeDifferences(body, recorded(name).response.body)).toEqual([]);
}

describe('clusters decode as the recorded ones', () => {
  it('answers create with 201 in the recorded shape, with no default queue yet', async () => {
    const response = await world.call('POST', CLUSTERS, { body: recorded('cluster_create').request.body });
    const cluster = await expectStatus(response, 201);
    expectRecordedShape(cluster, 'cluster_create');
    expect(Object.keys(cluster)).toEqual(Object.keys(recorded('cluster_create').response.body as Json));
    expect(cluster.id).toMatch(UUID_V7);
    expect(cluster).toEqual({
      id: cluster.id,
      graphql_id: Buffer.from(`Cluster---${cluster.id}`).toString('base64'),
      default_queue_id: null,
      name: 'Private Apps',
      description: null,
      emoji: null,
      color: null,
      url: `${API_URL}${clusterPath(cluster.id)}`,
      web_url: `${WEB_URL}/organizations/acme/clusters/${cluster.id}`,
      queues_url: `${API_URL}${clusterPath(cluster.id)}/queues`,
      default_queue_url: null,
      created_at: expect.stringMatching(ISO_MS_Z),
      created_by: expect.objectContaining({ id: world.users.admin.id, name: 'Ada Admin' }),
    });
  });

  it('answers get, list and update in the recorded shapes', async () => {
    const cluster = await createCluster({ name: 'Open Source', description: '' });
    const queue = await createQueue(cluster.id, { key: 'default' });
    const got = await expectStatus(await world.call('GET', clusterPath(cluster.id)), 200);
    expectRecordedShape(got, 'cluster_retrieve');
    expect(got).toMatchObject({
      default_queue_id: queue.id,
      default_queue_url: `${API_URL}${clusterPath(cluster.id)}/queues/${queue.id}`,
      description: '',
    });
    const list = await expectStatus(await world.call('GET', CLUSTERS), 200);
    // The recorded cluster was given a blank description; the clusters made without one show null.
    expectRecordedShape(
      list.filter((item: Json) => item.id === cluster.id),
      'cluster_list',
    );
    expect(list.map((item: Json) => item.id)).toContain(cluster.id);
    const updated = await world.call('PATCH', clusterPath(cluster.id), {
      body: recorded('cluster_update').request.body,
    });
    expectRecordedShape(await expectStatus(updated, 200), 'cluster_update');
    expect(updated.body).toMatchObject({ name: 'Open Source', description: 'Updated description' });
  });

  it('answers every queue endpoint in the recorded shapes', async () => {
    const cluster = await createCluster();
    const queues = `${clusterPath(cluster.id)}/queues`;
    const created = await world.call('POST', queues, { body: recorded('cluster_queue_create').request.body });
    const queue = await expectStatus(created, 201);
    expectRecordedShape(queue, 'cluster_queue_create');
    expect(queue).toMatchObject({
      key: 'arm64',
      description: null,
      url: `${API_URL}${queues}/${queue.id}`,
      web_url: `${WEB_URL}/organizations/acme/clusters/${cluster.id}/queues/${queue.id}`,
      cluster_url: `${API_URL}${clusterPath(cluster.id)}`,
      dispatch_paused: false,
      created_by: expect.objectContaining({ id: world.users.admin.id }),
    });
    expect(Buffer.from(queue.graphql_id, 'base64').toString()).toBe(`ClusterQueue---${queue.id}`);
    expectRecordedShape(await expectStatus(await world.call('GET', queues), 200), 'cluster_queue_list');
    const path = `${queues}/${queue.id}`;
    expectRecordedShape(await expectStatus(await world.call('GET', path), 200), 'cluster_queue_retrieve');
    const updated = await world.call('PATCH', path, { body: recorded('cluster_queue_update').request.body });
    expectRecordedShape(await expectStatus(updated, 200), 'cluster_queue_update');
    expect(updated.body.description).toBe('Queue for ARM builds');

    const paused = await world.call('POST', `${path}/pause_dispatch`, {
      body: recorded('cluster_queue_pause').request.body,
    });
    expectRecordedShape(await expectStatus(paused, 200), 'cluster_queue_pause');
    expect(paused.body).toMatchObject({
      dispatch_paused: true,
      dispatch_paused_by: expect.objectContaining({ id: world.users.admin.id }),
      dispatch_paused_at: expect.stringMatching(ISO_MS_Z),
      dispatch_paused_note: 'Paused while we investigate a security issue',
    });
    const resumed = await world.call('POST', `${path}/resume_dispatch`, { body: {} });
    expectRecordedShape(await expectStatus(resumed, 200), 'cluster_queue_resume');
    expect(resumed.body).toMatchObject({
      dispatch_paused: false,
      dispatch_paused_by: null,
      dispatch_paused_at: null,
      dispatch_paused_note: null,
    });

    expectNoContent(await world.call('DELETE', path));
    expect(recorded('cluster_queue_delete').response.status).toBe(204);
    expectMessage(await world.call('GET', path), 404, 'No cluster queue found');
  });

  it('answers every token endpoint in the recorded shapes, showing the token once', async () => {
    const cluster = await createCluster();
    const tokens = `${clusterPath(cluster.id)}/tokens`;
    const created = await world.call('POST', tokens, { body: recorded('cluster_token_create').request.body });
    const token = await expectStatus(created, 201);
    expectRecordedShape(token, 'cluster_token_create');
    expect(token).toMatchObject({
      description: 'Windows Agents',
      url: `${API_URL}${tokens}/${token.id}`,
      cluster_url: `${API_URL}${clusterPath(cluster.id)}`,
      allowed_ip_addresses: null,
      token: expect.stringMatching(/^bkrt_[0-9a-f]{48}$/),
    });
    const list = await expectStatus(await world.call('GET', tokens), 200);
    expectRecordedShape(list, 'cluster_token_list');
    const path = `${tokens}/${token.id}`;
    const got = await expectStatus(await world.call('GET', path), 200);
    expectRecordedShape(got, 'cluster_token_retrieve');
    for (const shown of [got, ...list]) expect(shown).not.toHaveProperty('token');
    const updated = await world.call('PATCH', path, { body: recorded('cluster_token_update').request.body });
    expectRecordedShape(await expectStatus(updated, 200), 'cluster_token_update');
    expect(updated.body.allowed_ip_addresses).toBe('1.1.1.1');
    expectNoContent(await world.call('DELETE', path));
    expectMessage(await world.call('GET', path), 404, 'No cluster token found');
  });

  it('answers delete with 204 and forgets the cluster', async () => {
    const cluster = await createCluster();
    expect(recorded('cluster_delete').response.status).toBe(204);
    expectNoContent(await world.call('DELETE', clusterPath(cluster.id)));
    expectMessage(await world.call('GET', clusterPath(cluster.id)), 404, 'No cluster found');
  });
});

describe('cluster tokens', () => {
  it('are stored only as the SHA-256 of the token', async () => {
    const cluster = await createCluster();
    const token = await createToken(cluster.id);
    const rows = await world.server.database.sql.query<Json>('select * from cluster_tokens where id = $1', [
      token.id,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(createHash('sha256').update(token.token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token.token);
  });

  it('normalise allowed IP addresses, clear them with null and refuse what is not one', async () => {
    const cluster = await createCluster();
    const token = await createToken(cluster.id, {
      description: 'CI',
      allowed_ip_addresses: ' 10.0.0.0/8   2001:db8::/32 ',
    });
    expect(token.allowed_ip_addresses).toBe('10.0.0.0/8 2001:db8::/32');
    const path = `${clusterPath(cluster.id)}/tokens/${token.id}`;
    const cleared = await world.call('PATCH', path, { body: { allowed_ip_addresses: null } });
    expect((await expectStatus(cleared, 200)).allowed_ip_addresses).toBeNull();
    expectMessage(
      await world.call('PATCH', path, { body: { allowed_ip_addresses: '1.2.3.4 nope' } }),
      422,
      'Validation failed: Allowed ip addresses contains an invalid address: nope',
    );
    expectMessage(
      await world.call('POST', `${clusterPath(cluster.id)}/tokens`, { body: {} }),
      422,
      "Validation failed: Description can't be blank",
    );
  });
});

describe('default queues', () => {
  it("make the cluster's first queue its default, and change or remove it by PATCH", async () => {
    const cluster = await createCluster();
    const first = await createQueue(cluster.id, { key: 'default' });
    const second = await createQueue(cluster.id, { key: 'arm64' });
    const read = async () => expectStatus(await world.call('GET', clusterPath(cluster.id)), 200);
    expect((await read()).default_queue_id).toBe(first.id);

    const changed = await world.call('PATCH', clusterPath(cluster.id), {
      body: { default_queue_id: second.id },
    });
    expect(await expectStatus(changed, 200)).toMatchObject({
      default_queue_id: second.id,
      default_queue_url: `${API_URL}${clusterPath(cluster.id)}/queues/${second.id}`,
    });
    const removed = await world.call('PATCH', clusterPath(cluster.id), { body: { default_queue_id: null } });
    expect(await expectStatus(removed, 200)).toMatchObject({
      default_queue_id: null,
      default_queue_url: null,
    });
  });

  it('refuses a queue of another cluster as the default', async () => {
    const cluster = await createCluster();
    const another = await createCluster({ name: 'Another' });
    const foreign = await createQueue(another.id, { key: 'default' });
    expectMessage(
      await world.call('PATCH', clusterPath(cluster.id), { body: { default_queue_id: foreign.id } }),
      422,
      'Validation failed: Default queue must be a queue of this cluster',
    );
  });

  it('leave the cluster without one when the default queue is deleted', async () => {
    const cluster = await createCluster();
    const queue = await createQueue(cluster.id, { key: 'default' });
    expectNoContent(await world.call('DELETE', `${clusterPath(cluster.id)}/queues/${queue.id}`));
    expect(
      (await expectStatus(await world.call('GET', clusterPath(cluster.id)), 200)).default_queue_id,
    ).toBeNull();
  });
});

describe('validation', () => {
  it.each([
    [{}, "Validation failed: Name can't be blank"],
    [{ name: 5, color: 3 }, 'Validation failed: Name is invalid, Color is invalid'],
    [{ name: 'a'.repeat(256) }, 'Validation failed: Name is too long (maximum is 255 characters)'],
  ])('refuses the cluster %j with 422', async (body, message) => {
    expectMessage(await world.call('POST', CLUSTERS, { body }), 422, message);
  });

  it('refuses a taken queue key and a key that is not one', async () => {
    const cluster = await createCluster();
    await createQueue(cluster.id, { key: 'linux' });
    const queues = `${clusterPath(cluster.id)}/queues`;
    expectMessage(
      await world.call('POST', queues, { body: { key: 'linux' } }),
      422,
      'Validation failed: Key has already been taken',
    );
    expectMessage(
      await world.call('POST', queues, { body: { key: 'two words' } }),
      422,
      'Validation failed: Key may only contain letters, digits, dots, hyphens and underscores',
    );
  });

  it('lets two clusters have queues of the same key', async () => {
    const [one, two] = [await createCluster(), await createCluster()];
    await createQueue(one.id, { key: 'same' });
    await expect(createQueue(two.id, { key: 'same' })).resolves.toMatchObject({ key: 'same' });
  });
});

describe('who may do what', () => {
  let cluster: Json;
  let queue: Json;
  let token: Json;
  beforeAll(async () => {
    cluster = await createCluster({ name: 'Guarded' });
    queue = await createQueue(cluster.id as string, { key: 'guarded' });
    token = await createToken(cluster.id as string);
  });

  const reads = () => [
    CLUSTERS,
    clusterPath(cluster.id as string),
    `${clusterPath(cluster.id as string)}/queues`,
    `${clusterPath(cluster.id as string)}/queues/${queue.id}`,
    `${clusterPath(cluster.id as string)}/tokens`,
    `${clusterPath(cluster.id as string)}/tokens/${token.id}`,
  ];
  const writes = (): Array<[string, string, Json?]> => {
    const path = clusterPath(cluster.id as string);
    return [
      ['POST', CLUSTERS, { name: 'x' }],
      ['PATCH', path, { name: 'x' }],
      ['DELETE', path],
      ['POST', `${path}/queues`, { key: 'x' }],
      ['PATCH', `${path}/queues/${queue.id}`, { description: 'x' }],
      ['DELETE', `${path}/queues/${queue.id}`],
      ['POST', `${path}/queues/${queue.id}/pause_dispatch`, {}],
      ['POST', `${path}/queues/${queue.id}/resume_dispatch`, {}],
      ['POST', `${path}/tokens`, { description: 'x' }],
      ['PATCH', `${path}/tokens/${token.id}`, { description: 'x' }],
      ['DELETE', `${path}/tokens/${token.id}`],
    ];
  };

  it('lets members read clusters, queues and tokens', async () => {
    for (const path of reads()) {
      expect((await world.call('GET', path, { token: world.tokens.member })).status, path).toBe(200);
    }
  });

  it('refuses members every change with 403 Forbidden', async () => {
    for (const [method, path, body] of writes()) {
      const response = await world.call(method, path, {
        token: world.tokens.member,
        ...(body ? { body } : {}),
      });
      expectMessage(response, 403, 'Forbidden');
    }
  });

  it('needs read_clusters to read and write_clusters to change, before anything else', async () => {
    const reader = await world.token('admin', { scopes: ['read_clusters'] });
    const writer = await world.token('admin', { scopes: ['write_clusters'] });
    for (const path of reads()) {
      const response = await world.call('GET', path, { token: writer });
      expectMessage(response, 403, "Your access token doesn't have the read_clusters scope");
      expect(response.headers.get('x-accepted-oauth-scopes')).toBe('read_clusters');
    }
    for (const [method, path, body] of writes()) {
      const response = await world.call(method, path, { token: reader, ...(body ? { body } : {}) });
      expectMessage(response, 403, "Your access token doesn't have the write_clusters scope");
    }
  });

  it("answers 404 for another organization's cluster, an outsider and what is no UUID", async () => {
    const theirs = await createCluster(
      { name: 'Theirs' },
      { token: world.tokens.outsider, organization: 'other' },
    );
    expectMessage(await world.call('GET', clusterPath(theirs.id)), 404, 'No cluster found');
    expectMessage(
      await world.call('PATCH', clusterPath(theirs.id), { body: { name: 'x' } }),
      404,
      'No cluster found',
    );
    expectMessage(await world.call('DELETE', clusterPath(theirs.id)), 404, 'No cluster found');
    expectMessage(await world.call('GET', `${clusterPath(theirs.id)}/queues`), 404, 'No cluster found');
    expectMessage(await world.call('GET', clusterPath('not-a-uuid')), 404, 'No cluster found');
    expectMessage(await world.call('GET', clusterPath(UNKNOWN_UUID)), 404, 'No cluster found');
    expectMessage(
      await world.call('GET', clusterPath(cluster.id as string), { token: world.tokens.outsider }),
      404,
      'No organization found',
    );
    // A queue or token named under another cluster of the organization is not found there.
    const other = await createCluster({ name: 'Other' });
    expectMessage(
      await world.call('GET', `${clusterPath(other.id)}/queues/${queue.id}`),
      404,
      'No cluster queue found',
    );
    expectMessage(
      await world.call('GET', `${clusterPath(other.id)}/tokens/${token.id}`),
      404,
      'No cluster token found',
    );
  });
});

describe('lists', () => {
  it('page oldest first with Link headers', async () => {
    const outsider = world.tokens.outsider;
    const made: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      made.push((await createCluster({ name }, { token: outsider, organization: 'other' })).id);
    }
    const get = (path: string) => world.call('GET', path, { token: outsider });
    const first = await get('/v2/organizations/other/clusters?per_page=2');
    expect(Object.keys(linksOf(first.headers.get('link')))).toEqual(['next', 'last']);
    const { items } = await walkPages(get, '/v2/organizations/other/clusters?per_page=2');
    expect((items as Json[]).map((item) => item.id).filter((id) => made.includes(id as string))).toEqual(
      made,
    );

    const cluster = made[0] as string;
    const keys = ['a', 'b', 'c'];
    for (const key of keys) {
      const response = await world.call('POST', `${clusterPath(cluster, 'other')}/queues`, {
        token: outsider,
        body: { key },
      });
      await expectStatus(response, 201);
      await expectStatus(
        await world.call('POST', `${clusterPath(cluster, 'other')}/tokens`, {
          token: outsider,
          body: { description: key },
        }),
        201,
      );
    }
    const queues = await walkPages(get, `${clusterPath(cluster, 'other')}/queues?per_page=2`);
    expect(queues.pages).toHaveLength(2);
    expect((queues.items as Json[]).map((item) => item.key)).toEqual(keys);
    const tokens = await walkPages(get, `${clusterPath(cluster, 'other')}/tokens?per_page=2`);
    expect((tokens.items as Json[]).map((item) => item.description)).toEqual(keys);
  });
});

describe("deleting a cluster and pipelines' cluster_id", () => {
  const PIPELINE = '/v2/organizations/acme/pipelines/web';

  it('takes the queues and tokens with the cluster', async () => {
    const cluster = await createCluster();
    const queue = await createQueue(cluster.id, { key: 'gone' });
    await createToken(cluster.id);
    expectNoContent(await world.call('DELETE', clusterPath(cluster.id)));
    const left = await world.server.database.sql.query<{ n: string }>(
      `select (select count(*) from cluster_queues where cluster_id = $1)
            + (select count(*) from cluster_tokens where cluster_id = $1) as n`,
      [cluster.id],
    );
    expect(Number(left[0]?.n)).toBe(0);
    expect(queue.id).toBeTruthy();
  });

  it('refuses a cluster_id that names no cluster of the organization, with 422', async () => {
    const theirs = await createCluster(
      { name: 'Theirs' },
      { token: world.tokens.outsider, organization: 'other' },
    );
    const refusal = (clusterId: string) => ({
      message: 'Validation Failed',
      errors: [
        {
          field: 'cluster_id',
          code: 'invalid',
          message: `cluster_id names ${clusterId}, which is not a cluster of this organization`,
        },
      ],
    });
    for (const clusterId of [UNKNOWN_UUID, theirs.id]) {
      const response = await world.call('PATCH', PIPELINE, { body: { cluster_id: clusterId } });
      expect(response.status, response.text).toBe(422);
      expect(response.body).toEqual(refusal(clusterId));
    }
    const created = await world.call('POST', '/v2/organizations/acme/pipelines', {
      body: {
        name: 'clustered',
        repository: 'git@example.com:a/b.git',
        cluster_id: UNKNOWN_UUID,
        configuration: 'steps:\n  - command: echo hi\n',
      },
    });
    expect(created.status, created.text).toBe(422);
    expect(created.body).toEqual(refusal(UNKNOWN_UUID));
  });

  it('refuses to delete a cluster pipelines use (422), and deletes it once they leave', async () => {
    const cluster = await createCluster({ name: 'In use' });
    const moved = await world.call('PATCH', PIPELINE, { body: { cluster_id: cluster.id } });
    expect((await expectStatus(moved, 200)).cluster_id).toBe(cluster.id);
    expectMessage(
      await world.call('DELETE', clusterPath(cluster.id)),
      422,
      "This cluster can't be deleted: 1 pipeline uses it. Move it to another cluster first.",
    );
    await expectStatus(await world.call('PATCH', PIPELINE, { body: { cluster_id: null } }), 200);
    expectNoContent(await world.call('DELETE', clusterPath(cluster.id)));
  });

  it('creates a pipeline in a cluster of its organization', async () => {
    const cluster = await createCluster({ name: 'For new pipelines' });
    const created = await world.call('POST', '/v2/organizations/acme/pipelines', {
      body: {
        name: 'clustered pipeline',
        repository: 'git@example.com:a/b.git',
        cluster_id: cluster.id,
        configuration: 'steps:\n  - command: echo hi\n',
      },
    });
    expect((await expectStatus(created, 201)).cluster_id).toBe(cluster.id);
  });
});
