import { encodeGraphqlId } from '@ci/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../support/answers';
import { type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/**
 * Clusters, queues and cluster agent tokens over /graphql (issue 28): the public schema's queries and
 * mutations, on the REST use cases, their effects seen through REST, and the refusals of REST.
 */

let world: GraphqlWorld;
let organizationId: string;
beforeAll(async () => {
  world = await startGraphqlWorld();
  organizationId = (await world.gql('{ organization(slug: "acme") { id } }')).body.data.organization.id;
});
afterAll(() => world?.close());

function payload(response: Reply, field: string) {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data[field];
}

function refused(response: Reply, field: string, message: string) {
  expect(response.status, response.text).toBe(200);
  expect(response.body.data, response.text).toEqual({ [field]: null });
  expect(response.body.errors.map((error: { message: string }) => error.message)).toEqual([message]);
}

const mutation = (name: string, input: string, selection: string) =>
  `mutation($input: ${input}!) { ${name}(input: $input) { clientMutationId ${selection} } }`;

const CLUSTER_FIELDS = 'id uuid name description emoji color createdBy { name } organization { slug }';
const QUEUE_FIELDS =
  'id uuid key description dispatchPaused dispatchPausedAt dispatchPausedBy { name } dispatchPausedNote hosted retryAgentAffinity cluster { uuid name } createdBy { email }';

async function clusterCreate(input: Record<string, unknown>) {
  return payload(
    await world.gql(mutation('clusterCreate', 'ClusterCreateInput', `cluster { ${CLUSTER_FIELDS} }`), {
      input: { organizationId, ...input },
    }),
    'clusterCreate',
  ).cluster;
}

async function queueCreate(clusterId: string, input: Record<string, unknown>) {
  return payload(
    await world.gql(
      mutation('clusterQueueCreate', 'ClusterQueueCreateInput', `clusterQueue { ${QUEUE_FIELDS} }`),
      {
        input: { organizationId, clusterId, ...input },
      },
    ),
    'clusterQueueCreate',
  ).clusterQueue;
}

describe('cluster mutations', () => {
  it('create, update and delete a cluster, as REST then shows it', async () => {
    const response = await world.gql(
      mutation('clusterCreate', 'ClusterCreateInput', `cluster { ${CLUSTER_FIELDS} }`),
      {
        input: { organizationId, name: 'Open Source', emoji: ':rocket:', clientMutationId: 'c1' },
      },
    );
    const created = payload(response, 'clusterCreate');
    expect(created).toEqual({
      clientMutationId: 'c1',
      cluster: {
        id: encodeGraphqlId('Cluster', created.cluster.uuid),
        uuid: created.cluster.uuid,
        name: 'Open Source',
        description: null,
        emoji: ':rocket:',
        color: null,
        createdBy: { name: 'Ada Admin' },
        organization: { slug: 'acme' },
      },
    });
    const rest = await world.call('GET', `/v2/organizations/acme/clusters/${created.cluster.uuid}`);
    expect(rest.body).toMatchObject({
      graphql_id: created.cluster.id,
      name: 'Open Source',
      emoji: ':rocket:',
    });

    const updated = payload(
      await world.gql(mutation('clusterUpdate', 'ClusterUpdateInput', 'cluster { name description color }'), {
        input: { organizationId, id: created.cluster.id, description: 'OSS', color: '#00ff00' },
      }),
      'clusterUpdate',
    );
    expect(updated.cluster).toEqual({ name: 'Open Source', description: 'OSS', color: '#00ff00' });

    const deleted = payload(
      await world.gql(mutation('clusterDelete', 'ClusterDeleteInput', 'deletedClusterId'), {
        input: { organizationId, id: created.cluster.id },
      }),
      'clusterDelete',
    );
    expect(deleted.deletedClusterId).toBe(created.cluster.id);
    expect((await world.call('GET', `/v2/organizations/acme/clusters/${created.cluster.uuid}`)).status).toBe(
      404,
    );
  });

  it('create queues (the first the default), set and remove the default queue, pause and resume dispatch', async () => {
    const cluster = await clusterCreate({ name: 'Queues' });
    const first = await queueCreate(cluster.id, { key: 'default', description: 'The default' });
    expect(first).toMatchObject({
      key: 'default',
      description: 'The default',
      dispatchPaused: false,
      dispatchPausedBy: null,
      hosted: false,
      retryAgentAffinity: 'prefer-warmest',
      cluster: { uuid: cluster.uuid, name: 'Queues' },
      createdBy: { email: 'admin@acme.test' },
    });
    const second = await queueCreate(cluster.id, {
      key: 'mac',
      hostedAgents: {
        instanceShape: 'MACOS_ARM64_M4_6X28',
        platformSettings: { macos: { xcodeVersion: '16' } },
      },
      retryAgentAffinity: 'prefer-different',
    });
    expect(second).toMatchObject({ key: 'mac', retryAgentAffinity: 'prefer-different' });
    const stored = await world.server.database.sql.query<{ hosted_agents: unknown }>(
      'select hosted_agents from cluster_queues where id = $1',
      [second.uuid],
    );
    expect(stored[0]?.hosted_agents).toEqual({
      instanceShape: 'MACOS_ARM64_M4_6X28',
      platformSettings: { macos: { xcodeVersion: '16' } },
    });

    const DEFAULT = 'cluster { defaultQueue { key } }';
    const setDefault = async (defaultQueueId: string | null) =>
      payload(
        await world.gql(mutation('clusterUpdate', 'ClusterUpdateInput', DEFAULT), {
          input: { organizationId, id: cluster.id, defaultQueueId },
        }),
        'clusterUpdate',
      ).cluster.defaultQueue;
    const rest = async () =>
      (await world.call('GET', `/v2/organizations/acme/clusters/${cluster.uuid}`)).body;
    expect((await rest()).default_queue_id).toBe(first.uuid);
    expect(await setDefault(second.id)).toEqual({ key: 'mac' });
    expect((await rest()).default_queue_id).toBe(second.uuid);
    expect(await setDefault(null)).toBeNull();
    expect((await rest()).default_queue_id).toBeNull();

    const paused = payload(
      await world.gql(
        mutation('clusterQueuePauseDispatch', 'ClusterQueuePauseDispatchInput', `queue { ${QUEUE_FIELDS} }`),
        {
          input: { id: first.id, note: 'maintenance' },
        },
      ),
      'clusterQueuePauseDispatch',
    ).queue;
    expect(paused).toMatchObject({
      dispatchPaused: true,
      dispatchPausedNote: 'maintenance',
      dispatchPausedBy: { name: 'Ada Admin' },
    });
    const queuePath = `/v2/organizations/acme/clusters/${cluster.uuid}/queues/${first.uuid}`;
    expect((await world.call('GET', queuePath)).body).toMatchObject({
      dispatch_paused: true,
      dispatch_paused_note: 'maintenance',
      dispatch_paused_at: paused.dispatchPausedAt,
    });
    const resumed = payload(
      await world.gql(
        mutation(
          'clusterQueueResumeDispatch',
          'ClusterQueueResumeDispatchInput',
          'queue { dispatchPaused dispatchPausedAt }',
        ),
        {
          input: { id: first.id },
        },
      ),
      'clusterQueueResumeDispatch',
    ).queue;
    expect(resumed).toEqual({ dispatchPaused: false, dispatchPausedAt: null });

    const updated = payload(
      await world.gql(
        mutation('clusterQueueUpdate', 'ClusterQueueUpdateInput', 'clusterQueue { key description }'),
        {
          input: { organizationId, id: first.id, description: 'Renamed' },
        },
      ),
      'clusterQueueUpdate',
    ).clusterQueue;
    expect(updated).toEqual({ key: 'default', description: 'Renamed' });

    const deleted = payload(
      await world.gql(mutation('clusterQueueDelete', 'ClusterQueueDeleteInput', 'deletedClusterQueueId'), {
        input: { organizationId, id: first.id },
      }),
      'clusterQueueDelete',
    );
    expect(deleted.deletedClusterQueueId).toBe(first.id);
    expect((await world.call('GET', queuePath)).status).toBe(404);
  });

  it('create a token shown once, update it and revoke it', async () => {
    const cluster = await clusterCreate({ name: 'Tokens' });
    const created = payload(
      await world.gql(
        mutation(
          'clusterAgentTokenCreate',
          'ClusterAgentTokenCreateInput',
          'tokenValue clusterAgentToken { id uuid description allowedIpAddresses expiresAt cluster { uuid } createdBy { name } }',
        ),
        {
          input: {
            organizationId,
            clusterId: cluster.id,
            description: 'Linux agents',
            allowedIpAddresses: '10.0.0.0/8',
            expiresAt: '2030-01-01T00:00:00Z',
          },
        },
      ),
      'clusterAgentTokenCreate',
    );
    expect(created.tokenValue).toMatch(/^bkrt_[0-9a-f]{48}$/);
    expect(created.clusterAgentToken).toMatchObject({
      description: 'Linux agents',
      allowedIpAddresses: '10.0.0.0/8',
      expiresAt: '2030-01-01T00:00:00.000Z',
      cluster: { uuid: cluster.uuid },
      createdBy: { name: 'Ada Admin' },
    });
    const tokenPath = `/v2/organizations/acme/clusters/${cluster.uuid}/tokens/${created.clusterAgentToken.uuid}`;
    expect((await world.call('GET', tokenPath)).body).toMatchObject({ description: 'Linux agents' });

    const updated = payload(
      await world.gql(
        mutation(
          'clusterAgentTokenUpdate',
          'ClusterAgentTokenUpdateInput',
          'clusterAgentToken { description allowedIpAddresses }',
        ),
        {
          input: {
            organizationId,
            id: created.clusterAgentToken.id,
            description: 'Renamed',
            allowedIpAddresses: '1.1.1.1',
          },
        },
      ),
      'clusterAgentTokenUpdate',
    );
    expect(updated.clusterAgentToken).toEqual({ description: 'Renamed', allowedIpAddresses: '1.1.1.1' });
    expect((await world.call('GET', tokenPath)).body.allowed_ip_addresses).toBe('1.1.1.1');

    const revoked = payload(
      await world.gql(
        mutation('clusterAgentTokenRevoke', 'ClusterAgentTokenRevokeInput', 'deletedClusterAgentTokenId'),
        {
          input: { organizationId, id: created.clusterAgentToken.id },
        },
      ),
      'clusterAgentTokenRevoke',
    );
    expect(revoked.deletedClusterAgentTokenId).toBe(created.clusterAgentToken.id);
    expect((await world.call('GET', tokenPath)).status).toBe(404);
  });

  it('refuses as REST does: members, missing scopes, other organizations, bad input', async () => {
    const cluster = await clusterCreate({ name: 'Refusals' });
    const create = mutation('clusterCreate', 'ClusterCreateInput', 'cluster { id }');
    refused(
      await world.gql(create, { input: { organizationId, name: 'x' } }, { token: world.tokens.member }),
      'clusterCreate',
      'Forbidden',
    );
    const noWrite = await world.token('admin', { scopes: ['graphql', 'read_clusters'] });
    refused(
      await world.gql(create, { input: { organizationId, name: 'x' } }, { token: noWrite }),
      'clusterCreate',
      "Your access token doesn't have the write_clusters scope",
    );
    refused(
      await world.gql(create, { input: { organizationId, name: ' ' } }),
      'clusterCreate',
      "Validation failed: Name can't be blank",
    );
    const otherOrganization = (
      await world.gql('{ organization(slug: "other") { id } }', {}, { token: world.tokens.outsider })
    ).body.data.organization.id;
    refused(
      await world.gql(mutation('clusterUpdate', 'ClusterUpdateInput', 'cluster { id }'), {
        input: { organizationId: otherOrganization, id: cluster.id, name: 'x' },
      }),
      'clusterUpdate',
      'No cluster found',
    );
    refused(
      await world.gql(
        mutation('clusterQueuePauseDispatch', 'ClusterQueuePauseDispatchInput', 'queue { id }'),
        {
          input: { id: cluster.id },
        },
      ),
      'clusterQueuePauseDispatch',
      'No cluster queue found',
    );
    await queueCreate(cluster.id, { key: 'taken' });
    const queue = mutation('clusterQueueCreate', 'ClusterQueueCreateInput', 'clusterQueue { id }');
    refused(
      await world.gql(queue, { input: { organizationId, clusterId: cluster.id, key: 'taken' } }),
      'clusterQueueCreate',
      'Validation failed: Key has already been taken',
    );
  });
});

describe('cluster queries', () => {
  it("read an organization's clusters with their queues and tokens, and one cluster by id", async () => {
    const cluster = await clusterCreate({ name: 'Queried', description: 'read me' });
    await queueCreate(cluster.id, { key: 'q1' });
    await queueCreate(cluster.id, { key: 'q2' });
    await world.call('POST', `/v2/organizations/acme/clusters/${cluster.uuid}/tokens`, {
      body: { description: 'agents' },
    });
    const response = await world.gql(
      `query($id: ID!) { organization(slug: "acme") {
        clusters(first: 50) { count edges { node { uuid name } } }
        cluster(id: $id) { id name description defaultQueue { key }
          queues(first: 1) { count edges { node { key } } pageInfo { hasNextPage } }
          agentTokens(first: 5) { count edges { node { description allowedIpAddresses } } } }
      } }`,
      { id: cluster.uuid },
    );
    expect(response.body.errors, response.text).toBeUndefined();
    const { clusters, cluster: one } = response.body.data.organization;
    expect(clusters.edges.map((edge: { node: { uuid: string } }) => edge.node.uuid)).toContain(cluster.uuid);
    expect(clusters.count).toBe(clusters.edges.length);
    expect(one).toEqual({
      id: cluster.id,
      name: 'Queried',
      description: 'read me',
      defaultQueue: { key: 'q1' },
      queues: { count: 2, edges: [{ node: { key: 'q1' } }], pageInfo: { hasNextPage: true } },
      agentTokens: { count: 1, edges: [{ node: { description: 'agents', allowedIpAddresses: null } }] },
    });
    const byGraphqlId = await world.gql(
      'query($id: ID!) { organization(slug: "acme") { cluster(id: $id) { uuid } } }',
      {
        id: cluster.id,
      },
    );
    expect(byGraphqlId.body.data.organization.cluster).toEqual({ uuid: cluster.uuid });
  });

  it('answers node for clusters, queues and tokens, and null for what the actor may not see', async () => {
    const cluster = await clusterCreate({ name: 'Nodes' });
    const queue = await queueCreate(cluster.id, { key: 'nodes' });
    const token = (
      await world.call('POST', `/v2/organizations/acme/clusters/${cluster.uuid}/tokens`, {
        body: { description: 'n' },
      })
    ).body;
    const NODE = `query($id: ID!) { node(id: $id) { __typename id
      ... on Cluster { name } ... on ClusterQueue { key } ... on ClusterToken { description } } }`;
    expect((await world.gql(NODE, { id: cluster.id })).body.data.node).toEqual({
      __typename: 'Cluster',
      id: cluster.id,
      name: 'Nodes',
    });
    expect((await world.gql(NODE, { id: queue.id })).body.data.node).toMatchObject({
      __typename: 'ClusterQueue',
      key: 'nodes',
    });
    expect((await world.gql(NODE, { id: token.graphql_id })).body.data.node).toMatchObject({
      __typename: 'ClusterToken',
      description: 'n',
    });
    const outsider = await world.gql(NODE, { id: cluster.id }, { token: world.tokens.outsider });
    expect(outsider.body.data.node).toBeNull();
    const member = await world.gql(NODE, { id: cluster.id }, { token: world.tokens.member });
    expect(member.body.data.node).toMatchObject({ name: 'Nodes' });
  });

  it('needs read_clusters to read them', async () => {
    const cluster = await clusterCreate({ name: 'Scoped' });
    const token = await world.token('admin', { scopes: ['graphql', 'read_organizations'] });
    const response = await world.gql(
      'query($id: ID!) { organization(slug: "acme") { cluster(id: $id) { name } } }',
      { id: cluster.uuid },
      { token },
    );
    expect(response.body.errors.map((error: { message: string }) => error.message)).toEqual([
      "Your access token doesn't have the read_clusters scope",
    ]);
  });
});
