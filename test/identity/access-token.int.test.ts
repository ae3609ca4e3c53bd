import { AccessTokenWire } from '@ci/trpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHENTICATION_REQUIRED, example, ISO_MS_Z, JSON_TYPE, UNKNOWN_TOKEN } from '../support/answers';
import { type IdentityWorld, startIdentityWorld } from '../support/identity-world';
import { trpcFailure } from '../support/trpc';

/** `GET /v2/access-token` and `DELETE /v2/access-token` through the real server (decisions.md, "Errors"). */

const EXAMPLE = example('access-token.json');
const ACCESS_TOKEN = '/v2/access-token';

let world: IdentityWorld;
beforeAll(async () => {
  world = await startIdentityWorld();
});
afterAll(() => world?.close());

/** A 401 with the public message, advertising no scopes of the token (and the operation's own, '' here). */
const expectUnauthenticated = (response: Awaited<ReturnType<IdentityWorld['call']>>, accepted = '') => {
  expect(response.status).toBe(401);
  expect(response.body).toEqual({ message: AUTHENTICATION_REQUIRED });
  expect(response.headers.get('content-type')).toBe(JSON_TYPE);
  expect(response.headers.get('x-oauth-scopes')).toBe('');
  expect(response.headers.get('x-accepted-oauth-scopes')).toBe(accepted);
};

describe('GET /v2/access-token', () => {
  it("answers the token in the example's shape: its uuid, scopes, description, times and user", async () => {
    const expiresAt = new Date(Date.now() + 7 * 24 * 3600 * 1000);
    const { token, secret } = await world.issueToken('member', {
      scopes: ['read_builds', 'read_user'],
      description: 'Development Token',
      expiresAt,
    });
    const response = await world.call('GET', ACCESS_TOKEN, { token: secret });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    expect(Object.keys(response.body)).toEqual(Object.keys(EXAMPLE));
    expect(Object.keys(response.body.user)).toEqual(Object.keys(EXAMPLE.user as object));
    expect(response.body).toEqual({
      uuid: token.id,
      scopes: ['read_builds', 'read_user'],
      description: 'Development Token',
      created_at: token.createdAt.toISOString(),
      expires_at: expiresAt.toISOString(),
      user: { email: 'member@acme.test', name: 'Max Member' },
    });
    expect(response.body.created_at).toMatch(ISO_MS_Z);
    expect(AccessTokenWire.parse(response.body)).toEqual(response.body);
    expect(response.headers.get('x-oauth-scopes')).toBe('read_builds, read_user');
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('');
  });

  it('shows expires_at and description null for a token that never expires and has no description', async () => {
    const { secret } = await world.issueToken('admin');
    const response = await world.call('GET', ACCESS_TOKEN, { token: secret });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ expires_at: null, description: null });
  });

  it('needs no scope: a token without any reads itself, and so does one limited to another organization', async () => {
    for (const options of [{ scopes: [] as [] }, { organizations: ['other'] }]) {
      const { token, secret } = await world.issueToken('member', options);
      const response = await world.call('GET', ACCESS_TOKEN, { token: secret });
      expect(response.status).toBe(200);
      expect(response.body.uuid).toBe(token.id);
    }
  });

  it('never shows the secret nor its hash', async () => {
    const { token, secret } = await world.issueToken('admin');
    const response = await world.call('GET', ACCESS_TOKEN, { token: secret });
    expect(response.text).not.toContain(secret);
    expect(response.text).not.toContain(token.tokenHash);
  });

  it.each<[string, () => Promise<string | null>]>([
    ['no token', async () => null],
    ['a malformed token', async () => 'nonsense'],
    ['an unknown token', async () => UNKNOWN_TOKEN],
    [
      'an expired token',
      async () => (await world.issueToken('admin', { expiresAt: new Date(Date.now() - 1000) })).secret,
    ],
    [
      'a revoked token',
      async () => {
        const { token, secret } = await world.issueToken('admin');
        await world.server.useCases.admin.revokeAccessToken(token.id);
        return secret;
      },
    ],
  ])('answers 401 with the public message to %s', async (_case, secret) => {
    expectUnauthenticated(await world.call('GET', ACCESS_TOKEN, { token: await secret() }));
  });

  it('answers 401 to a token sent in another scheme than Bearer', async () => {
    const { secret } = await world.issueToken('admin');
    for (const authorization of [`Basic ${secret}`, `Token ${secret}`, secret, `Bearer ${secret} extra`]) {
      expectUnauthenticated(
        await world.call('GET', ACCESS_TOKEN, { token: null, headers: { Authorization: authorization } }),
      );
    }
  });
});

