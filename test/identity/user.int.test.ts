import { createHash } from 'node:crypto';
import { UserWire } from '@ci/trpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { example, ISO_MS_Z, JSON_TYPE } from '../support/answers';
import { type IdentityWorld, startIdentityWorld } from '../support/identity-world';

/** `GET /v2/user`: the token's user, in the shape of user-get.json (and of a build's creator). */

const EXAMPLE = example('user-get.json');
const gravatar = (email: string) =>
  `https://www.gravatar.com/avatar/${createHash('md5').update(email).digest('hex')}`;

let world: IdentityWorld;
beforeAll(async () => {
  world = await startIdentityWorld();
});
afterAll(() => world?.close());

describe('GET /v2/user', () => {
  it("answers the token's user with the example's keys, in its order", async () => {
    const response = await world.call('GET', '/v2/user', { token: world.tokens.admin });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('read_user');
    expect(Object.keys(response.body)).toEqual(Object.keys(EXAMPLE));
    const { admin } = world.users;
    expect(response.body).toEqual({
      id: admin.id,
      graphql_id: Buffer.from(`User---${admin.id}`).toString('base64'),
      name: 'Ada Admin',
      email: 'admin@acme.test',
      avatar_url: gravatar('admin@acme.test'),
      created_at: admin.createdAt.toISOString(),
    });
    expect(response.body.created_at).toMatch(ISO_MS_Z);
    expect(UserWire.parse(response.body)).toEqual(response.body);
  });

  it("shows the user's own picture when they have one", async () => {
    const response = await world.call('GET', '/v2/user', { token: world.tokens.member });
    expect(response.body).toMatchObject({ email: 'member@acme.test', avatar_url: world.memberAvatar });
  });

  it('answers for every user their own user, whatever organizations the token is limited to', async () => {
    for (const [user, token] of [
      ['bystander', world.tokens.bystander],
      ['outsider', world.tokens.outsider],
      ['admin', await world.token('admin', { scopes: ['read_user'], organizations: ['other'] })],
    ] as const) {
      const response = await world.call('GET', '/v2/user', { token });
      expect(response.status).toBe(200);
      expect(response.body.id).toBe(world.users[user].id);
    }
  });

  it('shows the user exactly as builds show their creator', async () => {
    const created = await world.call('POST', '/v2/organizations/acme/pipelines/web/builds', {
      token: world.tokens.member,
      body: { commit: 'a'.repeat(40), branch: 'main' },
    });
    expect(created.status).toBe(201);
    const user = await world.call('GET', '/v2/user', { token: world.tokens.member });
    expect(created.body.creator).toEqual(user.body);
    const listed = await world.call('GET', '/v2/organizations/acme/builds', { token: world.tokens.member });
    expect(listed.body[0].creator).toEqual(user.body);
  });

  it('answers the same over tRPC', async () => {
    const rest = await world.call('GET', '/v2/user', { token: world.tokens.bystander });
    expect(await world.trpc(world.tokens.bystander).user.get.query()).toEqual(rest.body);
  });
});
