import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentProtocol } from '../support/agent-protocol';
import { errorsOf, type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/**
 * Organization agent (registration) tokens through GraphQL, with the operations an infrastructure client
 * (a Terraform provider, a CLI) sends: create (the secret shown once), read by slug and by `node`, list,
 * revoke; a revoked token registers no more agents through /v3. Admins only.
 */

let world: GraphqlWorld;
let acmeId: string;
let otherId: string;

const CREATE = `mutation createAgentToken($organizationId: ID!, $description: String) {
  agentTokenCreate(input: { organizationID: $organizationId, description: $description }) {
    clientMutationId
    tokenValue
    organization { slug }
    agentTokenEdge { cursor node { id uuid description token public createdAt createdBy { name } } }
  }
}`;

const GET = `query getAgentToken($slug: ID!) {
  agentToken(slug: $slug) {
    id uuid description token revokedAt revokedReason
    revokedBy { name }
    organization { slug }
    permissions { agentTokenRevoke { allowed code message } }
  }
}`;

const REVOKE = `mutation revokeAgentToken($id: ID!, $reason: String!) {
  agentTokenRevoke(input: { id: $id, reason: $reason }) {
    agentToken { id uuid description revokedAt revokedReason revokedBy { name } }
  }
}`;

const LIST = `query listAgentTokens($slug: ID!, $first: Int, $revoked: Boolean) {
  organization(slug: $slug) {
    agentTokens(first: $first, revoked: $revoked) {
      count
      edges { node { uuid description revokedAt } }
      pageInfo { hasNextPage }
    }
  }
}`;

const NODE = `query nodeAgentToken($id: ID!) {
  node(id: $id) { __typename ... on AgentToken { uuid description } }
}`;

const data = (response: Awaited<ReturnType<GraphqlWorld['gql']>>) => {
  expect(response.status, response.text).toBe(200);
  expect(response.body.errors, response.text).toBeUndefined();
  return response.body.data;
};

async function create(description: string, token?: string) {
  const response = await world.gql(CREATE, { organizationId: acmeId, description }, token ? { token } : {});
  return data(response).agentTokenCreate;
}

beforeAll(async () => {
  world = await startGraphqlWorld();
  acmeId = data(await world.gql('{ organization(slug: "acme") { id } }')).organization.id;
  otherId = data(
    await world.gql('{ organization(slug: "other") { id } }', {}, { token: world.tokens.outsider }),
  ).organization.id;
});
afterAll(async () => world?.close());

describe('agentTokenCreate', () => {
  it('answers the secret once, and registers agents with it', async () => {
    const created = await create('terraform');
    expect(created.tokenValue).toMatch(/^bkrt_[0-9a-f]{48}$/);
    expect(created.organization).toEqual({ slug: 'acme' });
    expect(created.agentTokenEdge.node).toMatchObject({
      description: 'terraform',
      token: created.tokenValue,
      public: false,
      createdBy: { name: 'Ada Admin' },
    });
    const agent = await agentProtocol(world.server, created.tokenValue).register({ name: 'by-token' });
    expect(agent.name).toBe('by-token');

    // Read again, the secret is not shown: only its hash is kept.
    const read = data(await world.gql(GET, { slug: `acme/${created.agentTokenEdge.node.uuid}` })).agentToken;
    expect(read).toMatchObject({
      id: created.agentTokenEdge.node.id,
      description: 'terraform',
      token: '',
      revokedAt: null,
      organization: { slug: 'acme' },
      permissions: { agentTokenRevoke: { allowed: true, code: null, message: null } },
    });
    const stored = await world.server.database.sql.query<{ token_hash: string }>(
      'select token_hash from agent_registration_tokens where id = $1',
      [created.agentTokenEdge.node.uuid],
    );
    expect(stored[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0]?.token_hash).not.toContain(created.tokenValue.slice(5));
  });

  it('refuses members who are not admins, tokens without write_agents, and other organizations', async () => {
    const member = await world.gql(
      CREATE,
      { organizationId: acmeId, description: 'x' },
      { token: world.tokens.member },
    );
    expect(errorsOf(member)).toEqual(['Forbidden']);
    const scoped = await world.token('admin', { scopes: ['graphql', 'read_agents'] });
    const withoutScope = await world.gql(
      CREATE,
      { organizationId: acmeId, description: 'x' },
      { token: scoped },
    );
    expect(errorsOf(withoutScope)).toEqual(["Your access token doesn't have the write_agents scope"]);
    const elsewhere = await world.gql(CREATE, { organizationId: otherId, description: 'x' });
    expect(errorsOf(elsewhere)).toEqual(['No organization found']);
    const tooLong = await world.gql(CREATE, { organizationId: acmeId, description: 'x'.repeat(256) });
    expect(errorsOf(tooLong)).toEqual(['Description is too long (maximum is 255 characters)']);
  });
});

describe('agentTokenRevoke', () => {
  it('revokes: the token registers no more agents, and reads show who revoked it and why', async () => {
    const created = await create('to revoke');
    const node = created.agentTokenEdge.node;
    const revoked = data(await world.gql(REVOKE, { id: node.id, reason: 'rotated' })).agentTokenRevoke
      .agentToken;
    expect(revoked).toMatchObject({
      id: node.id,
      revokedReason: 'rotated',
      revokedBy: { name: 'Ada Admin' },
    });
    expect(Date.parse(revoked.revokedAt)).not.toBeNaN();

    const register = await world.server.fetch('/v3/register', {
      method: 'POST',
      headers: { Authorization: `Token ${created.tokenValue}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'too-late', meta_data: [] }),
    });
    expect(register.status).toBe(401);

    const read = data(await world.gql(GET, { slug: `acme/${node.uuid}` })).agentToken;
    expect(read).toMatchObject({
      revokedReason: 'rotated',
      permissions: { agentTokenRevoke: { allowed: false, code: 'agent_token_revoked' } },
    });
    const again = await world.gql(REVOKE, { id: node.id, reason: 'again' });
    expect(errorsOf(again)).toEqual(['This agent token has already been revoked']);
  });

  it('refuses members who are not admins, a blank reason, and unknown ids', async () => {
    const { agentTokenEdge } = await create('kept');
    const member = await world.gql(
      REVOKE,
      { id: agentTokenEdge.node.id, reason: 'x' },
      { token: world.tokens.member },
    );
    expect(errorsOf(member)).toEqual(['Forbidden']);
    const outsider = await world.gql(
      REVOKE,
      { id: agentTokenEdge.node.id, reason: 'x' },
      { token: world.tokens.outsider },
    );
    expect(errorsOf(outsider)).toEqual(['No agent token found']);
    expect(errorsOf(await world.gql(REVOKE, { id: agentTokenEdge.node.id, reason: ' ' }))).toEqual([
      "Reason can't be blank",
    ]);
    expect(errorsOf(await world.gql(REVOKE, { id: acmeId, reason: 'x' }))).toEqual(['No agent token found']);
    const still = data(await world.gql(GET, { slug: `acme/${agentTokenEdge.node.uuid}` })).agentToken;
    expect(still.revokedAt).toBeNull();
  });
});

describe('reading agent tokens', () => {
  it('lists an organization’s tokens oldest first, all or by revocation', async () => {
    const all = data(await world.gql(LIST, { slug: 'acme', first: 100 })).organization.agentTokens;
    const revoked = data(await world.gql(LIST, { slug: 'acme', first: 100, revoked: true })).organization
      .agentTokens;
    const usable = data(await world.gql(LIST, { slug: 'acme', first: 100, revoked: false })).organization
      .agentTokens;
    expect(all.count).toBe(all.edges.length);
    expect(all.count).toBe(revoked.count + usable.count);
    expect(
      revoked.edges.every((edge: { node: { revokedAt: unknown } }) => edge.node.revokedAt !== null),
    ).toBe(true);
    expect(usable.edges.every((edge: { node: { revokedAt: unknown } }) => edge.node.revokedAt === null)).toBe(
      true,
    );
    expect(revoked.count).toBeGreaterThan(0);
    const first = data(await world.gql(LIST, { slug: 'acme', first: 1 })).organization.agentTokens;
    expect(first.edges).toHaveLength(1);
    expect(first.pageInfo.hasNextPage).toBe(true);
  });

  it('answers node for admins and null for others; refuses agentToken and the list to members', async () => {
    const { agentTokenEdge } = await create('seen by node');
    const { node } = data(await world.gql(NODE, { id: agentTokenEdge.node.id }));
    expect(node).toEqual({
      __typename: 'AgentToken',
      uuid: agentTokenEdge.node.uuid,
      description: 'seen by node',
    });
    for (const token of [world.tokens.member, world.tokens.outsider]) {
      expect(data(await world.gql(NODE, { id: agentTokenEdge.node.id }, { token })).node).toBeNull();
    }
    const slug = `acme/${agentTokenEdge.node.uuid}`;
    expect(errorsOf(await world.gql(GET, { slug }, { token: world.tokens.member }))).toEqual(['Forbidden']);
    expect(errorsOf(await world.gql(GET, { slug }, { token: world.tokens.outsider }))).toEqual([
      'No organization found',
    ]);
    expect(errorsOf(await world.gql(GET, { slug: 'acme/nope' }))).toEqual(['No agent token found']);
    expect(errorsOf(await world.gql(LIST, { slug: 'acme' }, { token: world.tokens.member }))).toEqual([
      'Forbidden',
    ]);
    const scoped = await world.token('admin', { scopes: ['graphql'] });
    expect(errorsOf(await world.gql(GET, { slug }, { token: scoped }))).toEqual([
      "Your access token doesn't have the read_agents scope",
    ]);
  });
});
