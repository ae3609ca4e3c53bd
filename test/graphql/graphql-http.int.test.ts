import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHENTICATION_REQUIRED, JSON_TYPE, UNKNOWN_TOKEN } from '../support/answers';
import { type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/**
 * /graphql over HTTP: who is admitted (the REST bearer tokens, with the `graphql` scope), what a refusal
 * looks like, GraphiQL for a browser, and the transport's own refusals (never a 500).
 */

let world: GraphqlWorld;
beforeAll(async () => {
  world = await startGraphqlWorld();
});
afterAll(async () => world?.close());

describe('authentication', () => {
  it('answers 401 with the REST message and a GraphQL error body, before looking at the operation', async () => {
    const expired = await world.token('admin', { expiresAt: new Date(Date.now() - 1000) });
    // Deeper than a parser's stack: the read-ahead (named-pipeline.ts) does not look into it.
    const deep = `{ pipeline(slug: "acme/web") ${'{ a '.repeat(6_000)}${'} '.repeat(6_000)}}`;
    for (const token of [null, UNKNOWN_TOKEN, 'garbage', expired]) {
      for (const query of ['{ __typename }', '{ not valid', deep]) {
        const response = await world.gql(query, {}, { token });
        expect(response.status).toBe(401);
        expect(response.body).toEqual({ errors: [{ message: AUTHENTICATION_REQUIRED }] });
        expect(response.headers.get('content-type')).toBe(JSON_TYPE);
        expect(response.headers.get('x-accepted-oauth-scopes')).toBe('graphql');
      }
    }
  });

  it('answers 403 naming the graphql scope to a token without it', async () => {
    const token = await world.token('admin', { scopes: ['read_builds'] });
    const response = await world.gql('{ __typename }', {}, { token });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({
      errors: [{ message: "Your access token doesn't have the graphql scope" }],
    });
    expect(response.headers.get('x-oauth-scopes')).toBe('read_builds');
  });

  it('admits a token with the graphql scope and advertises its scopes', async () => {
    const token = await world.token('member', { scopes: ['graphql', 'read_builds'] });
    const response = await world.gql('{ __typename }', {}, { token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { __typename: 'Query' } });
    expect(response.headers.get('x-oauth-scopes')).toBe('graphql, read_builds');
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('graphql');
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers queries sent as GET too', async () => {
    const response = await world.call('GET', `/graphql?query=${encodeURIComponent('{ __typename }')}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { __typename: 'Query' } });
  });
});

describe('GraphiQL', () => {
  it('serves GraphiQL to a browser without a token', async () => {
    const response = await world.server.fetch('/graphql', { headers: { Accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('GraphiQL');
  });
});

describe('bad requests', () => {
  it('answers malformed requests with request errors (no data), never a 500', async () => {
    const cases: Array<{ body?: string; type?: string }> = [
      {
        body: JSON.stringify({
          query: `{ pipeline(slug: "acme/web") ${'{ a '.repeat(6_000)}${'} '.repeat(6_000)}}`,
        }),
        type: 'application/json',
      },
      { body: '{"query": "{ build(slug: ', type: 'application/json' },
      { body: '{"query": "{ nope }"}', type: 'application/json' },
      { body: '{"query": "{ build(slug: 1, uuid: 2, bogus: 3) { number } }"}', type: 'application/json' },
      { body: '{"variables": {}}', type: 'application/json' },
      {
        body: '{"query": "query($id: ID!) { node(id: $id) { id } }", "variables": {"id": {"a": 1}}}',
        type: 'application/json',
      },
      { body: '{"query": "query($id: ID!) { node(id: $id) { id } }"}', type: 'application/json' },
      { body: '[1, 2]', type: 'application/json' },
      { body: '', type: 'application/json' },
    ];
    for (const { body, type } of cases) {
      const response = await world.call('POST', '/graphql', {
        rawBody: body ?? '',
        headers: type ? { 'Content-Type': type } : {},
      });
      // GraphQL over HTTP: a client that accepts only application/json gets 200 for an operation that
      // does not validate, 400 for a body that is not a GraphQL request at all.
      expect([200, 400], `${body}: ${response.text}`).toContain(response.status);
      expect(response.body?.errors, `${body}: ${response.status} ${response.text}`).toBeDefined();
      expect(response.body.errors.length, response.text).toBeGreaterThan(0);
      // What the parser said about the body stays on the server.
      expect(response.body.errors[0].extensions?.originalError, response.text).toBeUndefined();
      expect(response.body.data, response.text).toBeUndefined();
    }
  });

  it('refuses mutations over GET', async () => {
    const response = await world.call(
      'GET',
      `/graphql?query=${encodeURIComponent('mutation { buildCancel(input: {id: "x"}) { clientMutationId } }')}`,
    );
    expect(response.status).toBe(405);
    expect(response.body.errors[0].message).toMatch(/mutation/i);
  });
});
