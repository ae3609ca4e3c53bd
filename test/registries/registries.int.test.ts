import { RegistryWire } from '@ci/trpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleKeys, JSON_TYPE, linksOf, UUID_V7, walkPages } from '../support/answers';
import { API_URL, type RegistriesWorld, startRegistriesWorld, WEB_URL } from '../support/registries-world';
import { trpcFailure } from '../support/trpc';

/**
 * Package registries on /v2 through the real HTTP server and PostgreSQL: every operation and status, the
 * wire shape against the public API's examples, slugs and renames, validation, pagination, bad input and
 * concurrent creates (api-spec.md "Registries", decisions.md "Registries" and "Errors").
 */

type Json = Record<string, unknown>;

const TAKEN = 'Validation failed: Name has already been taken';

let world: RegistriesWorld;
beforeAll(async () => {
  world = await startRegistriesWorld();
});
afterAll(() => world?.close());

const REGISTRIES = '/v2/packages/organizations/acme/registries';
const registryPath = (slug: string, organization = 'acme') =>
  `/v2/packages/organizations/${organization}/registries/${slug}`;

/** A response body checked against the wire schema and the key order of a reference example. */
function expectRegistry(body: unknown, exampleFile: string) {
  expect(Object.keys(body as Json)).toEqual(exampleKeys(exampleFile));
  return RegistryWire.parse(body);
}

