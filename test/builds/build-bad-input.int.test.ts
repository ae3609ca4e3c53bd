import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_TYPE } from '../support/answers';
import { expectNothingLeaks } from '../support/refusal';
import { startWorld, type World } from '../support/world';

/**
 * Bad input on the builds endpoints: every answer is a 4xx JSON `{message}` that leaks nothing, and no
 * refused request changes data. The last test counts the builds: exactly those the successful requests made.
 */

const ORGANIZATION = '/v2/organizations/acme';
const PIPELINE = `${ORGANIZATION}/pipelines/web/builds`;
const VALID = { commit: 'a'.repeat(40), branch: 'main' };

type Reply = Awaited<ReturnType<World['call']>>;
interface Options {
  token?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

let world: World;
/** builds that answers of 201 (create) and 200 (rebuild) reported made */
let made = 0;
let buildsBefore = 0;
/** build 1 of `web`: never the target of a request meant to succeed, so it must end as it started */
let witness: Record<string, unknown>;

/** What every answer of this file must be: below 500, JSON, and an error a `{message}` that leaks nothing. */
function expectSafe(response: Reply, options: { exactContentType?: boolean } = {}) {
  expect(response.status, response.text).toBeLessThan(500);
  if (options.exactContentType ?? true) {
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
  } else {
    expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
  }
  expect(() => JSON.parse(response.text)).not.toThrow();
  if (response.status >= 400) {
    expect(typeof response.body?.message, response.text).toBe('string');
    expectNothingLeaks(response.text, [/\bfrom builds\b/i]);
  }
}

function count(method: string, path: string, response: Reply) {
  const route = path.split('?')[0] ?? '';
  if (method === 'POST' && response.status === 201) made++;
  if (method === 'PUT' && route.endsWith('/rebuild') && response.status === 200) made++;
}

/** A request as `admin` (unless told otherwise), checked by `expectSafe` and counted. */
async function call(method: string, path: string, options: Options = {}): Promise<Reply> {
  const response = await world.call(method, path, options);
  expectSafe(response);
  count(method, path, response);
  return response;
}

/** A request whose body goes out as bytes, so that no Content-Type is added to it. */
async function callWithoutContentType(method: string, path: string, text: string): Promise<Reply> {
  const response = await world.server.fetch(path, {
    method,
    headers: { Authorization: `Bearer ${world.tokens.admin}` },
    body: new TextEncoder().encode(text),
  });
  const body = await response.text();
  const reply: Reply = {
    status: response.status,
    headers: response.headers,
    body: body ? JSON.parse(body) : null,
    text: body,
  };
  expectSafe(reply);
  count(method, path, reply);
  return reply;
}

async function createBuild(fields: Record<string, unknown> = {}) {
  const response = await call('POST', PIPELINE, { body: { ...VALID, message: 'a build', ...fields } });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: string; number: number };
}

function expectMessage(response: Reply, status: number, message: string | RegExp) {
  expect(response.status, response.text).toBe(status);
  expect(Object.keys(response.body)).toEqual(['message']);
  if (typeof message === 'string') expect(response.body.message).toBe(message);
  else expect(response.body.message).toMatch(message);
}

/** 422 in the spec's shape, holding (at least) the given field errors. */
function expectValidationFailed(response: Reply, errors: Array<{ field: string; code: string }>) {
  expect(response.status, response.text).toBe(422);
  expect(Object.keys(response.body).sort()).toEqual(['errors', 'message']);
  expect(response.body.message).toBe('Validation Failed');
  const reported = response.body.errors as Array<Record<string, unknown>>;
  for (const error of reported) {
    expect(Object.keys(error).sort()).toEqual(['code', 'field', 'message']);
    expect(error).toEqual({
      field: expect.any(String),
      code: expect.any(String),
      message: expect.any(String),
    });
  }
  for (const error of errors) expect(reported).toContainEqual({ ...error, message: expect.any(String) });
}

const witnessRow = async () => {
  const [row] = await world.server.database.sql.query(
    `select b.* from builds b join pipelines p on p.id = b.pipeline_id where p.slug = 'web' and b.number = 1`,
  );
  if (!row) throw new Error('the witness build is missing');
  return row;
};

