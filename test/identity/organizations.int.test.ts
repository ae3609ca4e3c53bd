import { OrganizationMemberWire, OrganizationWire } from '@ci/trpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { example, JSON_TYPE, linksOf, walkPages } from '../support/answers';
import { API_URL, type IdentityWorld, startIdentityWorld, WEB_URL } from '../support/identity-world';
import { trpcFailure } from '../support/trpc';

/** `GET /v2/organizations`, `GET /v2/organizations/{org}` and `GET /v2/organizations/{org}/members`. */

type Json = Record<string, unknown>;
const EXAMPLE = example('organizations-get.json');
/** The public API's organization member (docs: "Organization member data model"). */
const MEMBER_KEYS = ['id', 'name', 'email'];

let world: IdentityWorld;
let rows: Awaited<ReturnType<IdentityWorld['organizationRows']>>;
beforeAll(async () => {
  world = await startIdentityWorld();
  rows = await world.organizationRows();
});
afterAll(() => world?.close());

/** What an organization must look like, from the database and the configured public URLs. */
function expected(slug: string): Json {
  const row = rows[slug]!;
  const url = `${API_URL}/v2/organizations/${slug}`;
  return {
    id: row.id,
    graphql_id: Buffer.from(`Organization---${row.id}`).toString('base64'),
    url,
    web_url: `${WEB_URL}/${slug}`,
    name: row.name,
    slug,
    pipelines_url: `${url}/pipelines`,
    agents_url: `${url}/agents`,
    emojis_url: `${url}/emojis`,
    created_at: row.created_at,
  };
}

/** Follows `Link: rel="next"` from `path`, checking every link, and returns every item and each page's rels. */
async function walk(path: string, token: string) {
  const { pages, items, rels } = await walkPages((next) => world.call('GET', next, { token }), path);
  for (const page of pages) {
    for (const url of Object.values(linksOf(page.headers.get('link'))))
      expect(url).toMatch(/^https:\/\/api\.ci\.test\/v2\/.*\?page=\d+&per_page=1$/);
  }
  return { items: items as Json[], rels };
}

describe('GET /v2/organizations', () => {
  it("lists the user's organizations by slug, each with the example's keys in its order", async () => {
    const response = await world.call('GET', '/v2/organizations', { token: world.tokens.admin });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('read_organizations');
    expect(response.headers.get('link')).toBeNull();
    for (const organization of response.body) {
      expect(Object.keys(organization)).toEqual(Object.keys(EXAMPLE));
      expect(OrganizationWire.parse(organization)).toEqual(organization);
    }
    expect(response.body).toEqual(['acme', 'beta', 'other'].map(expected));
  });

  it.each<[string, () => Promise<string>, string[]]>([
    ['a member of one organization', async () => world.tokens.member, ['acme']],
    ['the admin of another organization', async () => world.tokens.outsider, ['other']],
    [
      'a token limited to some of the user organizations',
      () => world.token('admin', { organizations: ['other', 'acme'] }),
      ['acme', 'other'],
    ],
    [
      'a token that names one organization of the user and one the user is not in',
      () => world.token('member', { organizations: ['acme', 'beta'] }),
      ['acme'],
    ],
    [
      'a token limited to organizations the user is not in',
      () => world.token('member', { organizations: ['other', 'beta'] }),
      [],
    ],
  ])('lists for %s only the organizations the token may use', async (_case, token, slugs) => {
    const response = await world.call('GET', '/v2/organizations', { token: await token() });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(slugs.map(expected));
  });

  it('walks every page with per_page=1 by following Link next', async () => {
    const { items, rels } = await walk('/v2/organizations?per_page=1', world.tokens.admin);
    expect(items).toEqual(['acme', 'beta', 'other'].map(expected));
    expect(rels).toEqual([
      ['next', 'last'],
      ['first', 'prev', 'next', 'last'],
      ['first', 'prev'],
    ]);
  });

  it('points last at the last page, keeps other parameters, and answers [] past the end', async () => {
    const response = await world.call('GET', '/v2/organizations?foo=bar&per_page=2', {
      token: world.tokens.admin,
    });
    expect(linksOf(response.headers.get('link'))).toEqual({
      next: `${API_URL}/v2/organizations?foo=bar&page=2&per_page=2`,
      last: `${API_URL}/v2/organizations?foo=bar&page=2&per_page=2`,
    });
    const past = await world.call('GET', '/v2/organizations?page=5&per_page=2', {
      token: world.tokens.admin,
    });
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
  });
});