describe('POST /v2/packages/organizations/{org}/registries', () => {
  it('answers 200 with the registry in the shape of the create example', async () => {
    const response = await world.call('POST', REGISTRIES, {
      body: { name: 'my registry', ecosystem: 'ruby', description: 'registry containing ruby gems' },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    const registry = expectRegistry(response.body, 'registries-create.json');
    expect(registry.id).toMatch(UUID_V7);
    expect(Buffer.from(registry.graphql_id, 'base64').toString('utf8')).toBe(`Registry---${registry.id}`);
    expect(registry).toEqual({
      id: registry.id,
      graphql_id: registry.graphql_id,
      slug: 'my-registry',
      url: `${API_URL}/v2/packages/organizations/acme/registries/my-registry`,
      web_url: `${WEB_URL}/organizations/acme/packages/registries/my-registry`,
      name: 'my registry',
      ecosystem: 'ruby',
      description: 'registry containing ruby gems',
      emoji: null,
      color: null,
      public: false,
      oidc_policy: null,
      team_ids: [],
    });
  });

  it('defaults the description to null', async () => {
    const registry = await world.createRegistry({ name: 'No Description', ecosystem: 'python' });
    expect(registry).toMatchObject({ slug: 'no-description', ecosystem: 'python', description: null });
  });

  it.each([
    ['Ruby Gems', 'ruby-gems'],
    ['  Spaced   Out  ', 'spaced-out'],
    ['Release/Candidates 2026!!', 'release-candidates-2026'],
    ['__under_scores__', 'under-scores'],
    ['Ünïcode Packages', 'n-code-packages'],
    ['x', 'x'],
  ])('derives the slug of %j as %j', async (name, slug) => {
    const registry = await world.createRegistry({ name, ecosystem: 'files' });
    expect(registry.slug).toBe(slug);
    expect(registry.name).toBe(name.trim());
    const got = await world.call('GET', registryPath(slug));
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(registry.id);
  });

  it('accepts every agreed ecosystem', async () => {
    const ecosystems = RegistryWire.shape.ecosystem.options;
    expect(ecosystems).toHaveLength(13);
    for (const ecosystem of ecosystems) {
      const registry = await world.createRegistry({ name: `eco ${ecosystem}`, ecosystem });
      expect(registry.ecosystem).toBe(ecosystem);
    }
  });

  it('lets the same name be used in another organization', async () => {
    await world.createRegistry({ name: 'Shared Name' });
    const elsewhere = await world.createRegistry(
      { name: 'Shared Name' },
      { token: world.tokens.outsider, organization: 'other' },
    );
    expect(elsewhere.url).toBe(`${API_URL}/v2/packages/organizations/other/registries/shared-name`);
  });

  describe('refuses with 422 and changes nothing', () => {
    const cases: Array<[string, unknown, string]> = [
      ['no name', { ecosystem: 'ruby' }, "Validation failed: Name can't be blank"],
      ['a blank name', { name: '   ', ecosystem: 'ruby' }, "Validation failed: Name can't be blank"],
      ['a null name', { name: null, ecosystem: 'ruby' }, "Validation failed: Name can't be blank"],
      [
        'a name whose slug is empty',
        { name: '!!!', ecosystem: 'ruby' },
        'Validation failed: Name must contain at least one letter or digit',
      ],
      ['a taken name', { name: 'my registry', ecosystem: 'java' }, TAKEN],
      ['a taken name spelled otherwise', { name: 'MY  REGISTRY!', ecosystem: 'ruby' }, TAKEN],
      ['no ecosystem', { name: 'gems' }, "Validation failed: Ecosystem can't be blank"],
      [
        'an unknown ecosystem',
        { name: 'gems', ecosystem: 'npm' },
        'Validation failed: Ecosystem is not included in the list',
      ],
      [
        'an ecosystem in capitals',
        { name: 'gems', ecosystem: 'RUBY' },
        'Validation failed: Ecosystem is not included in the list',
      ],
      [
        'a name of 256 characters',
        { name: 'n'.repeat(256), ecosystem: 'ruby' },
        'Validation failed: Name is too long (maximum is 255 characters)',
      ],
      [
        'a description of 1001 characters',
        { name: 'gems', ecosystem: 'ruby', description: 'd'.repeat(1001) },
        'Validation failed: Description is too long (maximum is 1000 characters)',
      ],
      [
        'a NUL byte in the name',
        { name: 'ge\u0000ms', ecosystem: 'ruby' },
        "Validation failed: Name can't contain NUL characters or unpaired surrogates",
      ],
      [
        'a NUL byte in the description',
        { name: 'gems', ecosystem: 'ruby', description: 'a\u0000b' },
        "Validation failed: Description can't contain NUL characters or unpaired surrogates",
      ],
      [
        'an unpaired surrogate in the name',
        { name: 'gems \ud800', ecosystem: 'ruby' },
        "Validation failed: Name can't contain NUL characters or unpaired surrogates",
      ],
      ['a numeric name', { name: 42, ecosystem: 'ruby' }, 'Validation failed: Name is invalid'],
      [
        'a non-string ecosystem',
        { name: 'gems', ecosystem: ['ruby'] },
        'Validation failed: Ecosystem is not included in the list',
      ],
      [
        'a non-string description',
        { name: 'gems', ecosystem: 'ruby', description: { text: 'x' } },
        'Validation failed: Description is invalid',
      ],
      ['an empty object', {}, "Validation failed: Name can't be blank, Ecosystem can't be blank"],
    ];

    it.each(cases)('%s', async (_case, body, message) => {
      const before = await world.registryRows();
      const response = await world.call('POST', REGISTRIES, { body });
      expect(response.status, response.text).toBe(422);
      expect(response.headers.get('content-type')).toBe(JSON_TYPE);
      expect(response.body).toEqual({ message });
      expect(await world.registryRows()).toEqual(before);
    });
  });

  it('answers 404 "No organization found" for an organization that does not exist', async () => {
    const response = await world.call('POST', '/v2/packages/organizations/nope/registries', {
      body: { name: 'gems', ecosystem: 'ruby' },
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No organization found' });
  });
});

describe('GET /v2/packages/organizations/{org}/registries/{slug}', () => {
  it('answers the registry in the shape of the get example, as it was created', async () => {
    const created = await world.createRegistry({ name: 'Get Me', ecosystem: 'helm', description: 'charts' });
    const response = await world.call('GET', registryPath('get-me'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    expectRegistry(response.body, 'registries-get.json');
    expect(response.body).toEqual(created);
  });

  it.each([
    ['an unknown slug', registryPath('no-such-registry')],
    ['the name instead of the slug', registryPath('Get%20Me')],
    ['the slug in capitals', registryPath('GET-ME')],
  ])('answers 404 "No registry found" for %s', async (_case, path) => {
    const response = await world.call('GET', path);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No registry found' });
  });

  it("does not show another organization's registry through this one", async () => {
    await world.createRegistry(
      { name: 'Only Elsewhere' },
      { token: world.tokens.outsider, organization: 'other' },
    );
    const response = await world.call('GET', registryPath('only-elsewhere'));
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No registry found' });
  });
});

describe('updating a registry', () => {
  it.each(['POST', 'PATCH', 'PUT'])(
    'answers %s with 200 in the shape of the update example',
    async (method) => {
      const name = `update by ${method}`;
      const created = await world.createRegistry({ name, description: 'before' });
      const response = await world.call(method, registryPath(created.slug), {
        body: { description: `after ${method}` },
      });
      expect(response.status, response.text).toBe(200);
      expect(response.headers.get('content-type')).toBe(JSON_TYPE);
      const updated = expectRegistry(response.body, 'registries-update.json');
      expect(updated).toEqual({ ...created, description: `after ${method}` });
      expect((await world.call('GET', registryPath(created.slug))).body).toEqual(updated);
    },
  );

  it('renames: the slug and the URLs follow, the old slug answers 404, the id stays', async () => {
    const created = await world.createRegistry({ name: 'Old Name', ecosystem: 'java' });
    const response = await world.call('POST', registryPath('old-name'), { body: { name: 'New Name' } });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      id: created.id,
      graphql_id: created.graphql_id,
      name: 'New Name',
      slug: 'new-name',
      url: `${API_URL}/v2/packages/organizations/acme/registries/new-name`,
      web_url: `${WEB_URL}/organizations/acme/packages/registries/new-name`,
      ecosystem: 'java',
    });
    const old = await world.call('GET', registryPath('old-name'));
    expect(old.status).toBe(404);
    expect(old.body).toEqual({ message: 'No registry found' });
    expect((await world.call('GET', registryPath('new-name'))).body).toEqual(response.body);
    // The old slug is free again.
    expect((await world.createRegistry({ name: 'Old Name' })).id).not.toBe(created.id);
  });

  it('keeps the ecosystem fixed: a given ecosystem, valid or not, is ignored', async () => {
    await world.createRegistry({ name: 'Fixed Ecosystem', ecosystem: 'debian' });
    for (const ecosystem of ['python', 'npm', 42]) {
      const response = await world.call('PATCH', registryPath('fixed-ecosystem'), { body: { ecosystem } });
      expect(response.status, response.text).toBe(200);
      expect(response.body.ecosystem).toBe('debian');
    }
  });

  it('clears the description with null and changes nothing with an empty body', async () => {
    const created = await world.createRegistry({ name: 'Clearable', description: 'something' });
    const cleared = await world.call('PUT', registryPath('clearable'), { body: { description: null } });
    expect(cleared.body).toEqual({ ...created, description: null });
    for (const request of [{ body: {} }, { rawBody: '' }, {}]) {
      const unchanged = await world.call('POST', registryPath('clearable'), request);
      expect(unchanged.status, unchanged.text).toBe(200);
      expect(unchanged.body).toEqual(cleared.body);
    }
  });

  it('accepts a new spelling of its own name, whose slug is its own', async () => {
    await world.createRegistry({ name: 'case change' });
    const response = await world.call('PATCH', registryPath('case-change'), {
      body: { name: 'Case Change!' },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ name: 'Case Change!', slug: 'case-change' });
  });

  describe('refuses with 422 and changes nothing', () => {
    beforeAll(async () => {
      await world.createRegistry({ name: 'Update Target' });
      await world.createRegistry({ name: 'Already Here' });
    });

    it.each<[string, unknown, string]>([
      ['a name whose slug another registry has', { name: 'already here!' }, TAKEN],
      ['a blank name', { name: '' }, "Validation failed: Name can't be blank"],
      ['a null name', { name: null }, "Validation failed: Name can't be blank"],
      [
        'a name whose slug is empty',
        { name: '!!!' },
        'Validation failed: Name must contain at least one letter or digit',
      ],
      [
        'a name of 256 characters',
        { name: 'n'.repeat(256) },
        'Validation failed: Name is too long (maximum is 255 characters)',
      ],
      [
        'a description of 1001 characters',
        { description: 'd'.repeat(1001) },
        'Validation failed: Description is too long (maximum is 1000 characters)',
      ],
      [
        'a NUL byte in the name',
        { name: 'a\u0000b' },
        "Validation failed: Name can't contain NUL characters or unpaired surrogates",
      ],
      ['a numeric name', { name: 7 }, 'Validation failed: Name is invalid'],
      ['a boolean description', { description: true }, 'Validation failed: Description is invalid'],
    ])('%s', async (_case, body, message) => {
      for (const method of ['POST', 'PATCH', 'PUT']) {
        const before = await world.registryRows();
        const response = await world.call(method, registryPath('update-target'), { body });
        expect(response.status, `${method} ${response.text}`).toBe(422);
        expect(response.body).toEqual({ message });
        expect(await world.registryRows()).toEqual(before);
      }
    });
  });

  it('answers 404 "No registry found" for a registry that does not exist, before reading the body', async () => {
    for (const method of ['POST', 'PATCH', 'PUT']) {
      const response = await world.call(method, registryPath('no-such-registry'), { body: { name: '' } });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'No registry found' });
    }
  });
});

describe('DELETE /v2/packages/organizations/{org}/registries/{slug}', () => {
  it('answers 200 with an empty body, after which the registry is gone', async () => {
    const created = await world.createRegistry({ name: 'Delete Me' });
    const response = await world.call('DELETE', registryPath('delete-me'));
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
    expect(response.headers.get('content-length')).toBe('0');
    expect(response.headers.get('content-type')).toBeNull();
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('delete_registries');
    const rows = await world.registryRows();
    expect(rows.some((row) => row.id === created.id)).toBe(false);
    const after = await world.call('GET', registryPath('delete-me'));
    expect(after.status).toBe(404);
    expect(after.body).toEqual({ message: 'No registry found' });
  });

  it('answers 404 "No registry found" the second time', async () => {
    await world.createRegistry({ name: 'Delete Twice' });
    expect((await world.call('DELETE', registryPath('delete-twice'))).status).toBe(200);
    const again = await world.call('DELETE', registryPath('delete-twice'));
    expect(again.status).toBe(404);
    expect(again.headers.get('content-type')).toBe(JSON_TYPE);
    expect(again.body).toEqual({ message: 'No registry found' });
  });

  it('ignores a body', async () => {
    await world.createRegistry({ name: 'Delete With Body' });
    const response = await world.call('DELETE', registryPath('delete-with-body'), { body: { name: 'x' } });
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
  });
});

describe('GET /v2/packages/organizations/{org}/registries (pagination)', () => {
  const ORGANIZATION = 'paged';
  const LIST = `/v2/packages/organizations/${ORGANIZATION}/registries`;
  const NAMES = Array.from({ length: 7 }, (_, i) => `Paged ${String.fromCharCode(103 - i)}`); // g … a
  let token: string;
  let created: Json[];

  beforeAll(async () => {
    const admin = world.server.useCases.admin;
    await admin.createOrganization({ name: 'Paged', slug: ORGANIZATION });
    await admin.addMember({ organization: ORGANIZATION, email: world.users.member.email, role: 'member' });
    token = world.tokens.member;
    created = [];
    for (const name of NAMES)
      created.push(await world.createRegistry({ name }, { token, organization: ORGANIZATION }));
  });

  it('answers every registry in the shape of the list example, oldest first, without Link on one page', async () => {
    const response = await world.call('GET', LIST, { token });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    expect(response.headers.get('link')).toBeNull();
    expect(response.body).toHaveLength(NAMES.length);
    for (const item of response.body) expectRegistry(item, 'registries-list.json');
    expect(response.body).toEqual(created);
  });

  it('walks every page by following Link next, each link absolute and page before per_page', async () => {
    const { pages, items, rels } = await walkPages(
      (path) => world.call('GET', path, { token }),
      `${LIST}?per_page=3`,
    );
    for (const page of pages) {
      for (const url of Object.values(linksOf(page.headers.get('link')))) {
        expect(url).toMatch(new RegExp(`^${API_URL}${LIST}\\?page=\\d+&per_page=3$`));
      }
    }
    expect(rels).toEqual([
      ['next', 'last'],
      ['first', 'prev', 'next', 'last'],
      ['first', 'prev'],
    ]);
    expect(items).toEqual(created);
  });

  it('points last at the last page and keeps other parameters', async () => {
    const response = await world.call('GET', `${LIST}?foo=bar&page=2&per_page=2`, { token });
    expect(response.body.map((r: Json) => r.name)).toEqual(NAMES.slice(2, 4));
    expect(linksOf(response.headers.get('link'))).toEqual({
      first: `${API_URL}${LIST}?foo=bar&page=1&per_page=2`,
      prev: `${API_URL}${LIST}?foo=bar&page=1&per_page=2`,
      next: `${API_URL}${LIST}?foo=bar&page=3&per_page=2`,
      last: `${API_URL}${LIST}?foo=bar&page=4&per_page=2`,
    });
  });

  it('answers [] past the end, and clamps per_page to 100', async () => {
    const past = await world.call('GET', `${LIST}?page=9&per_page=3`, { token });
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
    const clamped = await world.call('GET', `${LIST}?per_page=1000`, { token });
    expect(clamped.body).toHaveLength(NAMES.length);
    expect(clamped.headers.get('link')).toBeNull();
  });

  it.each(['page=abc', 'per_page=-1', 'page=1.5'])('answers 400 for %s', async (query) => {
    const response = await world.call('GET', `${LIST}?${query}`, { token });
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/must be a positive integer/);
  });

  it('answers an organization without registries with [] and no Link', async () => {
    const admin = world.server.useCases.admin;
    await admin.createOrganization({ name: 'Empty', slug: 'empty' });
    await admin.addMember({ organization: 'empty', email: world.users.member.email, role: 'member' });
    const response = await world.call('GET', '/v2/packages/organizations/empty/registries', { token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
    expect(response.headers.get('link')).toBeNull();
  });

  it("lists only the organization's own registries", async () => {
    const response = await world.call('GET', `${REGISTRIES}?per_page=100`);
    const ids = new Set(response.body.map((r: Json) => r.id));
    for (const registry of created) expect(ids.has(registry.id)).toBe(false);
  });
});

describe('bad input never answers 500', () => {
  const sends: Array<[string, { rawBody: string; headers?: Record<string, string> }, number, RegExp]> = [
    [
      'malformed JSON',
      { rawBody: '{"name": "x",', headers: { 'Content-Type': 'application/json' } },
      400,
      /^Problems parsing JSON/,
    ],
    [
      'an array body',
      { rawBody: '[{"name":"x"}]', headers: { 'Content-Type': 'application/json' } },
      400,
      /JSON/,
    ],
    ['a string body', { rawBody: '"x"', headers: { 'Content-Type': 'application/json' } }, 400, /JSON/],
    ['a number body', { rawBody: '12', headers: { 'Content-Type': 'application/json' } }, 400, /JSON/],
    [
      'a prototype-poisoning body',
      { rawBody: '{"__proto__": {"name": "x"}}', headers: { 'Content-Type': 'application/json' } },
      400,
      /./,
    ],
  ];

  beforeAll(async () => {
    await world.createRegistry({ name: 'Bad Input Target' });
  });

  it.each(sends)(
    'answers %s to create and update with a 4xx {message} and changes nothing',
    async (_case, request, status, message) => {
      for (const [method, path] of [
        ['POST', REGISTRIES],
        ['POST', registryPath('bad-input-target')],
        ['PATCH', registryPath('bad-input-target')],
        ['PUT', registryPath('bad-input-target')],
      ] as const) {
        const before = await world.registryRows();
        const response = await world.call(method, path, request);
        expect(response.status, `${method} ${path} ${response.text}`).toBe(status);
        expect(response.headers.get('content-type')).toBe(JSON_TYPE);
        expect(response.body.message).toMatch(message);
        expect(await world.registryRows()).toEqual(before);
      }
    },
  );

  it('accepts JSON sent without Content-Type or as text/plain', async () => {
    const bare = await world.call('POST', REGISTRIES, {
      rawBody: JSON.stringify({ name: 'No Content Type', ecosystem: 'ruby' }),
    });
    expect(bare.status, bare.text).toBe(200);
    const plain = await world.call('POST', REGISTRIES, {
      rawBody: JSON.stringify({ name: 'Plain Text', ecosystem: 'ruby' }),
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(plain.status, plain.text).toBe(200);
  });

  it('ignores unknown body fields and fields the spec does not let clients set', async () => {
    const registry = await world.createRegistry({
      name: 'Extra Fields',
      public: true,
      emoji: ':gem:',
      color: '#ff0000',
      slug: 'chosen-slug',
      id: '00000000-0000-7000-8000-000000000000',
      organization: 'other',
      team_ids: ['x'],
    });
    expect(registry).toMatchObject({
      slug: 'extra-fields',
      public: false,
      emoji: null,
      color: null,
      team_ids: [],
      url: `${API_URL}/v2/packages/organizations/acme/registries/extra-fields`,
    });
    expect(registry.id).not.toBe('00000000-0000-7000-8000-000000000000');
  });

  it('answers a body over the size limit with 413', async () => {
    const response = await world.call('POST', REGISTRIES, {
      body: { name: 'huge', ecosystem: 'ruby', description: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(response.status).toBe(413);
    expect(typeof response.body.message).toBe('string');
  });

  it('answers an unknown route under /v2/packages with 404 "No route matches"', async () => {
    const response = await world.call('GET', '/v2/packages/organizations/acme/registries/a/b');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      message: 'No route matches GET /v2/packages/organizations/acme/registries/a/b',
    });
  });
});

describe('concurrency', () => {
  it('creates exactly one of 8 concurrent creates of the same name; the other seven answer 422', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        world.call('POST', REGISTRIES, {
          token: i % 2 ? world.tokens.member : world.tokens.admin,
          body: { name: i % 2 ? 'Racing Registry' : 'racing registry', ecosystem: 'ruby' },
        }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 422, 422, 422, 422, 422, 422, 422]);
    for (const response of responses.filter((r) => r.status === 422)) {
      expect(response.body).toEqual({ message: TAKEN });
    }
    const rows = (await world.registryRows()).filter((row) => row.slug === 'racing-registry');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id).toBe(responses.find((r) => r.status === 200)?.body.id);
  });

  it('renames only one of two registries racing to the same new name', async () => {
    await world.createRegistry({ name: 'Racer One' });
    await world.createRegistry({ name: 'Racer Two' });
    const responses = await Promise.all(
      ['racer-one', 'racer-two'].map((slug) =>
        world.call('PATCH', registryPath(slug), { body: { name: 'Finish Line' } }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 422]);
    expect(responses.find((r) => r.status === 422)?.body).toEqual({ message: TAKEN });
    const loser = responses[0]?.status === 422 ? 'racer-one' : 'racer-two';
    const slugs = (await world.registryRows()).map((row) => row.slug);
    expect(
      slugs.filter((slug) => ['racer-one', 'racer-two', 'finish-line'].includes(String(slug))).sort(),
    ).toEqual(['finish-line', loser]);
  });
});

describe('registries over tRPC', () => {
  it('creates, reads, lists, updates and deletes with the REST bodies', async () => {
    const trpc = world.trpc(world.tokens.admin);
    const created = await trpc.registries.create.mutate({
      organization: 'acme',
      name: 'Over tRPC',
      ecosystem: 'nuget',
    });
    expect(Object.keys(created)).toEqual(exampleKeys('registries-create.json'));
    const rest = await world.call('GET', registryPath('over-trpc'));
    expect(created).toEqual(rest.body);
    expect(await trpc.registries.get.query({ organization: 'acme', registry: 'over-trpc' })).toEqual(created);
    const page = await trpc.registries.list.query({ organization: 'acme', page: 1, per_page: 100 });
    expect(page.map((r) => r.slug)).toContain('over-trpc');
    const updated = await trpc.registries.updateWithPatch.mutate({
      organization: 'acme',
      registry: 'over-trpc',
      name: 'Over tRPC Renamed',
    });
    expect(updated.slug).toBe('over-trpc-renamed');
    await expect(
      trpc.registries.delete.mutate({ organization: 'acme', registry: 'over-trpc-renamed' }),
    ).resolves.toBeUndefined();
    expect((await world.call('GET', registryPath('over-trpc-renamed'))).status).toBe(404);
  });

  it('fails with the REST message and status', async () => {
    const error = await trpcFailure(
      world
        .trpc(world.tokens.admin)
        .registries.create.mutate({ organization: 'acme', name: '', ecosystem: 'ruby' }),
    );
    expect(error.message).toBe("Validation failed: Name can't be blank");
    expect(error.data?.httpStatus).toBe(422);
  });
});