beforeAll(async () => {
  world = await startWorld();
  const [row] = await world.server.database.sql.query<{ n: number }>('select count(*)::int as n from builds');
  buildsBefore = row?.n ?? 0;
  const first = await createBuild({ message: 'the witness' });
  expect(first.number).toBe(1);
  witness = await witnessRow();
});

afterAll(async () => {
  await world?.close();
});

describe('request bodies', () => {
  it.each([
    ['a truncated object', '{"commit":'],
    ['unquoted keys', "{commit: 'a', branch: 'main'}"],
    ['a trailing comma', '{"commit":"a","branch":"main",}'],
    ['a bare word', 'nope'],
    ['a form encoding', 'commit=a&branch=main'],
    ['a second value after the object', '{"commit":"a","branch":"main"}}'],
    ['a prototype-poisoning key', '{"commit":"a","branch":"main","__proto__":{"admin":true}}'],
  ])('answers 400 Problems parsing JSON for %s', async (_case, rawBody) => {
    const response = await call('POST', PIPELINE, {
      rawBody,
      headers: { 'Content-Type': 'application/json' },
    });
    expectMessage(response, 400, /^Problems parsing JSON/);
  });

  it.each([
    ['an array', '[{"commit":"a","branch":"main"}]'],
    ['an empty array', '[]'],
    ['a string', '"commit"'],
    ['a number', '42'],
    ['a boolean', 'true'],
  ])('answers 400 for a JSON body that is %s rather than an object', async (_case, rawBody) => {
    const response = await call('POST', PIPELINE, {
      rawBody,
      headers: { 'Content-Type': 'application/json' },
    });
    expectMessage(response, 400, /^Problems parsing JSON/);
  });

  it('accepts a JSON body sent without a Content-Type', async () => {
    const response = await callWithoutContentType('POST', PIPELINE, JSON.stringify(VALID));
    expect(response.status, response.text).toBe(201);
  });

  it.each([
    'text/plain',
    'text/plain; charset=utf-8',
    'application/json; charset=utf-8',
    'application/vnd.api+json',
  ])('accepts a JSON body sent as %s', async (contentType) => {
    const response = await call('POST', PIPELINE, {
      rawBody: JSON.stringify(VALID),
      headers: { 'Content-Type': contentType },
    });
    expect(response.status, response.text).toBe(201);
  });

  it.each([
    ['no body and no Content-Type', undefined, undefined],
    ['an empty body with a JSON Content-Type', '', 'application/json'],
    ['an empty object', '{}', 'application/json'],
    ['blank text', '  \n', 'text/plain'],
  ])('cancels and rebuilds with %s', async (_case, rawBody, contentType) => {
    const build = await createBuild();
    const options: Options = {
      ...(rawBody !== undefined ? { rawBody } : {}),
      ...(contentType ? { headers: { 'Content-Type': contentType } } : {}),
    };
    const canceled = await call('PUT', `${PIPELINE}/${build.number}/cancel`, options);
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.body.state).toBe('canceled');
    const rebuilt = await call('PUT', `${PIPELINE}/${build.number}/rebuild`, options);
    expect(rebuilt.status, rebuilt.text).toBe(200);
    expect(rebuilt.body.rebuilt_from).toMatchObject({ id: build.id, number: build.number });
  });

  it('reads an empty create body as one without commit and branch', async () => {
    const response = await call('POST', PIPELINE, {
      rawBody: '',
      headers: { 'Content-Type': 'application/json' },
    });
    expectValidationFailed(response, [
      { field: 'commit', code: 'missing' },
      { field: 'branch', code: 'missing' },
    ]);
  });

  // Cancel and rebuild aim at the witness: were the size not refused, the last test would see it changed.
  it.each([
    ['a create', 'POST', PIPELINE],
    ['a cancel', 'PUT', `${PIPELINE}/1/cancel`],
    ['a rebuild', 'PUT', `${PIPELINE}/1/rebuild`],
  ])('answers 413 with a message for %s body over 1 MiB', async (_case, method, path) => {
    const response = await call(method, path, {
      body: { ...VALID, message: 'm'.repeat(1024 * 1024) },
    });
    expect(response.status).toBe(413);
    expect(Object.keys(response.body)).toEqual(['message']);
  });
});

