import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentProtocol } from '../support/agent-protocol';
import type { Reply } from '../support/answers';
import { type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/**
 * Clusters over /graphql as real clients use them (issue 28): operations with the selections of the
 * Terraform provider's cluster operations and the `bk` CLI's (written here, not copied), where jobs and
 * agents are (`JobTypeCommand.cluster`/`clusterQueue`, `Agent.clusterQueue`, the `clusterQueue` filters),
 * deleting a cluster agents are still in, and a page of clusters with their queues and tokens at a fixed
 * number of SQL statements.
 */

let world: GraphqlWorld;
let organizationId: string;
beforeAll(async () => {
  world = await startGraphqlWorld();
  organizationId = (await world.gql('{ organization(slug: "acme") { id } }')).body.data.organization.id;
});
afterAll(() => world?.close());

function data(response: Reply) {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data;
}

const run = async (query: string, variables: Record<string, unknown> = {}) =>
  data(await world.gql(query, variables));

const CLUSTER = 'id uuid name description emoji color defaultQueue { id }';
const QUEUE = 'id uuid key description dispatchPaused hosted retryAgentAffinity cluster { id uuid }';
const TOKEN = 'id uuid description allowedIpAddresses cluster { id uuid }';

const createCluster = `mutation createCluster($organizationId: ID!, $name: String!, $description: String, $emoji: String, $color: String) {
  clusterCreate(input: { organizationId: $organizationId, name: $name, description: $description, emoji: $emoji, color: $color }) {
    cluster { ${CLUSTER} }
  }
}`;
const createClusterQueue = `mutation createClusterQueue($organizationId: ID!, $clusterId: ID!, $key: String!, $description: String) {
  clusterQueueCreate(input: { organizationId: $organizationId, clusterId: $clusterId, key: $key, description: $description }) {
    clusterQueue { ${QUEUE} }
  }
}`;
const createClusterAgentToken = `mutation createClusterAgentToken($organizationId: ID!, $clusterId: ID!, $description: String!, $allowedIpAddresses: String) {
  clusterAgentTokenCreate(input: { organizationId: $organizationId, clusterId: $clusterId, description: $description, allowedIpAddresses: $allowedIpAddresses }) {
    clusterAgentToken { ${TOKEN} }
    tokenValue
  }
}`;

describe('the Terraform provider’s cluster operations', () => {
  it('create, read, update and delete a cluster with its queues and tokens', async () => {
    const { cluster } = (
      await run(createCluster, {
        organizationId,
        name: 'Terraform cluster',
        description: 'made by terraform',
        emoji: ':terraform:',
        color: '#7B42BC',
      })
    ).clusterCreate;
    expect(cluster).toMatchObject({ name: 'Terraform cluster', defaultQueue: null });

    const byName = await run(
      `query getClusterByName($orgSlug: ID!, $cursor: String) {
        organization(slug: $orgSlug) {
          clusters(first: 50, after: $cursor) {
            edges { node { ${CLUSTER} } }
            pageInfo { endCursor hasNextPage }
          }
        }
      }`,
      { orgSlug: 'acme', cursor: null },
    );
    const names = byName.organization.clusters.edges.map(
      (edge: { node: { name: string } }) => edge.node.name,
    );
    expect(names).toContain('Terraform cluster');
    const all = await run(
      `query GetOrganizationClusters($orgSlug: ID!) {
        organization(slug: $orgSlug) { id clusters(first: 100) { edges { node { ${CLUSTER} } } } }
      }`,
      { orgSlug: 'acme' },
    );
    expect(all.organization.id).toBe(organizationId);

    const updated = await run(
      `mutation updateCluster($organizationId: ID!, $id: ID!, $name: String, $description: String, $emoji: String, $color: String) {
        clusterUpdate(input: { organizationId: $organizationId, id: $id, name: $name, description: $description, emoji: $emoji, color: $color }) {
          cluster { ${CLUSTER} }
        }
      }`,
      { organizationId, id: cluster.id, name: 'Renamed', description: null, emoji: null, color: null },
    );
    expect(updated.clusterUpdate.cluster).toMatchObject({ name: 'Renamed', description: null });

    const queue = (
      await run(createClusterQueue, {
        organizationId,
        clusterId: cluster.id,
        key: 'default',
        description: 'the default',
      })
    ).clusterQueueCreate.clusterQueue;
    expect(queue).toMatchObject({ key: 'default', dispatchPaused: false, hosted: false });
    const other = (
      await run(createClusterQueue, {
        organizationId,
        clusterId: cluster.id,
        key: 'deploy',
        description: null,
      })
    ).clusterQueueCreate.clusterQueue;

    const setDefault = await run(
      `mutation setClusterDefaultQueue($organizationId: ID!, $clusterId: ID!, $queueId: ID!) {
        clusterUpdate(input: { organizationId: $organizationId, id: $clusterId, defaultQueueId: $queueId }) {
          cluster { id defaultQueue { id } }
        }
      }`,
      { organizationId, clusterId: cluster.id, queueId: other.id },
    );
    expect(setDefault.clusterUpdate.cluster.defaultQueue).toEqual({ id: other.id });
    const removed = await run(
      `mutation removeClusterDefaultQueue($organizationId: ID!, $clusterId: ID!) {
        clusterUpdate(input: { organizationId: $organizationId, id: $clusterId, defaultQueueId: null }) {
          cluster { id defaultQueue { id } }
        }
      }`,
      { organizationId, clusterId: cluster.id },
    );
    expect(removed.clusterUpdate.cluster.defaultQueue).toBeNull();

    const queues = await run(
      `query getClusterQueues($orgSlug: ID!, $id: ID!, $cursor: String) {
        organization(slug: $orgSlug) {
          cluster(id: $id) {
            queues(first: 50, after: $cursor) {
              pageInfo { endCursor hasNextPage }
              edges { node { ${QUEUE} } }
            }
          }
        }
      }`,
      { orgSlug: 'acme', id: cluster.uuid, cursor: null },
    );
    expect(
      queues.organization.cluster.queues.edges.map((edge: { node: { key: string } }) => edge.node.key),
    ).toEqual(['default', 'deploy']);
    const byNode = await run(
      `query getClusterQueueByNode($id: ID!) { node(id: $id) { ... on ClusterQueue { ${QUEUE} } } }`,
      { id: queue.id },
    );
    expect(byNode.node).toEqual(queue);
    const queueUpdated = await run(
      `mutation updateClusterQueue($organizationId: ID!, $id: ID!, $description: String) {
        clusterQueueUpdate(input: { organizationId: $organizationId, id: $id, description: $description }) {
          clusterQueue { ${QUEUE} }
        }
      }`,
      { organizationId, id: queue.id, description: 'changed' },
    );
    expect(queueUpdated.clusterQueueUpdate.clusterQueue.description).toBe('changed');
    const paused = await run(
      `mutation pauseDispatchClusterQueue($id: ID!, $note: String) {
        clusterQueuePauseDispatch(input: { id: $id, note: $note }) { queue { id dispatchPaused dispatchPausedNote } }
      }`,
      { id: queue.id, note: 'maintenance' },
    );
    expect(paused.clusterQueuePauseDispatch.queue).toMatchObject({
      dispatchPaused: true,
      dispatchPausedNote: 'maintenance',
    });
    const resumed = await run(
      `mutation resumeDispatchClusterQueue($id: ID!) {
        clusterQueueResumeDispatch(input: { id: $id }) { queue { id dispatchPaused } }
      }`,
      { id: queue.id },
    );
    expect(resumed.clusterQueueResumeDispatch.queue.dispatchPaused).toBe(false);

    const created = (
      await run(createClusterAgentToken, {
        organizationId,
        clusterId: cluster.id,
        description: 'terraform agents',
        allowedIpAddresses: '10.0.0.0/8',
      })
    ).clusterAgentTokenCreate;
    expect(created.tokenValue).toMatch(/^bkrt_/);
    const tokens = await run(
      `query getClusterAgentTokens($orgSlug: ID!, $id: ID!) {
        organization(slug: $orgSlug) { cluster(id: $id) { agentTokens(first: 50) { edges { node { ${TOKEN} } } } } }
      }`,
      { orgSlug: 'acme', id: cluster.uuid },
    );
    expect(tokens.organization.cluster.agentTokens.edges).toEqual([{ node: created.clusterAgentToken }]);
    const tokenUpdated = await run(
      `mutation updateClusterAgentToken($organizationId: ID!, $id: ID!, $description: String!, $allowedIpAddresses: String) {
        clusterAgentTokenUpdate(input: { organizationId: $organizationId, id: $id, description: $description, allowedIpAddresses: $allowedIpAddresses }) {
          clusterAgentToken { ${TOKEN} }
        }
      }`,
      { organizationId, id: created.clusterAgentToken.id, description: 'renamed', allowedIpAddresses: null },
    );
    expect(tokenUpdated.clusterAgentTokenUpdate.clusterAgentToken).toMatchObject({
      description: 'renamed',
      allowedIpAddresses: null,
    });
    const revoked = await run(
      `mutation revokeClusterAgentToken($organizationId: ID!, $id: ID!) {
        clusterAgentTokenRevoke(input: { organizationId: $organizationId, id: $id }) { deletedClusterAgentTokenId }
      }`,
      { organizationId, id: created.clusterAgentToken.id },
    );
    expect(revoked.clusterAgentTokenRevoke.deletedClusterAgentTokenId).toBe(created.clusterAgentToken.id);

    const deletedQueue = await run(
      `mutation deleteClusterQueue($organizationId: ID!, $id: ID!) {
        clusterQueueDelete(input: { organizationId: $organizationId, id: $id }) { deletedClusterQueueId }
      }`,
      { organizationId, id: other.id },
    );
    expect(deletedQueue.clusterQueueDelete.deletedClusterQueueId).toBe(other.id);
    const deleted = await run(
      `mutation deleteCluster($organizationId: ID!, $id: ID!) {
        clusterDelete(input: { organizationId: $organizationId, id: $id }) { deletedClusterId }
      }`,
      { organizationId, id: cluster.id },
    );
    expect(deleted.clusterDelete.deletedClusterId).toBe(cluster.id);
  });
});

describe('where jobs and agents are, as the bk CLI reads them', () => {
  it('shows the cluster and queue of jobs and agents, and filters both by queue', async () => {
    const { cluster } = (await run(createCluster, { organizationId, name: 'CLI cluster' })).clusterCreate;
    const queue = (await run(createClusterQueue, { organizationId, clusterId: cluster.id, key: 'default' }))
      .clusterQueueCreate.clusterQueue;
    const other = (await run(createClusterQueue, { organizationId, clusterId: cluster.id, key: 'other' }))
      .clusterQueueCreate.clusterQueue;
    const { tokenValue } = (
      await run(createClusterAgentToken, { organizationId, clusterId: cluster.id, description: 'cli' })
    ).clusterAgentTokenCreate;
    const pipeline = await world.call('POST', '/v2/organizations/acme/pipelines', {
      body: {
        name: 'CLI app',
        repository: 'git@example.com:acme/cli.git',
        configuration: 'steps:\n  - command: echo hi\n',
        cluster_id: cluster.uuid,
      },
    });
    expect(pipeline.status, pipeline.text).toBe(201);
    const build = await world.call('POST', `/v2/organizations/acme/pipelines/${pipeline.body.slug}/builds`, {
      body: { commit: 'HEAD', branch: 'main' },
    });
    expect(build.status, build.text).toBe(201);

    const protocol = agentProtocol(world.server, tokenValue);
    const agent = await protocol.register({ name: 'cli-agent' });
    const jobId = await protocol.run(agent.token);

    const job = await run(
      `query($uuid: ID!) { job(uuid: $uuid) { ... on JobTypeCommand { uuid cluster { uuid name } clusterQueue { uuid key } agent { name clusterQueue { key } } } } }`,
      { uuid: jobId },
    );
    expect(job.job).toEqual({
      uuid: jobId,
      cluster: { uuid: cluster.uuid, name: 'CLI cluster' },
      clusterQueue: { uuid: queue.uuid, key: 'default' },
      agent: { name: 'cli-agent', clusterQueue: { key: 'default' } },
    });

    const found = await run(
      `query FindClusters($org: ID!) { organization(slug: $org) { clusters(first: 100) { edges { node { id uuid name description color emoji } } } } }`,
      { org: 'acme' },
    );
    expect(found.organization.clusters.edges.map((e: { node: { name: string } }) => e.node.name)).toContain(
      'CLI cluster',
    );
    const forCluster = await run(
      `query FindQueuesForCluster($org: ID!, $cluster: ID!) {
        organization(slug: $org) { cluster(id: $cluster) { name queues(first: 100) { edges { node { id uuid key description dispatchPaused } } } } }
      }`,
      { org: 'acme', cluster: cluster.uuid },
    );
    expect(forCluster.organization.cluster.queues.edges).toHaveLength(2);
    const clusterQueueAgent = `query GetClusterQueueAgent($orgSlug: ID!, $queueId: [ID!]) {
      organization(slug: $orgSlug) {
        agents(first: 100, clusterQueue: $queueId) {
          edges { node { id name hostname connectionState version clusterQueue { id uuid key } } }
        }
        jobs(first: 100, clusterQueue: $queueId) { edges { node { ... on JobTypeCommand { uuid } } } }
      }
    }`;
    const inQueue = await run(clusterQueueAgent, { orgSlug: 'acme', queueId: [queue.id] });
    expect(inQueue.organization.agents.edges).toEqual([
      {
        node: expect.objectContaining({
          name: 'cli-agent',
          connectionState: 'connected',
          clusterQueue: { id: queue.id, uuid: queue.uuid, key: 'default' },
        }),
      },
    ]);
    expect(inQueue.organization.jobs.edges).toEqual([{ node: { uuid: jobId } }]);
    const byUuid = await run(clusterQueueAgent, { orgSlug: 'acme', queueId: [queue.uuid] });
    expect(byUuid.organization.agents.edges).toHaveLength(1);
    const none = await run(clusterQueueAgent, { orgSlug: 'acme', queueId: [other.id] });
    expect(none.organization).toEqual({ agents: { edges: [] }, jobs: { edges: [] } });

    // The agent is connected: the cluster cannot go, and the error says why.
    await world.call('PATCH', `/v2/organizations/acme/pipelines/${pipeline.body.slug}`, {
      body: { cluster_id: null },
    });
    const refused = await world.gql(
      `mutation($input: ClusterDeleteInput!) { clusterDelete(input: $input) { deletedClusterId } }`,
      { input: { organizationId, id: cluster.id } },
    );
    expect(refused.body.data).toEqual({ clusterDelete: null });
    expect(refused.body.errors.map((error: { message: string }) => error.message)).toEqual([
      "This cluster can't be deleted: 1 connected agent is in it. Stop it first.",
    ]);
    await protocol.disconnect(agent.token);
    const deleted = await run(
      `mutation($input: ClusterDeleteInput!) { clusterDelete(input: $input) { deletedClusterId } }`,
      { input: { organizationId, id: cluster.id } },
    );
    expect(deleted.clusterDelete.deletedClusterId).toBe(cluster.id);
  });
});

describe('a page of clusters', () => {
  it('reads their queues and tokens in the same few statements for 3 clusters as for 12', async () => {
    for (let i = 0; i < 12; i++) {
      const { cluster } = (await run(createCluster, { organizationId, name: `Paged ${i}` })).clusterCreate;
      await run(createClusterQueue, { organizationId, clusterId: cluster.id, key: 'default' });
      await run(createClusterQueue, { organizationId, clusterId: cluster.id, key: `q${i}` });
      await run(createClusterAgentToken, { organizationId, clusterId: cluster.id, description: `t${i}` });
    }
    const { few, many } = await world.pageStatements(
      `query($first: Int) {
        organization(slug: "acme") {
          clusters(first: $first) {
            edges { node { name defaultQueue { key }
              queues(first: 5) { count edges { node { key createdBy { name } } } }
              agentTokens(first: 5) { count edges { node { description } } } } }
          }
        }
      }`,
      3,
      12,
    );
    expect(many.statements).toBe(few.statements);
    const clusters = many.result.body.data.organization.clusters.edges;
    expect(clusters).toHaveLength(12);
    for (const { node } of clusters) {
      if (!node.name.startsWith('Paged')) continue;
      expect(node.queues.count).toBe(2);
      expect(node.queues.edges.map((edge: { node: { key: string } }) => edge.node.key)[0]).toBe('default');
      expect(node.agentTokens.count).toBe(1);
    }
  });
});
