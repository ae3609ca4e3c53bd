import type { OrganizationRole, Scope, Team, TeamMember, TeamMemberRole } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import type { Deps, ParentWindow } from '../ports';
import { ACME, actorWith, uuid as id, OTHER } from '../use-case.fixture';
import { findTeam, getTeamMembersById, getTeamsById, listMembersOfTeams } from './teams-by-id';

const team = (n: number, slug: string, privacy: Team['privacy'], organizationId = ACME.id) =>
  ({ id: id(n), slug, privacy, organizationId }) as Team;

/** platform: visible, the user a member; covert: secret, the user not in it; mine: secret, the user a maintainer. */
const TEAMS = [
  team(1, 'platform', 'visible'),
  team(2, 'covert', 'secret'),
  team(3, 'mine', 'secret'),
  team(4, 'theirs', 'secret', OTHER.id),
];
const ROLES: Record<string, TeamMemberRole> = { [id(1)]: 'member', [id(3)]: 'maintainer' };
/** One membership per team, of someone else. */
const MEMBERS: TeamMember[] = TEAMS.map((t, index) => ({
  id: id(10 + index),
  teamId: t.id,
  userId: `someone-${index}`,
  role: 'member',
  createdAt: new Date(0),
}));

function actor(scopes: Scope[] = ['view_teams'], organizationIds: string[] | null = null): Actor {
  return actorWith(scopes, organizationIds);
}

function world(role: OrganizationRole) {
  const reads: string[] = [];
  const memberships = [
    { organization: ACME, role },
    { organization: OTHER, role: 'admin' as const },
  ];
  const deps = {
    repos: {
      lookups: {
        teams: async (ids: readonly string[]) => TEAMS.filter((t) => ids.includes(t.id)),
        teamMembers: async (ids: readonly string[]) => MEMBERS.filter((m) => ids.includes(m.id)),
      },
      access: {
        memberships: async () => memberships,
        organization: async ({ organizationSlug }: { organizationSlug: string }) =>
          memberships.find((m) => m.organization.slug === organizationSlug) ?? null,
      },
      teams: {
        viewerFacts: async ({ organizationIds }: { organizationIds: readonly string[] }) => {
          reads.push(`facts ${organizationIds.join(',')}`);
          return TEAMS.filter((t) => organizationIds.includes(t.organizationId)).map((t) => ({
            teamId: t.id,
            privacy: t.privacy,
            viewerRole: ROLES[t.id] ?? null,
          }));
        },
        findBySlug: async (organizationId: string, slug: string) =>
          TEAMS.find((t) => t.organizationId === organizationId && t.slug === slug) ?? null,
        findForViewer: async ({ organizationId, teamId }: { organizationId: string; teamId: string }) => {
          const found = TEAMS.find((t) => t.organizationId === organizationId && t.id === teamId);
          return found
            ? { view: { team: found, createdBy: null }, viewerRole: ROLES[found.id] ?? null }
            : null;
        },
        listMembersOfTeams: async (windows: readonly ParentWindow[]) => {
          reads.push(`members of ${windows.map((w) => w.parentId).join(',')}`);
          return MEMBERS.filter((m) => windows.some((w) => w.parentId === m.teamId && w.limit > 0));
        },
        countMembersOfTeams: async (teamIds: readonly string[]) =>
          teamIds.map((parentId) => ({ parentId, count: 1 })),
      },
    },
  } as unknown as Deps;
  return { deps, reads };
}

const ALL = [id(1), id(2), id(3), id(4), 'nope'];

describe('getTeamsById', () => {
  it.each<[OrganizationRole, Array<string | null>]>([
    ['admin', ['platform', 'covert', 'mine', 'theirs', null]],
    ['member', ['platform', null, 'mine', 'theirs', null]],
  ])(
    'shows a %s the visible teams and the secret teams they are in (every team where they are an admin)',
    async (role, slugs) => {
      const { deps, reads } = world(role);
      const answers = await getTeamsById(deps)(actor(), ALL);
      expect(answers.map((t) => t?.slug ?? null)).toEqual(slugs);
      // What the user is in each team is read only where they are not an admin.
      expect(reads).toEqual(role === 'admin' ? [] : [`facts ${ACME.id}`]);
    },
  );

  it('leaves out the organizations the token may not use, and needs view_teams', async () => {
    const { deps } = world('admin');
    const limited = await getTeamsById(deps)(actor(['view_teams'], [OTHER.id]), ALL);
    expect(limited.map((t) => t?.slug ?? null)).toEqual([null, null, null, 'theirs', null]);
    await expect(getTeamsById(deps)(actor(['read_teams']), ALL)).rejects.toMatchObject({
      message: "Your access token doesn't have the view_teams scope",
    });
  });
});

describe('findTeam', () => {
  it.each<[string, OrganizationRole, string, string]>([
    ['a secret team the member is not in', 'member', 'acme/covert', 'No team found'],
    ['an unknown team', 'admin', 'acme/nope', 'No team found'],
    ['a slug without its organization', 'admin', 'platform', 'No team found'],
    ['a slug of three parts', 'admin', 'acme/platform/x', 'No team found'],
    ['an organization the user is not in', 'admin', 'nope/platform', 'No organization found'],
  ])('refuses %s', async (_case, role, slug, message) => {
    const { deps } = world(role);
    await expect(findTeam(deps)(actor(), slug)).rejects.toMatchObject({ message });
  });

  it('finds the teams the actor may see by slug', async () => {
    const { deps } = world('member');
    expect((await findTeam(deps)(actor(), 'acme/mine')).id).toBe(id(3));
    expect((await findTeam(deps)(actor(), 'acme/platform')).id).toBe(id(1));
  });
});

describe('getTeamMembersById', () => {
  it('shows the memberships of the teams the actor may see, with their team', async () => {
    const { deps } = world('member');
    const answers = await getTeamMembersById(deps)(actor(), [id(10), id(11), id(12), 'nope']);
    expect(answers.map((a) => (a ? `${a.team.slug}:${a.member.userId}` : null))).toEqual([
      'platform:someone-0',
      null,
      'mine:someone-2',
      null,
    ]);
  });
});

describe('listMembersOfTeams', () => {
  it('reads the members of the teams the actor may see at once, and refuses the others', async () => {
    const { deps, reads } = world('member');
    const answers = await listMembersOfTeams(deps)(
      actor(),
      [id(2), id(1), id(3)].map((parentId) => ({
        parentId,
        window: { offset: 0, limit: 5 },
        withTotal: true,
      })),
    );
    expect(answers.map((a) => ('items' in a ? a.items.map((r) => r.team.slug) : a.message))).toEqual([
      'No team found',
      ['platform'],
      ['mine'],
    ]);
    expect(reads).toContain(`members of ${id(1)},${id(3)}`);
  });
});