describe('create-body validation', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['commit as a number', { commit: 1234 }, 'commit'],
    ['branch as a boolean', { branch: true }, 'branch'],
    ['message as an object', { message: { text: 'hi' } }, 'message'],
    ['env with a number value', { env: { FOO: 1 } }, 'env'],
    ['env with an object value', { env: { FOO: { bar: 'baz' } } }, 'env'],
    ['env as an array', { env: ['FOO=bar'] }, 'env'],
    ['env as a string', { env: 'FOO=bar' }, 'env'],
    ['meta_data as an array', { meta_data: ['release'] }, 'meta_data'],
    ['meta_data with a null value', { meta_data: { release: null } }, 'meta_data'],
    ['author as a string', { author: 'Ada <admin@acme.test>' }, 'author'],
    ['author with a numeric name', { author: { name: 7, email: 'a@acme.test' } }, 'author.name'],
    ['pull_request_id as "abc"', { pull_request_id: 'abc' }, 'pull_request_id'],
    ['pull_request_id as -1', { pull_request_id: -1 }, 'pull_request_id'],
    ['pull_request_id as 1.5', { pull_request_id: 1.5 }, 'pull_request_id'],
    ['pull_request_id past the safe integers', { pull_request_id: 2 ** 53 }, 'pull_request_id'],
    [
      'a numeric pull_request_repository',
      { pull_request_id: 1, pull_request_repository: 5 },
      'pull_request_repository',
    ],
    ['clean_checkout as "yes"', { clean_checkout: 'yes' }, 'clean_checkout'],
    [
      'ignore_pipeline_branch_filters as 1',
      { ignore_pipeline_branch_filters: 1 },
      'ignore_pipeline_branch_filters',
    ],
  ])('answers 422 invalid for %s', async (_case, fields, field) => {
    const response = await call('POST', PIPELINE, { body: { ...VALID, ...fields } });
    expectValidationFailed(response, [{ field, code: 'invalid' }]);
  });

  it('reports every wrong-typed field of one body at once', async () => {
    const response = await call('POST', PIPELINE, {
      body: {
        commit: 1234,
        branch: 'main',
        env: { FOO: 1 },
        meta_data: ['release'],
        author: 'Ada',
        pull_request_id: 'abc',
        clean_checkout: 'yes',
      },
    });
    expectValidationFailed(response, []);
    const fields = (response.body.errors as Array<{ field: string }>).map((error) => error.field);
    expect([...new Set(fields)].sort()).toEqual(
      ['author', 'clean_checkout', 'commit', 'env', 'meta_data', 'pull_request_id'].sort(),
    );
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['an empty object', {}, ['commit', 'branch']],
    ['no branch', { commit: 'HEAD' }, ['branch']],
    ['no commit', { branch: 'main' }, ['commit']],
    ['a null commit', { commit: null, branch: 'main' }, ['commit']],
    ['an empty commit', { commit: '', branch: 'main' }, ['commit']],
    ['a blank branch', { commit: 'HEAD', branch: ' \t ' }, ['branch']],
    ['an author without email', { ...VALID, author: { name: 'Ada' } }, ['author.email']],
  ])('answers 422 missing for %s', async (_case, body, fields) => {
    const response = await call('POST', PIPELINE, { body });
    expectValidationFailed(
      response,
      fields.map((field) => ({ field, code: 'missing' })),
    );
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a commit of 256 characters', { commit: 'c'.repeat(256) }, 'commit'],
    ['a branch of 256 characters', { branch: 'b'.repeat(256) }, 'branch'],
    ['a message of 10001 characters', { message: 'm'.repeat(10_001) }, 'message'],
    [
      'an author name of 256 characters',
      { author: { name: 'n'.repeat(256), email: 'a@acme.test' } },
      'author.name',
    ],
    ['an env value of 10001 characters', { env: { FOO: 'v'.repeat(10_001) } }, 'env'],
    ['an env key of 256 characters', { env: { ['K'.repeat(256)]: 'v' } }, 'env'],
    [
      'meta_data with 101 keys',
      { meta_data: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 'v'])) },
      'meta_data',
    ],
    [
      'a pull_request_base_branch of 256 characters',
      { pull_request_id: 1, pull_request_base_branch: 'b'.repeat(256) },
      'pull_request_base_branch',
    ],
  ])('answers 422 too_long for %s', async (_case, fields, field) => {
    const response = await call('POST', PIPELINE, { body: { ...VALID, ...fields } });
    expectValidationFailed(response, [{ field, code: 'too_long' }]);
  });

  it('accepts commit and branch at exactly their limit', async () => {
    const response = await call('POST', PIPELINE, {
      body: { commit: 'c'.repeat(255), branch: 'b'.repeat(255) },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.commit).toHaveLength(255);
  });

  it('ignores unknown fields, including ones that name what the server decides', async () => {
    const response = await call('POST', PIPELINE, {
      body: {
        ...VALID,
        id: '00000000-0000-7000-8000-000000000000',
        number: 999_999,
        state: 'passed',
        source: 'webhook',
        creator: { id: world.users.bystander.id },
        created_at: '2001-01-01T00:00:00Z',
        rebuilt_from: { id: 'x', number: 1 },
        whatever: { nested: ['value'] },
      },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({
      state: 'scheduled',
      source: 'api',
      rebuilt_from: null,
      creator: { id: world.users.admin.id },
    });
    expect(response.body.id).not.toBe('00000000-0000-7000-8000-000000000000');
    expect(response.body.number).not.toBe(999_999);
    expect(response.body.created_at).not.toMatch(/^2001/);
  });
});

describe('text in every string field', () => {
  it.each([
    ['SQL metacharacters', "'; drop table builds; --"],
    ['an injection in parentheses', "x') or ('1'='1"],
    ['accents, CJK and emoji', 'fix: ünïcödé 中文 🚀👩‍💻'],
    ['LIKE wildcards and backslashes', '100%_done\\n\\'],
    ['quotes and JSON punctuation', '"}{"a":[1]'],
    ['a dollar placeholder', '$1 $$ $2::text'],
  ])('keeps %s exactly as sent in every string field and finds it by the filters', async (_case, text) => {
    const created = await call('POST', PIPELINE, {
      body: {
        commit: text,
        branch: text,
        message: text,
        author: { name: text, email: text },
        env: { [text]: text },
        meta_data: { [text]: text },
        pull_request_id: 7,
        pull_request_base_branch: text,
        pull_request_repository: text,
      },
    });
    expect(created.status, created.text).toBe(201);
    const expected = {
      commit: text,
      branch: text,
      message: text,
      env: { [text]: text },
      meta_data: { [text]: text },
      pull_request: { id: '7', base: text, repository: text },
    };
    expect(created.body).toMatchObject(expected);

    const read = await call('GET', `${PIPELINE}/${created.body.number}`);
    expect(read.body).toMatchObject(expected);
    const [row] = await world.server.database.sql.query<{ author: unknown }>(
      'select author from builds where id = $1',
      [created.body.id],
    );
    expect(row?.author).toEqual({ name: text, email: text });

    const value = encodeURIComponent(text);
    for (const query of [`branch=${value}`, `commit=${value}`, `meta_data[${value}]=${value}`]) {
      for (const list of [PIPELINE, `${ORGANIZATION}/builds`, '/v2/builds']) {
        const found = await call('GET', `${list}?${query}&per_page=100`);
        expect(found.status, `${list}?${query}`).toBe(200);
        expect((found.body as Array<{ id: string }>).map((build) => build.id)).toEqual([created.body.id]);
      }
    }
  });

  const UNSTORABLE: Array<[string, string]> = [
    ['a NUL character', 'a\u0000b'],
    ['an unpaired surrogate', 'a\ud800b'],
  ];
  const FIELDS: Array<[string, (text: string) => Record<string, unknown>, string]> = [
    ['commit', (text) => ({ commit: text }), 'commit'],
    ['branch', (text) => ({ branch: text }), 'branch'],
    ['message', (text) => ({ message: text }), 'message'],
    ['author.name', (text) => ({ author: { name: text, email: 'a@acme.test' } }), 'author.name'],
    ['author.email', (text) => ({ author: { name: 'Ada', email: text } }), 'author.email'],
    ['an env value', (text) => ({ env: { FOO: text } }), 'env'],
    ['an env key', (text) => ({ env: { [text]: 'x' } }), 'env'],
    ['a meta_data value', (text) => ({ meta_data: { release: text } }), 'meta_data'],
    ['a meta_data key', (text) => ({ meta_data: { [text]: 'x' } }), 'meta_data'],
    [
      'pull_request_base_branch',
      (text) => ({ pull_request_id: 1, pull_request_base_branch: text }),
      'pull_request_base_branch',
    ],
    [
      'pull_request_repository',
      (text) => ({ pull_request_id: 1, pull_request_repository: text }),
      'pull_request_repository',
    ],
  ];
  it.each(
    UNSTORABLE.flatMap(([what, text]) =>
      FIELDS.map(([name, fields, field]) => [what, name, { ...VALID, ...fields(text) }, field] as const),
    ),
  )('answers 422 invalid, not 500, for %s in %s', async (_what, _name, body, field) => {
    const response = await call('POST', PIPELINE, { body });
    expectValidationFailed(response, [{ field, code: 'invalid' }]);
  });

  it.each([
    ['branch=a%00b', 'branch'],
    ['branch[]=main&branch[]=%00', 'branch'],
    ['commit=%00', 'commit'],
    ['meta_data[release]=1%002', 'meta_data'],
    ['meta_data[re%00lease]=1', 'meta_data'],
    ['state=pass%00ed', 'state'],
    ['created_from=2026-01-01%00', 'created_from'],
    ['creator=%00', 'creator'],
    ['page=1%00', 'page'],
  ])('answers 400 naming the filter, not 500, for a NUL in %s', async (query, name) => {
    for (const list of [PIPELINE, `${ORGANIZATION}/builds`, '/v2/builds']) {
      const response = await call('GET', `${list}?${query}`);
      expectMessage(response, 400, new RegExp(`\\b${name}\\b`));
    }
  });

  const SEGMENTS = [
    ['SQL metacharacters', encodeURIComponent("'; drop table builds; --")],
    ['an emoji', encodeURIComponent('🚀')],
    ['a NUL character', '%00'],
    ['an encoded slash', 'web%2F..%2Fapi'],
    ['a segment of 2000 characters', 'w'.repeat(2000)],
  ];
  type Position = 'organization' | 'pipeline' | 'number';
  const NOT_FOUND: Record<Position, string> = {
    organization: 'No organization found',
    pipeline: 'No pipeline found',
    number: 'No build found',
  };
  const PATHS: Array<[string, Position[], (at: Record<Position, string>) => string]> = [
    ['GET', ['organization'], (at) => `/v2/organizations/${at.organization}/builds`],
    [
      'GET',
      ['organization', 'pipeline'],
      (at) => `/v2/organizations/${at.organization}/pipelines/${at.pipeline}/builds`,
    ],
    [
      'POST',
      ['organization', 'pipeline'],
      (at) => `/v2/organizations/${at.organization}/pipelines/${at.pipeline}/builds`,
    ],
    ...['', '/cancel', '/rebuild'].map(
      (action): [string, Position[], (at: Record<Position, string>) => string] => [
        action ? 'PUT' : 'GET',
        ['organization', 'pipeline', 'number'],
        (at) => `/v2/organizations/${at.organization}/pipelines/${at.pipeline}/builds/${at.number}${action}`,
      ],
    ),
  ];
  it.each(SEGMENTS)(
    'answers the 404 of the segment that holds %s, on every operation',
    async (_case, segment) => {
      for (const [method, positions, path] of PATHS) {
        for (const position of positions) {
          const at = { organization: 'acme', pipeline: 'web', number: '1', [position]: segment };
          const response = await call(method, path(at), method === 'POST' ? { body: VALID } : {});
          expectMessage(response, 404, NOT_FOUND[position]);
        }
      }
    },
  );

  it('answers malformed percent-encoding in the path with a 400 message', async () => {
    for (const path of [
      `${PIPELINE}/%zz`,
      `${ORGANIZATION}/pipelines/w%ffb/builds`,
      `${PIPELINE}/1%/cancel`,
    ]) {
      const response = await world.call('GET', path);
      // Refused before any route runs, through the same error translation as everything else.
      expectSafe(response);
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['message']);
    }
  });
});

