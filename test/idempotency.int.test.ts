import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from './support/server-process';
import { readsToken, startWorld, teamIds, type World } from './support/world';

/**
 * `Idempotency-Key` on the POSTs that create (issue 31, the Stripe pattern): the same key and body
 * within a day answer the first response again without a second create, across processes and when
 * sent at once; the key with another body answers 422.
 */

const BUILDS = '/v2/organizations/acme/pipelines/web/builds';
const BUILD = { commit: 'a'.repeat(40), branch: 'main', message: 'once only' };

let world: World;
let other: ServerProcess;
beforeAll(async () => {
  world = await startWorld();
  // A second server process on the same database.
  other = await startServerProcess({ DATABASE_URL: world.server.url });
});
afterAll(async () => {
  await other?.stop();
  await world?.close();
});

const buildCount = async () => {
  const [row] = await world.server.database.sql.query<{ n: number }>('select count(*)::int as n from builds');
  return row?.n ?? 0;
};

const create = (key: string, body: Record<string, unknown> = BUILD, path = BUILDS) =>
  world.call('POST', path, { body, headers: { 'Idempotency-Key': key } });

describe('a create with an Idempotency-Key', () => {
  it('answers the same request again with the first response, without a second create', async () => {
    const before = await buildCount();
    const first = await create('retry-1');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await create('retry-1');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(again.body).toEqual(first.body);
    expect(await buildCount()).toBe(before + 1);
  });

  it('admits the caller once, and answers the replay with its scopes as the first answer', async () => {
    const first = await world.countStatements(() => create('admitted-once'));
    expect(first.result.status).toBe(201);
    expect(first.sql.filter(readsToken)).toHaveLength(1);
    const again = await world.countStatements(() => create('admitted-once'));
    expect(again.result.headers.get('idempotent-replayed')).toBe('true');
    expect(again.sql.filter(readsToken)).toHaveLength(1);
    const scopes = first.result.headers.get('x-oauth-scopes');
    expect(scopes).toContain('write_builds');
    expect(again.result.headers.get('x-oauth-scopes')).toBe(scopes);
  });

  it('answers from another server process too', async () => {
    const first = await create('retry-across');
    const before = await buildCount();
    const elsewhere = await fetch(`${other.baseUrl}${BUILDS}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${world.tokens.admin}`,
        'content-type': 'application/json',
        'idempotency-key': 'retry-across',
      },
      body: JSON.stringify(BUILD),
    });
    expect(elsewhere.status).toBe(201);
    // Its URLs name the other process's public address; the build is the same one.
    expect(((await elsewhere.json()) as { id: string }).id).toBe(first.body.id);
    expect(await buildCount()).toBe(before);
  });

  it('makes one build of identical requests sent at once', async () => {
    const before = await buildCount();
    const answers = await Promise.all(Array.from({ length: 6 }, () => create('at-once')));
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(await buildCount()).toBe(before + 1);
  });

  it('refuses the key with another body 422 {message}, and creates nothing', async () => {
    await create('reused');
    const before = await buildCount();
    const reused = await create('reused', { ...BUILD, message: 'something else' });
    expect(reused.status).toBe(422);
    expect(reused.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(reused.body).toEqual({
      message: 'Idempotency-Key was already used with a different request: send a new key for a new request',
    });
    expect(await buildCount()).toBe(before);
  });

  it('keeps a refusal too: the same invalid request answers the same 422 again', async () => {
    const first = await create('invalid-once', { branch: 'main' });
    expect(first.status).toBe(422);
    const again = await create('invalid-once', { branch: 'main' });
    expect(again.status).toBe(422);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('scopes keys to their user: another user with the same key creates its own', async () => {
    const mine = await create('shared-key');
    const theirs = await world.call('POST', '/v2/organizations/acme/pipelines/public/builds', {
      token: world.tokens.member,
      body: BUILD,
      headers: { 'Idempotency-Key': 'shared-key' },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('refuses a key that is not 1 to 255 visible characters 400 {message}', async () => {
    const refused = await create('x'.repeat(256));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: 'Idempotency-Key must be 1 to 255 visible ASCII characters' });
  });

  it('is ignored by POSTs that do not create', async () => {
    const build = await world.createBuild('web');
    const rebuilt = await world.call('PUT', `${BUILDS}/${build.number}/cancel`, {
      headers: { 'Idempotency-Key': 'not-a-create' },
    });
    expect(rebuilt.status).toBe(200);
  });
});

/**
 * Each of the four POSTs that create: what it makes, in which table, and a body that asks for something
 * else under the same key.
 */
const CREATES: Array<{
  what: string;
  path: () => Promise<string>;
  table: string;
  body: () => Record<string, unknown>;
  other: () => Record<string, unknown>;
  status: number;
}> = [
  {
    what: 'a build',
    path: async () => BUILDS,
    table: 'builds',
    body: () => ({ ...BUILD, message: 'each create' }),
    other: () => ({ ...BUILD, message: 'each create, changed' }),
    status: 201,
  },
  {
    what: 'a pipeline',
    path: async () => '/v2/organizations/acme/pipelines',
    table: 'pipelines',
    body: () => ({
      name: 'Idempotent',
      repository: 'git@github.com:acme/x.git',
      configuration: 'steps: [x]',
    }),
    other: () => ({
      name: 'Idempotent two',
      repository: 'git@github.com:acme/x.git',
      configuration: 'steps: [x]',
    }),
    status: 201,
  },
  {
    what: 'a registry (whose create answers 200)',
    path: async () => '/v2/packages/organizations/acme/registries',
    table: 'registries',
    body: () => ({ name: 'Idempotent registry', ecosystem: 'ruby' }),
    other: () => ({ name: 'Another registry', ecosystem: 'ruby' }),
    status: 200,
  },
  {
    what: 'a team pipeline',
    path: async () => `/v2/organizations/acme/teams/${(await teamIds(world)).hidden}/pipelines`,
    table: 'team_pipelines',
    body: () => ({ pipeline_id: world.pipelines.web!.id, access_level: 'read_only' }),
    other: () => ({ pipeline_id: world.pipelines.web!.id, access_level: 'build_and_read' }),
    status: 201,
  },
];

describe.each(CREATES)(
  'the create of $what with an Idempotency-Key',
  ({ path, table, body, other, status }) => {
    const count = async () => {
      const [row] = await world.server.database.sql.query<{ n: number }>(
        `select count(*)::int as n from ${table}`,
      );
      return row?.n ?? 0;
    };
    const key = `each-create-${table}`;

    it('answers the same request again with the first response, without a second create', async () => {
      const before = await count();
      const first = await create(key, body(), await path());
      expect(first.status).toBe(status);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(await count()).toBe(before + 1);
      const again = await create(key, body(), await path());
      expect(again.status).toBe(status);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      expect(await count()).toBe(before + 1);
    });

    it('refuses the key with another body 422 {message}, and creates nothing', async () => {
      const before = await count();
      const reused = await create(key, other(), await path());
      expect(reused.status).toBe(422);
      expect(reused.body).toEqual({
        message:
          'Idempotency-Key was already used with a different request: send a new key for a new request',
      });
      expect(await count()).toBe(before);
    });
  },
);
