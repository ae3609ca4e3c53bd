import type { Actor, UseCases } from '@ci/application';
import { notFound } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import { createGraphqlServer } from './server';

const actor: Actor = {
  tokenId: 't',
  user: { id: 'u', name: 'U', email: 'u@x', avatarUrl: null, createdAt: new Date(0) },
  scopes: ['graphql', 'read_builds'],
  organizationIds: null,
};

/** The server over use cases whose build lookup fails as `failure` says: the only way to fail unexpectedly. */
function serverFailingWith(failure: Error) {
  const useCases = {
    authenticateRequest: async () => ({ actor }),
    byId: {
      findBuild: async () => {
        throw failure;
      },
    },
  } as unknown as UseCases;
  const logged: unknown[] = [];
  const server = createGraphqlServer({
    useCases,
    urls: { api: 'https://api.test', web: 'https://web.test' },
  });
  const ask = async (query: string) => {
    const response = await server.handle(
      new Request('http://localhost/graphql', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: 'Bearer x' },
        body: JSON.stringify({ query }),
      }),
      { logError: (error) => logged.push(error) },
    );
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: (await response.json()) as Record<string, unknown>,
    };
  };
  return { ask, logged };
}

describe('the database out of reach', () => {
  it('answers 503 with Retry-After and the message REST gives, logged for the outage', async () => {
    const failure = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const { ask, logged } = serverFailingWith(failure);
    const { status, retryAfter, body } = await ask('{ build(slug: "a/b/1") { number } }');
    expect(status).toBe(503);
    expect(retryAfter).toBe('5');
    expect(body.errors).toEqual([
      {
        message: 'Service Unavailable: the database cannot be reached, try again shortly',
        locations: [{ line: 1, column: 3 }],
        path: ['build'],
        extensions: { code: 'unavailable' },
      },
    ]);
    expect(logged).toHaveLength(1);
  });
});

describe('unexpected failures', () => {
  it('are masked for the client and logged once, with what happened', async () => {
    const failure = new Error('connection to 10.0.0.7:5432 refused');
    const { ask, logged } = serverFailingWith(failure);
    const { status, body } = await ask('{ build(slug: "a/b/1") { number } }');
    expect(status).toBe(200);
    expect(body).toEqual({
      data: { build: null },
      errors: [
        {
          message: 'Internal Server Error',
          locations: [{ line: 1, column: 3 }],
          path: ['build'],
          extensions: { code: 'internal' },
        },
      ],
    });
    expect(logged).toHaveLength(1);
    expect(JSON.stringify(body)).not.toContain('10.0.0.7');
    expect((logged[0] as { originalError?: unknown }).originalError ?? logged[0]).toBe(failure);
  });

  it('are not what an expected refusal is: that one keeps its message and is not logged', async () => {
    const { ask, logged } = serverFailingWith(notFound('build'));
    const { body } = await ask('{ build(slug: "a/b/1") { number } }');
    expect((body.errors as Array<{ message: string }>)[0]?.message).toBe('No build found');
    expect(logged).toEqual([]);
  });
});

describe('a Fetch request', () => {
  function serverRecordingAuthentication(maxBodyBytes?: number) {
    const authenticated: unknown[][] = [];
    const useCases = {
      authenticateRequest: async (request: { authorization?: string; clientAddress: string | null }) => {
        authenticated.push([request.authorization, request.clientAddress]);
        return { actor };
      },
      byId: { findPipeline: async () => Promise.reject(notFound('pipeline')) },
    } as unknown as UseCases;
    const server = createGraphqlServer({
      useCases,
      urls: { api: 'https://api.test', web: 'https://web.test' },
      ...(maxBodyBytes ? { maxBodyBytes } : {}),
    });
    const post = (body: string) =>
      server.handle(
        new Request('http://localhost/graphql', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: 'Bearer x' },
          body,
        }),
        { logError: () => undefined },
      );
    return { post, authenticated };
  }

  it('authenticates with the token alone, as the HTTP server does', async () => {
    const { post, authenticated } = serverRecordingAuthentication();
    const response = await post(
      JSON.stringify({
        query: 'query($s: ID!) { pipeline(slug: $s) { name } }',
        variables: { s: 'acme/web' },
      }),
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { errors: Array<{ message: string }> }).errors[0]?.message).toBe(
      'No pipeline found',
    );
    // The token, and the request's address (none for a Fetch request without one in its context).
    expect(authenticated).toEqual([['Bearer x', null]]);
  });

  it('is refused with 413 past the longest body, before anything is read with its token', async () => {
    const { post, authenticated } = serverRecordingAuthentication(2048);
    const query = `{ pipeline(slug: "acme/web") { name } }`;
    const within = await post(JSON.stringify({ query, variables: { pad: 'x'.repeat(1900) } }));
    expect(within.status).toBe(200);
    const beyond = await post(JSON.stringify({ query, variables: { pad: 'x'.repeat(2100) } }));
    expect(beyond.status).toBe(413);
    expect(await beyond.json()).toEqual({ message: 'Request body is too large' });
    expect(authenticated).toHaveLength(1);
  });
});