describe('GET /v2/organizations/{org.slug}', () => {
  it.each(['acme', 'beta', 'other'])(
    "answers %s with the example's keys and the list's body",
    async (slug) => {
      const response = await world.call('GET', `/v2/organizations/${slug}`, { token: world.tokens.admin });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(JSON_TYPE);
      expect(Object.keys(response.body)).toEqual(Object.keys(EXAMPLE));
      expect(response.body).toEqual(expected(slug));
    },
  );

  it('answers a member (not only an admin)', async () => {
    const response = await world.call('GET', '/v2/organizations/acme', { token: world.tokens.bystander });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(expected('acme'));
  });
});

describe('GET /v2/organizations/{org.slug}/members', () => {
  it('lists the members, longest-standing first, as the public API shows them: id, name and email', async () => {
    const response = await world.call('GET', '/v2/organizations/acme/members', { token: world.tokens.admin });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('read_organizations');
    expect(response.headers.get('link')).toBeNull();
    const { admin, member, bystander } = world.users;
    expect(response.body).toEqual(
      [admin, member, bystander].map((user) => ({ id: user.id, name: user.name, email: user.email })),
    );
    for (const item of response.body) {
      expect(Object.keys(item)).toEqual(MEMBER_KEYS);
      expect(OrganizationMemberWire.parse(item)).toEqual(item);
    }
  });

  it('lets every member list them, and lists only the organization own members', async () => {
    for (const token of [world.tokens.member, world.tokens.bystander]) {
      const response = await world.call('GET', '/v2/organizations/acme/members', { token });
      expect(response.status).toBe(200);
      expect(response.body).toHaveLength(3);
    }
    const other = await world.call('GET', '/v2/organizations/other/members', {
      token: world.tokens.outsider,
    });
    expect(other.body.map((m: Json) => m.email)).toEqual(['admin@other.test', 'admin@acme.test']);
  });

  it('walks every page with per_page=1 by following Link next', async () => {
    const { items, rels } = await walk('/v2/organizations/acme/members?per_page=1', world.tokens.member);
    expect(items.map((item) => item.email)).toEqual([
      'admin@acme.test',
      'member@acme.test',
      'bystander@acme.test',
    ]);
    expect(rels).toEqual([
      ['next', 'last'],
      ['first', 'prev', 'next', 'last'],
      ['first', 'prev'],
    ]);
  });

  it('answers [] past the end and clamps per_page to 100', async () => {
    const past = await world.call('GET', '/v2/organizations/acme/members?page=4&per_page=1');
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
    const clamped = await world.call('GET', '/v2/organizations/acme/members?per_page=1000');
    expect(clamped.body).toHaveLength(3);
    expect(clamped.headers.get('link')).toBeNull();
  });
});

describe('organizations over tRPC', () => {
  it('lists, gets and lists members with the REST bodies, paging by number', async () => {
    const trpc = world.trpc(world.tokens.admin);
    const rest = await world.call('GET', '/v2/organizations', { token: world.tokens.admin });
    expect(await trpc.organizations.list.query({})).toEqual(rest.body);
    expect(await trpc.organizations.list.query({ page: 2, per_page: 1 })).toEqual([expected('beta')]);
    expect(await trpc.organizations.get.query({ organization: 'beta' })).toEqual(expected('beta'));
    const members = await world.call('GET', '/v2/organizations/acme/members');
    expect(await trpc.organizations.listMembers.query({ organization: 'acme' })).toEqual(members.body);
    expect(
      await trpc.organizations.listMembers.query({ organization: 'acme', page: 3, per_page: 1 }),
    ).toEqual(members.body.slice(2));
  });

  it('fails with the REST message and status', async () => {
    const error = await trpcFailure(
      world.trpc(world.tokens.member).organizations.get.query({ organization: 'other' }),
    );
    expect(error.message).toBe('No organization found');
    expect(error.data?.httpStatus).toBe(404);
  });
});
