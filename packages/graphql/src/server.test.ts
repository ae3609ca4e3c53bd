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
    authenticate: async () => actor,
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
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  return { ask, logged };
}

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
