import { RateLimitErrorWire } from '@ci/trpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_TYPE } from '../support/answers';
import { startWorld, type World } from '../support/world';

/**
 * The application's clock is a settable one, so the tests decide which minute-window a request falls
 * in: no test depends on when it runs. At 10:04:05 the window resets in 55 seconds.
 */
const START = new Date('2026-11-21T10:04:05.000Z');
const REGISTRIES = '/v2/packages/organizations/acme/registries';
/** The same list through tRPC. */
const TRPC_REGISTRIES = `/trpc/registries.list?input=${encodeURIComponent('{"organization":"acme"}')}`;
const RATE_LIMIT = /^ratelimit-/;
const MESSAGE = (seconds: number) =>
  `You have exceeded your API rate limit. Please wait ${seconds} seconds before making more requests.`;

/**
 * A world with these limits for the calling `describe` (started before its tests, closed after them),
 * on a clock its tests set: `time.at = …`.
 */
function withLimits(limits: { organization: number; user: number }) {
  const time = { at: START, now: () => time.at };
  let started: World | undefined;
  beforeAll(async () => {
    started = await startWorld(
      {
        RATE_LIMIT_ENABLED: 'true',
        RATE_LIMIT_ORGANIZATION_PER_MINUTE: String(limits.organization),
        RATE_LIMIT_USER_PER_MINUTE: String(limits.user),
      },
      { now: time.now },
    );
  });
  afterAll(async () => {
    await started?.close();
  });
  const world = () => {
    if (!started) throw new Error('the world is started before the tests');
    return started;
  };
  return { world, time };
}

const rateLimitHeadersOf = (headers: Headers) =>
  Object.fromEntries([...headers].filter(([name]) => RATE_LIMIT.test(name) || name === 'retry-after'));

describe('the organization limit', () => {
  const { world, time } = withLimits({ organization: 200, user: 1000 });

  it('counts down on every response and answers the 201st request of the minute 429 with the public body', async () => {
    for (let i = 1; i <= 200; i++) {
      const response = await world().call('GET', REGISTRIES);
      expect(response.status).toBe(200);
      expect(rateLimitHeadersOf(response.headers)).toEqual({
        'ratelimit-limit': '200',
        'ratelimit-remaining': String(200 - i),
        'ratelimit-reset': '55',
        'ratelimit-user-limit': '1000',
        'ratelimit-user-remaining': String(1000 - i),
        'ratelimit-user-reset': '55',
      });
    }
    const refused = await world().call('GET', REGISTRIES);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe(JSON_TYPE);
    expect(refused.body).toEqual({
      message: MESSAGE(55),
      scope: 'rest',
      limit: 200,
      current: 201,
      reset: 55,
    });
    expect(Object.keys(refused.body)).toEqual(['message', 'scope', 'limit', 'current', 'reset']);
    expect(RateLimitErrorWire.safeParse(refused.body).success).toBe(true);
    expect(rateLimitHeadersOf(refused.headers)).toEqual({
      'ratelimit-limit': '200',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '55',
      'ratelimit-user-limit': '1000',
      'ratelimit-user-remaining': '799',
      'ratelimit-user-reset': '55',
      'retry-after': '55',
    });
    expect(refused.headers.get('x-request-id')).toBeTruthy();
    expect(refused.headers.get('x-oauth-scopes')).toContain('read_registries');
    expect(refused.headers.get('x-accepted-oauth-scopes')).toBe('read_registries');
  });

  it('refuses every member of the organization, on every endpoint of it, for the rest of the minute', async () => {
    time.at = new Date('2026-11-21T10:04:50.000Z');
    const member = await world().call('GET', '/v2/organizations/acme/pipelines/web/builds', {
      token: world().tokens.member,
    });
    expect(member.status).toBe(429);
    expect(member.body).toEqual({ message: MESSAGE(10), scope: 'rest', limit: 200, current: 202, reset: 10 });
    expect(member.headers.get('ratelimit-user-remaining')).toBe('999');
    // Refused before the body is looked at: a create that would answer 422 (no commit, no branch) gets the 429.
    const create = await world().call('POST', '/v2/organizations/acme/pipelines/web/builds', { body: {} });
    expect(create.status).toBe(429);
  });

  it('leaves other organizations and requests that name none alone', async () => {
    const other = await world().call('GET', '/v2/packages/organizations/other/registries', {
      token: world().tokens.otherAdmin,
    });
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-remaining')).toBe('199');
    // Listing every build names no organization: only the user's counter applies and is shown.
    const everywhere = await world().call('GET', '/v2/builds');
    expect(everywhere.status).toBe(200);
    expect(rateLimitHeadersOf(everywhere.headers)).toEqual({
      'ratelimit-user-limit': '1000',
      'ratelimit-user-remaining': String(1000 - 203),
      'ratelimit-user-reset': '10',
    });
  });

  it('starts afresh when the next minute starts', async () => {
    time.at = new Date('2026-11-21T10:05:00.000Z');
    const response = await world().call('GET', REGISTRIES);
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-remaining')).toBe('199');
    expect(response.headers.get('ratelimit-reset')).toBe('60');
    expect(response.headers.get('ratelimit-user-remaining')).toBe('999');
  });
});

