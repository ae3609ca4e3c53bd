import type { OrganizationRole, Scope, User } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import type { Deps } from '../ports';
import { ACME, uuid as id, OTHER } from '../use-case.fixture';
import { getPeopleById, getUsersById } from './users-by-id';

const user = (n: number): User => ({
  id: id(n),
  name: `User ${n}`,
  email: `u${n}@x`,
  avatarUrl: null,
  createdAt: new Date(0),
});

/** The actor (1) is in acme; 2 is in acme too, 3 only in other, 4 in both. */
const USERS: Array<{ user: User; organizationIds: string[] }> = [
  { user: user(1), organizationIds: [ACME.id] },
  { user: user(2), organizationIds: [ACME.id] },
  { user: user(3), organizationIds: [OTHER.id] },
  { user: user(4), organizationIds: [OTHER.id, ACME.id] },
];

function actor(scopes: Scope[], organizationIds: string[] | null = null): Actor {
  return { tokenId: 't', user: user(1), scopes, organizationIds };
}

function deps(role: OrganizationRole = 'member'): Deps {
  return {
    repos: {
      lookups: { users: async (ids: readonly string[]) => USERS.filter((u) => ids.includes(u.user.id)) },
      access: { memberships: async () => [{ organization: ACME, role }] },
    },
  } as unknown as Deps;
}

const names = (answers: Array<User | null | Error>) =>
  answers.map((answer) => (answer instanceof Error ? answer.message : (answer?.name ?? null)));

describe('getUsersById', () => {
  it.each<[string, Scope[], Array<string | null>]>([
    [
      'read_user and read_organizations: the token user and the members of its organizations',
      ['read_user', 'read_organizations'],
      ['User 1', 'User 2', null, 'User 4', null],
    ],
    [
      'read_user only: the token user, the scope error for anyone else',
      ['read_user'],
      [
        'User 1',
        "Your access token doesn't have the read_organizations scope",
        "Your access token doesn't have the read_organizations scope",
        "Your access token doesn't have the read_organizations scope",
        "Your access token doesn't have the read_organizations scope",
      ],
    ],
    [
      'read_organizations only: the members, the token user among them',
      ['read_organizations'],
      ['User 1', 'User 2', null, 'User 4', null],
    ],
    [
      'neither: each id its own scope error',
      ['graphql'],
      [
        "Your access token doesn't have the read_user scope",
        "Your access token doesn't have the read_organizations scope",
        "Your access token doesn't have the read_organizations scope",
        "Your access token doesn't have the read_organizations scope",
        "Your access token doesn't have the read_organizations scope",
      ],
    ],
  ])('with %s', async (_case, scopes, expected) => {
    const answers = await getUsersById(deps())(actor(scopes), [id(1), id(2), id(3), id(4), 'nope']);
    expect(names(answers)).toEqual(expected);
  });

  it('hides the members of organizations the token may not use', async () => {
    const answers = await getUsersById(deps())(actor(['read_organizations'], [OTHER.id]), [id(2), id(4)]);
    expect(names(answers)).toEqual([null, null]);
  });
});

describe('getPeopleById', () => {
  it('shows the users the actor may know of, with no scope of their own, others as null', async () => {
    const answers = await getPeopleById(deps())(actor([]), [id(2), id(3), id(1), id(99)]);
    expect(names(answers)).toEqual(['User 2', null, 'User 1', null]);
  });
});