describe('build numbers in the path', () => {
  // Several of these read as 1 to a lenient parser; cancel and rebuild would then change the witness.
  const NUMBERS = [
    'abc',
    '-1',
    '0',
    '01',
    '1.5',
    '1e3',
    '+1',
    '0x1',
    '1%20',
    '%EF%BC%91', // a fullwidth digit one
    'Infinity',
    'NaN',
    '99999999999999999999',
    '2147483648',
    '2147483647',
  ];
  it.each(
    NUMBERS.flatMap((number) => ['get', 'cancel', 'rebuild'].map((action) => [number, action] as const)),
  )('answers 404 No build found for build number %s on %s', async (number, action) => {
    const path = `${PIPELINE}/${number}${action === 'get' ? '' : `/${action}`}`;
    const response = await call(action === 'get' ? 'GET' : 'PUT', path);
    expectMessage(response, 404, 'No build found');
  });
});

describe('list query parameters', () => {
  const LISTS = [PIPELINE, `${ORGANIZATION}/builds`, '/v2/builds'];

  it.each([
    ['state=nope', 'state'],
    ['state=PASSED', 'state'],
    ['state[]=passed&state[]=sideways', 'state'],
    ['state=passed,failed', 'state'],
    ["state='; drop table builds; --", 'state'],
    ...['created_from', 'created_to', 'finished_from'].flatMap((name) =>
      [
        'yesterday',
        '2026-13-01',
        '2026-02-30',
        '2026-01-01T25:00:00Z',
        '2026-01-01T10:00:00',
        '1700000000',
        '2026-01-01T00:00:00Z%20or%201=1',
      ].map((value) => [`${name}=${value}`, name]),
    ),
    ['creator=abc', 'creator'],
    ['creator=123', 'creator'],
    ['creator=0191df84-85e4-77aa-83ba-6579084728eb0', 'creator'],
    [`creator=${encodeURIComponent("'; drop table builds; --")}`, 'creator'],
    ...['page', 'per_page'].flatMap((name) =>
      // A ten-digit per_page is clamped to 100 (decisions.md; build-list-bound.int.test.ts), a page refused.
      ['abc', '-1', '1.5', '1e3', '0x10', ...(name === 'page' ? ['9999999999'] : []), '%F0%9F%9A%80'].map(
        (value) => [`${name}=${value}`, name],
      ),
    ),
  ])('answers 400 naming the parameter for %s', async (query, name) => {
    for (const list of LISTS) {
      const response = await call('GET', `${list}?${query}`);
      expectMessage(response, 400, new RegExp(`\\b${name}\\b`));
    }
  });

  it.each(['page=0', 'page=', 'per_page=0', 'per_page=', 'page=1&per_page=1'])(
    'accepts %s',
    async (query) => {
      const response = await call('GET', `${PIPELINE}?${query}`);
      expect(response.status).toBe(200);
    },
  );

  it.each(['1000', '101', '999999999'])('clamps per_page=%s to 100', async (perPage) => {
    const response = await call('GET', `${PIPELINE}?page=2&per_page=${perPage}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
    const link = response.headers.get('link') ?? '';
    expect(link).toContain('rel="first"');
    expect(link).toContain('page=1&per_page=100>');
    expect(link).not.toContain(`per_page=${perPage}`);
  });

  it('ignores unknown parameters', async () => {
    const response = await call('GET', `${PIPELINE}?colour=blue&limit=1&order=asc&sort[]=x&__proto__[a]=1`);
    expect(response.status).toBe(200);
    expect((response.body as unknown[]).length).toBeGreaterThan(1);
  });

  it('answers a long query string within the server limit as a filter that matches nothing', async () => {
    const branches = Array.from({ length: 400 }, (_, i) => `branch[]=feature/${i}`).join('&');
    const response = await call('GET', `${PIPELINE}?${branches}&commit=${'f'.repeat(4000)}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it('refuses a query string past the server limit with a 4xx message', async () => {
    const response = await world.call('GET', `${PIPELINE}?branch=${'x'.repeat(64 * 1024)}`);
    // Node refuses the request line before Fastify routes it (431), answered `{message}` like the rest.
    expectSafe(response);
    expect(response.status).toBe(431);
    expect(response.headers.get('connection')).toBe('close');
  });
});

describe('afterwards', () => {
  it('holds exactly the builds the successful requests made, and the witness as it was', async () => {
    const [row] = await world.server.database.sql.query<{ n: number }>(
      'select count(*)::int as n from builds',
    );
    expect(made).toBeGreaterThan(0);
    expect(row?.n).toBe(buildsBefore + made);
    expect(await witnessRow()).toEqual(witness);
    const rebuilt = await world.server.database.sql.query(
      'select id from builds where rebuilt_from_id = $1',
      [witness.id],
    );
    expect(rebuilt).toEqual([]);
  });
});