describe('the user limit', () => {
  const { world } = withLimits({ organization: 1000, user: 200 });

  it("answers a user's 201st request 429 `rest_user`, whatever the endpoint, while another user of the organization goes on", async () => {
    for (let i = 1; i <= 200; i++) {
      const path = i % 2 ? REGISTRIES : '/v2/packages/organizations/other/registries';
      const response = await world().call('GET', path);
      // Other is not Admin's organization: 404, counted against Admin all the same.
      expect(response.status).toBe(i % 2 ? 200 : 404);
      expect(response.headers.get('ratelimit-user-remaining')).toBe(String(200 - i));
    }
    const refused = await world().call('GET', REGISTRIES);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      message: MESSAGE(55),
      scope: 'rest_user',
      limit: 200,
      current: 201,
      reset: 55,
    });
    expect(refused.headers.get('ratelimit-user-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-remaining')).toBe(String(1000 - 101));
    expect(refused.headers.get('retry-after')).toBe('55');

    const member = await world().call('GET', REGISTRIES, { token: world().tokens.member });
    expect(member.status).toBe(200);
    expect(member.headers.get('ratelimit-user-remaining')).toBe('199');
    expect(member.headers.get('ratelimit-remaining')).toBe(String(1000 - 102));
  });

  it('counts every token of a user together', async () => {
    const second = await world().token('admin');
    const response = await world().call('GET', REGISTRIES, { token: second });
    expect(response.status).toBe(429);
    expect(response.body.scope).toBe('rest_user');
    expect(response.body.current).toBe(202);
  });

  it('answers 429 over tRPC too, with the same headers and the body in the error', async () => {
    const response = await world().call('GET', TRPC_REGISTRIES);
    expect(response.status).toBe(429);
    expect(response.body.error.message).toBe(MESSAGE(55));
    expect(response.body.error.data).toMatchObject({
      httpStatus: 429,
      code: 'TOO_MANY_REQUESTS',
      scope: 'rest_user',
      limit: 200,
      current: 203,
      reset: 55,
    });
    expect(response.headers.get('ratelimit-user-remaining')).toBe('0');
    expect(response.headers.get('retry-after')).toBe('55');
  });
});

describe('what counts against an organization', () => {
  const { world } = withLimits({ organization: 5, user: 1000 });

  const organizationRows = async () =>
    (
      await world().server.database.sql.query<{ count: number }>(
        "select count(*)::int as count from rate_limit_windows where subject_kind = 'organization'",
      )
    )[0]?.count;

  it('answers an unknown organization, and one the user is not in, alike: 404 with the user headers only, and no counter', async () => {
    const unknown = await world().call('GET', '/v2/packages/organizations/no-such-org/registries');
    const foreign = await world().call('GET', '/v2/packages/organizations/other/registries');
    for (const response of [unknown, foreign]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'No organization found' });
      expect(Object.keys(rateLimitHeadersOf(response.headers)).sort()).toEqual([
        'ratelimit-user-limit',
        'ratelimit-user-remaining',
        'ratelimit-user-reset',
      ]);
    }
    expect(await organizationRows()).toBe(0);
  });

  it("cannot spend another organization's requests", async () => {
    for (let i = 0; i < 10; i++) {
      expect((await world().call('GET', '/v2/packages/organizations/other/registries')).status).toBe(404);
    }
    const owner = await world().call('GET', '/v2/packages/organizations/other/registries', {
      token: world().tokens.otherAdmin,
    });
    expect(owner.status).toBe(200);
    expect(owner.headers.get('ratelimit-remaining')).toBe('4');
  });

  it('counts an organization a token is limited away from as none', async () => {
    const limited = await world().token('admin', { organizations: ['other'] });
    const response = await world().call('GET', REGISTRIES, { token: limited });
    expect(response.status).toBe(404);
    expect(response.headers.get('ratelimit-remaining')).toBeNull();
  });

  it('counts the organization of a path whatever the request becomes: 403, 404, 400 and 422 included', async () => {
    const readOnly = await world().token('admin', { scopes: ['read_builds'] });
    const answers = [
      (await world().call('GET', REGISTRIES, { token: readOnly })).status,
      (await world().call('GET', '/v2/packages/organizations/acme/registries/nope')).status,
      (await world().call('GET', `${REGISTRIES}?page=x`)).status,
      (await world().call('POST', REGISTRIES, { body: {} })).status,
    ];
    expect(answers).toEqual([403, 404, 400, 422]);
    const fifth = await world().call('GET', REGISTRIES);
    expect(fifth.status).toBe(200);
    expect(fifth.headers.get('ratelimit-remaining')).toBe('0');
    expect((await world().call('GET', REGISTRIES)).status).toBe(429);
  });

  it("counts a request without a valid token against its client address, not a user's or an organization's", async () => {
    const response = await world().call('GET', REGISTRIES, { token: null });
    expect(response.status).toBe(401);
    expect(rateLimitHeadersOf(response.headers)).toEqual({
      'ratelimit-limit': '30',
      'ratelimit-remaining': '29',
      'ratelimit-reset': expect.any(String),
    });
  });

  it('names no organization when the slug is text PostgreSQL cannot take', async () => {
    const response = await world().call('GET', '/v2/packages/organizations/ac%00me/registries');
    expect(response.status).toBe(404);
    expect(response.headers.get('ratelimit-remaining')).toBeNull();
    expect(response.headers.get('ratelimit-user-remaining')).not.toBeNull();
  });
});

