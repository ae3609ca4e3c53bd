import type { OrganizationRole, Scope } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import type { Deps, OrganizationMember } from '../ports';
import { ACME, uuid as id, OTHER } from '../use-case.fixture';
import { findOrganization, getOrganizationMembersById, getOrganizationsById } from './organizations-by-id';

const ELSEWHERE = { id: 'org-elsewhere', slug: 'elsewhere', name: 'Elsewhere', createdAt: new Date(0) };
const me = { id: 'u', name: 'U', email: 'u@x', avatarUrl: null, createdAt: new Date(0) };

const member = (n: number, organizationId: string): OrganizationMember => ({
  id: id(n),
  organizationId,
  user: { ...me, id: `user-${n}` },
  role: 'member',
  createdAt: new Date(0),
});
const MEMBERS = [member(1, ACME.id), member(2, OTHER.id), member(3, ELSEWHERE.id)];

function actor(scopes: Scope[] = ['read_organizations'], organizationIds: string[] | null = null): Actor {
  return { tokenId: 't', user: me, scopes, organizationIds };
}

function deps(): Deps {
  const memberships: Array<[typeof ACME, OrganizationRole]> = [
    [ACME, 'member'],
    [OTHER, 'admin'],
  ];
  return {
    repos: {
      access: {
        memberships: async () => memberships.map(([organization, role]) => ({ organization, role })),
        organization: async ({ organizationSlug }: { organizationSlug: string }) => {
          const found = memberships.find(([organization]) => organization.slug === organizationSlug);
          return found ? { organization: found[0], role: found[1] } : null;
        },
      },
      lookups: {
        organizationMembers: async (ids: readonly string[]) => MEMBERS.filter((m) => ids.includes(m.id)),
      },
    },
  } as unknown as Deps;
}

describe('getOrganizationsById', () => {
  it("answers the user's organizations the token may use, null for any other", async () => {
    const ids = [ACME.id, ELSEWHERE.id, OTHER.id, 'nope'];
    expect(await getOrganizationsById(deps())(actor(), ids)).toEqual([ACME, null, OTHER, null]);
    expect(await getOrganizationsById(deps())(actor(['read_organizations'], [OTHER.id]), ids)).toEqual([
      null,
      null,
      OTHER,
      null,
    ]);
  });

  it('needs read_organizations', async () => {
    await expect(getOrganizationsById(deps())(actor(['read_user']), [ACME.id])).rejects.toMatchObject({
      message: "Your access token doesn't have the read_organizations scope",
    });
  });
});

describe('findOrganization', () => {
  it.each<[string, { slug?: string | null; uuid?: string | null }, string]>([
    ['a slug of another organization', { slug: 'elsewhere' }, 'No organization found'],
    ['the uuid of another organization', { uuid: ELSEWHERE.id }, 'No organization found'],
    ['neither slug nor uuid', {}, 'Find an organization by either its slug or its uuid'],
    ['both', { slug: 'acme', uuid: ACME.id }, 'Find an organization by either its slug or its uuid'],
  ])('refuses %s', async (_case, key, message) => {
    await expect(findOrganization(deps())(actor(), key)).rejects.toMatchObject({ message });
  });

  it('finds one of the actor by slug and by uuid', async () => {
    expect(await findOrganization(deps())(actor(), { slug: 'acme' })).toEqual(ACME);
    expect(await findOrganization(deps())(actor(), { uuid: OTHER.id, slug: null })).toEqual(OTHER);
  });
});

describe('getOrganizationMembersById', () => {
  it('shows the memberships of organizations the token may use, whatever the role', async () => {
    const answers = await getOrganizationMembersById(deps())(actor(), [id(3), id(1), id(2), 'nope']);
    expect(answers.map((answer) => answer?.id ?? null)).toEqual([null, id(1), id(2), null]);
    const limited = await getOrganizationMembersById(deps())(actor(['read_organizations'], [ACME.id]), [
      id(2),
    ]);
    expect(limited).toEqual([null]);
  });

  it('needs read_organizations, as the member list', async () => {
    await expect(getOrganizationMembersById(deps())(actor(['view_teams']), [id(1)])).rejects.toMatchObject({
      kind: 'forbidden',
    });
  });
});
