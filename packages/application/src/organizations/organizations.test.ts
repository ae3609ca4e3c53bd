import {
  ORGANIZATION_SETTINGS_DEFAULTS,
  type Organization,
  type OrganizationRole,
  type Scope,
  type User,
} from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import type { AccessRepository, Deps, OrganizationMember, OrganizationMemberRepository } from '../ports';
import { getOrganization } from './get-organization';
import { listOrganizationMembers } from './list-organization-members';
import { listOrganizations } from './list-organizations';

const org = (slug: string): Organization => ({
  id: `id-${slug}`,
  slug,
  name: slug,
  createdAt: new Date(0),
  ...ORGANIZATION_SETTINGS_DEFAULTS,
});
const user = (id: string): User => ({
  id,
  name: id,
  email: `${id}@x`,
  avatarUrl: null,
  createdAt: new Date(0),
});

function actor(scopes: Scope[] = ['read_organizations'], organizationIds: string[] | null = null): Actor {
  return { tokenId: 't', user: user('me'), scopes, organizationIds };
}

/**
 * Fake ports: the user's memberships (in an order unlike the slugs' on purpose, as a database
 * collation may give) and the members of every organization.
 */
function deps(memberships: Array<[string, OrganizationRole]>, members: OrganizationMember[] = []) {
  const access: Pick<AccessRepository, 'memberships' | 'organization'> = {
    memberships: async () => memberships.map(([slug, role]) => ({ organization: org(slug), role })),
    organization: async ({ organizationSlug }) => {
      const found = memberships.find(([slug]) => slug === organizationSlug);
      return found ? { organization: org(found[0]), role: found[1] } : null;
    },
  };
  const asked: string[] = [];
  const organizationMembers: OrganizationMemberRepository = {
    list: async ({ organizationId, offset, limit }) => {
      asked.push(organizationId);
      return members.slice(offset, offset + limit);
    },
    count: async () => members.length,
  };
  return { asked, deps: { repos: { access, organizationMembers } } as unknown as Deps };
}

const MEMBERSHIPS: Array<[string, OrganizationRole]> = [
  ['zeta', 'member'],
  ['Acme-2', 'admin'],
  ['acme', 'admin'],
  ['a-b', 'member'],
];

describe('listOrganizations', () => {
  it("lists the user's organizations by slug in code-unit order, whatever order they come in", async () => {
    const { deps: d } = deps(MEMBERSHIPS);
    const page = await listOrganizations(d)(actor(), { page: 1, perPage: 30 });
    expect(page.items.map((o) => o.slug)).toEqual(['Acme-2', 'a-b', 'acme', 'zeta']);
    expect(page.totalCount).toBe(4);
  });

  it('narrows the list to the organizations the token is limited to, and ignores others it names', async () => {
    const { deps: d } = deps(MEMBERSHIPS);
    const page = await listOrganizations(d)(
      actor(['read_organizations'], ['id-zeta', 'id-acme', 'id-gone']),
      {
        page: 1,
        perPage: 30,
      },
    );
    expect(page.items.map((o) => o.slug)).toEqual(['acme', 'zeta']);
    expect(page.totalCount).toBe(2);
  });

  it.each<[number, number, string[]]>([
    [1, 3, ['Acme-2', 'a-b', 'acme']],
    [2, 3, ['zeta']],
    [3, 3, []],
    [2, 1, ['a-b']],
  ])('gives page %i of size %i', async (number, perPage, slugs) => {
    const { deps: d } = deps(MEMBERSHIPS);
    const page = await listOrganizations(d)(actor(), { page: number, perPage });
    expect(page.items.map((o) => o.slug)).toEqual(slugs);
    expect(page.totalCount).toBe(4);
  });

  it('answers an empty list to a token limited to no organization of the user', async () => {
    const { deps: d } = deps(MEMBERSHIPS);
    const page = await listOrganizations(d)(actor(['read_organizations'], []), { page: 1, perPage: 30 });
    expect(page).toEqual({ items: [], totalCount: 0 });
  });

  it('refuses a token without read_organizations with 403 naming the scope', async () => {
    const { deps: d } = deps(MEMBERSHIPS);
    await expect(listOrganizations(d)(actor(['read_user']), { page: 1, perPage: 30 })).rejects.toMatchObject({
      kind: 'forbidden',
      message: "Your access token doesn't have the read_organizations scope",
    });
  });
});

describe('getOrganization', () => {
  it('finds an organization of the user, admin or member', async () => {
    const { deps: d } = deps(MEMBERSHIPS);
    await expect(getOrganization(d)(actor(), 'zeta')).resolves.toEqual(org('zeta'));
    await expect(getOrganization(d)(actor(), 'acme')).resolves.toEqual(org('acme'));
  });

  it.each<[string, string, string[] | null]>([
    ['an organization the user is not in', 'elsewhere', null],
    ['an organization outside the token allow-list', 'acme', ['id-zeta']],
    ['any organization for a token limited to none', 'acme', []],
  ])('answers 404 "No organization found" for %s', async (_case, slug, organizationIds) => {
    const { deps: d } = deps(MEMBERSHIPS);
    await expect(
      getOrganization(d)(actor(['read_organizations'], organizationIds), slug),
    ).rejects.toMatchObject({ kind: 'not_found', message: 'No organization found' });
  });

  it('checks the scope before the organization', async () => {
    const { deps: d } = deps([]);
    await expect(getOrganization(d)(actor([]), 'nope')).rejects.toMatchObject({ kind: 'forbidden' });
  });
});

describe('listOrganizationMembers', () => {
  const members: OrganizationMember[] = ['a', 'b', 'c'].map((id) => ({
    id: `membership-${id}`,
    organizationId: 'id-acme',
    user: user(id),
    role: 'member',
    createdAt: new Date(0),
  }));

  it.each<[OrganizationRole]>([['admin'], ['member']])(
    'lets a %s list the members of their organization, a page at a time',
    async (role) => {
      const { deps: d, asked } = deps([['acme', role]], members);
      const page = await listOrganizationMembers(d)(actor(), 'acme', { page: 2, perPage: 2 });
      expect(page.items.map((m) => m.user.id)).toEqual(['c']);
      expect(page.totalCount).toBe(3);
      expect(asked).toEqual(['id-acme']);
    },
  );

  it('answers 404 to a non-member and to a token limited to other organizations, reading no member', async () => {
    const { deps: d, asked } = deps([['acme', 'admin']], members);
    await expect(
      listOrganizationMembers(d)(actor(), 'other', { page: 1, perPage: 30 }),
    ).rejects.toMatchObject({ message: 'No organization found' });
    await expect(
      listOrganizationMembers(d)(actor(['read_organizations'], ['id-other']), 'acme', {
        page: 1,
        perPage: 30,
      }),
    ).rejects.toMatchObject({ message: 'No organization found' });
    expect(asked).toEqual([]);
  });

  it('refuses a token without read_organizations before looking at the organization', async () => {
    const { deps: d } = deps([], members);
    await expect(
      listOrganizationMembers(d)(actor(['read_user']), 'nope', { page: 1, perPage: 30 }),
    ).rejects.toMatchObject({ message: "Your access token doesn't have the read_organizations scope" });
  });
});