describe('with rate limiting switched off', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld({
      RATE_LIMIT_ENABLED: 'false',
      RATE_LIMIT_ORGANIZATION_PER_MINUTE: '1',
      RATE_LIMIT_USER_PER_MINUTE: '1',
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('sends no rate-limit header, never answers 429 and asks the database nothing about it', async () => {
    const { sql } = await world.countStatements(async () => {
      for (let i = 0; i < 5; i++) {
        const response = await world.call('GET', REGISTRIES);
        expect(response.status).toBe(200);
        expect(rateLimitHeadersOf(response.headers)).toEqual({});
      }
      const trpc = await world.call('GET', TRPC_REGISTRIES);
      expect(trpc.status).toBe(200);
      expect(rateLimitHeadersOf(trpc.headers)).toEqual({});
    });
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.filter((text) => text.includes('rate_limit_windows'))).toEqual([]);
  });
});

describe('GraphQL', () => {
  const { world } = withLimits({ organization: 1000, user: 3 });

  const query = () => world().call('POST', '/graphql', { body: { query: '{ viewer { user { name } } }' } });

  it("counts each request against the user's limit, shared with REST, and answers 429 past it", async () => {
    const rest = await world().call('GET', REGISTRIES);
    expect(rest.headers.get('ratelimit-user-remaining')).toBe('2');
    for (const remaining of ['1', '0']) {
      const response = await query();
      expect(response.status, response.text).toBe(200);
      // A query names no organization: the user's headers only, as for `GET /v2/builds`.
      expect(rateLimitHeadersOf(response.headers)).toEqual({
        'ratelimit-user-limit': '3',
        'ratelimit-user-remaining': remaining,
        'ratelimit-user-reset': '55',
      });
    }
    const refused = await query();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('55');
    expect(refused.body).toEqual({
      errors: [{ message: MESSAGE(55), extensions: { scope: 'rest_user', limit: 3, current: 4, reset: 55 } }],
    });
  });
});

describe('refused tokens', () => {
  const time = { at: START, now: () => time.at };
  let world: World;
  beforeAll(async () => {
    world = await startWorld(
      { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_FAILED_AUTHENTICATIONS_PER_MINUTE: '3' },
      { now: time.now },
    );
  });
  afterAll(async () => {
    await world?.close();
  });

  it('count down per client address on REST, tRPC and GraphQL, then answer 429 until the window resets', async () => {
    const attempts = [
      () => world.call('GET', REGISTRIES, { token: 'bkua_unknown' }),
      () => world.call('GET', TRPC_REGISTRIES, { token: null }),
      () =>
        world.call('POST', '/graphql', {
          token: `bkua_${'0'.repeat(40)}`,
          body: { query: '{ viewer { user { name } } }' },
        }),
    ];
    for (const [i, attempt] of attempts.entries()) {
      const refused = await attempt();
      expect(refused.status).toBe(401);
      expect(rateLimitHeadersOf(refused.headers)).toEqual({
        'ratelimit-limit': '3',
        'ratelimit-remaining': String(2 - i),
        'ratelimit-reset': '55',
      });
    }
    for (const attempt of attempts) {
      const limited = await attempt();
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('55');
      expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    }
    const rest = await attempts[0]!();
    expect(rest.headers.get('content-type')).toBe(JSON_TYPE);
    expect(rest.body).toEqual({
      message: MESSAGE(55),
      scope: 'failed_authentication',
      limit: 3,
      current: 7,
      reset: 55,
    });
    expect(RateLimitErrorWire.safeParse(rest.body).success).toBe(true);

    // A good token is counted as ever, with the user's and organization's headers only.
    const served = await world.call('GET', REGISTRIES);
    expect(served.status).toBe(200);
    expect(served.headers.get('ratelimit-user-remaining')).toBeTruthy();

    time.at = new Date(START.getTime() + 60_000);
    const next = await attempts[0]!();
    expect(next.status).toBe(401);
    expect(next.headers.get('ratelimit-remaining')).toBe('2');
  });

  it("count the web app's live log alike", async () => {
    time.at = new Date(START.getTime() + 120_000);
    const live = () =>
      world.call('GET', '/live/jobs/acme/web/1/00000000-0000-7000-8000-000000000000/log', {
        token: 'bkua_unknown',
      });
    for (const remaining of ['2', '1', '0']) {
      const refused = await live();
      expect(refused.status).toBe(401);
      expect(refused.headers.get('ratelimit-remaining')).toBe(remaining);
    }
    expect((await live()).status).toBe(429);
  });
});