describe('DELETE /v2/access-token', () => {
  it('answers 204 with an empty body and revokes the token at once: the next request is a 401', async () => {
    const { token, secret } = await world.issueToken('admin');
    const response = await world.call('DELETE', ACCESS_TOKEN, { token: secret });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(response.headers.get('content-type')).toBeNull();
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('');
    expect(await world.revokedAt(token.id)).toBeInstanceOf(Date);

    for (const [path, accepted] of [
      [ACCESS_TOKEN, ''],
      ['/v2/user', 'read_user'],
      ['/v2/organizations', 'read_organizations'],
      ['/v2/organizations/acme/builds', 'read_builds'],
    ] as const) {
      expectUnauthenticated(await world.call('GET', path, { token: secret }), accepted);
    }
  });

  it('answers a second DELETE with the same token with 401, and keeps the first revocation time', async () => {
    const { token, secret } = await world.issueToken('admin');
    expect((await world.call('DELETE', ACCESS_TOKEN, { token: secret })).status).toBe(204);
    const first = await world.revokedAt(token.id);
    expectUnauthenticated(await world.call('DELETE', ACCESS_TOKEN, { token: secret }));
    expect(await world.revokedAt(token.id)).toEqual(first);
  });

  it("revokes only the token the request is made with: the user's other tokens keep working", async () => {
    const kept = await world.issueToken('member');
    const revoked = await world.issueToken('member');
    expect((await world.call('DELETE', ACCESS_TOKEN, { token: revoked.secret })).status).toBe(204);
    expect(await world.revokedAt(kept.token.id)).toBeNull();
    const response = await world.call('GET', ACCESS_TOKEN, { token: kept.secret });
    expect(response.status).toBe(200);
    expect(response.body.uuid).toBe(kept.token.id);
  });

  it('needs no scope, and ignores a body and query parameters', async () => {
    const { token, secret } = await world.issueToken('bystander', { scopes: [] });
    const response = await world.call('DELETE', `${ACCESS_TOKEN}?uuid=${world.tokens.admin}`, {
      token: secret,
      body: { uuid: 'someone-else' },
    });
    expect(response.status).toBe(204);
    expect(await world.revokedAt(token.id)).toBeInstanceOf(Date);
    expect((await world.call('GET', ACCESS_TOKEN, { token: world.tokens.admin })).status).toBe(200);
  });

  it('lets exactly one of many concurrent DELETEs of one token succeed; the others answer 401', async () => {
    const { secret } = await world.issueToken('admin');
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => world.call('DELETE', ACCESS_TOKEN, { token: secret })),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([204, 401, 401, 401, 401, 401, 401, 401]);
    for (const response of responses.filter((r) => r.status === 401)) expectUnauthenticated(response);
  });

  it.each<[string, () => Promise<string | null>]>([
    ['no token', async () => null],
    ['an unknown token', async () => `bkua_${'f'.repeat(40)}`],
    [
      'an expired token',
      async () => (await world.issueToken('admin', { expiresAt: new Date(Date.now() - 1000) })).secret,
    ],
  ])('answers 401 to %s', async (_case, secret) => {
    expectUnauthenticated(await world.call('DELETE', ACCESS_TOKEN, { token: await secret() }));
  });
});

describe('the access token over tRPC', () => {
  it('reads the token exactly as REST shows it, then revokes it', async () => {
    const { secret } = await world.issueToken('member', { description: 'over tRPC' });
    const trpc = world.trpc(secret);
    const rest = await world.call('GET', ACCESS_TOKEN, { token: secret });
    expect(await trpc.accessToken.get.query()).toEqual(rest.body);

    await expect(trpc.accessToken.delete.mutate()).resolves.toBeUndefined();
    const error = await trpcFailure(trpc.accessToken.get.query());
    expect(error.message).toBe(AUTHENTICATION_REQUIRED);
    expect(error.data?.httpStatus).toBe(401);
    expectUnauthenticated(await world.call('GET', ACCESS_TOKEN, { token: secret }));
  });
});
