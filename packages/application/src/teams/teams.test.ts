import type { OrganizationRole, Scope, Team, TeamMemberRole } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import type { Deps, TeamMemberView, TeamRepository } from '../ports';
import { addTeamMember } from './add-team-member';
import { createTeam } from './create-team';
import { deleteTeam } from './delete-team';
import { getTeam } from './get-team';
import { listTeams } from './list-teams';
import { updateTeam } from './update-team';

const ORG = { id: 'org-1', slug: 'acme', name: 'Acme', createdAt: new Date(0) };
const TEAM_ID = '0190f3a0-aaaa-7abc-8def-0123456789ab';
const USER_ID = '0190f3a0-bbbb-7abc-8def-0123456789ab';
const NOW = new Date('2026-11-21T10:04:05.123Z');
const USER = { id: 'u', name: 'U', email: 'u@x', avatarUrl: null, createdAt: new Date(0) };

const team: Team = {
  id: TEAM_ID,
  organizationId: ORG.id,
  slug: 'platform',
  name: 'Platform',
  description: '',
  privacy: 'visible',
  isDefaultTeam: false,
  defaultMemberRole: 'maintainer',
  membersCanCreatePipelines: true,
  membersCanCreateSuites: true,
  membersCanCreateRegistries: true,
  membersCanDestroyRegistries: false,
  membersCanDestroyPackages: false,
  createdById: null,
  createdAt: new Date(0),
};

function actor(scopes: Scope[] = ['view_teams', 'write_teams']): Actor {
  return { tokenId: 't', user: USER, scopes, organizationIds: null };
}

/** In-memory ports: one organization, one team, the caller's roles; every repository call is recorded. */
function world(input: {
  role: OrganizationRole;
  teamRole?: TeamMemberRole | null;
  privacy?: Team['privacy'];
  insert?: 'inserted' | 'slug_taken';
  deleted?: Awaited<ReturnType<TeamRepository['deleteUnlessLastTeam']>>;
  facts?: Awaited<ReturnType<TeamRepository['viewerFacts']>>;
}) {
  const calls: string[] = [];
  const record =
    <T>(name: string, answer: (arg: never) => T) =>
    async (arg: never) => {
      calls.push(name);
      return answer(arg);
    };
  const teams: Partial<TeamRepository> = {
    findForViewer: record('find', ({ teamId }: { teamId: string }) =>
      teamId === TEAM_ID
        ? {
            view: { team: { ...team, privacy: input.privacy ?? 'visible' }, createdBy: null },
            viewerRole: input.teamRole ?? null,
          }
        : null,
    ),
    viewerFacts: record('facts', () => input.facts ?? []),
    list: record('list', (scope: { visibleTeamIds: string[] | null }) => [{ team, createdBy: null, scope }]),
    count: record('count', () => 1),
    insert: record('insert', () => input.insert ?? 'inserted'),
    update: record('update', () => ({ team: { ...team, name: 'Renamed' }, createdBy: null })),
    deleteUnlessLastTeam: record('delete', () => input.deleted ?? 'deleted'),
    insertMember: record('insertMember', ({ member }: { member: TeamMemberView['member'] }) => ({
      member,
      userName: 'Added',
    })),
  };
  const deps = {
    repos: {
      access: {
        organization: async ({ organizationSlug }: { organizationSlug: string }) =>
          organizationSlug === 'acme' ? { organization: ORG, role: input.role } : null,
      },
      teams,
    },
    clock: { now: () => NOW },
    newId: () => 'new-id',
  } as unknown as Deps;
  return { deps, calls };
}

const ref = { organization: 'acme', team: TEAM_ID };

describe('reaching a team', () => {
  it('checks the scope, then the organization, before reading any team', async () => {
    const { deps, calls } = world({ role: 'admin' });
    await expect(getTeam(deps)(actor(['write_teams']), ref)).rejects.toMatchObject({
      message: "Your access token doesn't have the view_teams scope",
    });
    await expect(getTeam(deps)(actor(), { ...ref, organization: 'nope' })).rejects.toMatchObject({
      message: 'No organization found',
    });
    expect(calls).toEqual([]);
  });

  it.each(['not-a-uuid', '0190f3a0-ffff-7abc-8def-0123456789ab'])('answers team %j with 404', async (id) => {
    const { deps } = world({ role: 'admin' });
    await expect(getTeam(deps)(actor(), { ...ref, team: id })).rejects.toMatchObject({
      message: 'No team found',
    });
  });

  it('hides a secret team from a member outside it, on reads and changes alike', async () => {
    const { deps, calls } = world({ role: 'member', privacy: 'secret' });
    await expect(getTeam(deps)(actor(), ref)).rejects.toMatchObject({
      kind: 'not_found',
      message: 'No team found',
    });
    await expect(updateTeam(deps)(actor(), ref, { name: 'x' })).rejects.toMatchObject({
      message: 'No team found',
    });
    expect(calls).not.toContain('update');
  });

  it('lets a maintainer change the team, and refuses a plain member with 403 before the body', async () => {
    const maintainer = world({ role: 'member', teamRole: 'maintainer' });
    await expect(updateTeam(maintainer.deps)(actor(), ref, { name: 'Renamed' })).resolves.toMatchObject({
      team: { name: 'Renamed' },
    });
    const member = world({ role: 'member', teamRole: 'member' });
    await expect(updateTeam(member.deps)(actor(), ref, { name: '' })).rejects.toMatchObject({
      kind: 'forbidden',
      message: 'Forbidden',
    });
    expect(member.calls).toEqual(['find']);
  });
});

describe('createTeam', () => {
  it('records the caller as created_by and answers with them', async () => {
    const { deps } = world({ role: 'admin' });
    const view = await createTeam(deps)(actor(), 'acme', { name: 'Night Shift' });
    expect(view).toEqual({
      team: {
        id: 'new-id',
        organizationId: ORG.id,
        name: 'Night Shift',
        slug: 'night-shift',
        description: '',
        privacy: 'visible',
        isDefaultTeam: false,
        defaultMemberRole: 'member',
        membersCanCreatePipelines: true,
        membersCanCreateSuites: true,
        membersCanCreateRegistries: true,
        membersCanDestroyRegistries: false,
        membersCanDestroyPackages: false,
        createdById: USER.id,
        createdAt: NOW,
      },
      createdBy: USER,
    });
  });

  it('refuses members with 403 before reading the body, and a taken slug with 422', async () => {
    const member = world({ role: 'member' });
    await expect(createTeam(member.deps)(actor(), 'acme', {})).rejects.toMatchObject({
      message: 'Forbidden',
    });
    const taken = world({ role: 'admin', insert: 'slug_taken' });
    await expect(createTeam(taken.deps)(actor(), 'acme', { name: 'Platform' })).rejects.toMatchObject({
      message: 'Validation failed: Name has already been taken',
    });
  });
});

describe('listTeams', () => {
  it('passes every team for an admin, and for a member only those the visibility rule shows', async () => {
    const admin = world({ role: 'admin' });
    const all = await listTeams(admin.deps)(actor(), 'acme', { userId: null }, { page: 1, perPage: 30 });
    expect(
      (all.teams[0] as unknown as { scope: { visibleTeamIds: unknown } }).scope.visibleTeamIds,
    ).toBeNull();
    expect(admin.calls).not.toContain('facts');

    const member = world({
      role: 'member',
      facts: [
        { teamId: 'a', privacy: 'visible', viewerRole: null },
        { teamId: 'b', privacy: 'secret', viewerRole: null },
        { teamId: 'c', privacy: 'secret', viewerRole: 'member' },
      ],
    });
    const some = await listTeams(member.deps)(actor(), 'acme', { userId: null }, { page: 1, perPage: 30 });
    expect((some.teams[0] as unknown as { scope: { visibleTeamIds: unknown } }).scope.visibleTeamIds).toEqual(
      ['a', 'c'],
    );
  });

  it('answers a user_id that is not a UUID with 400', async () => {
    const { deps } = world({ role: 'admin' });
    await expect(
      listTeams(deps)(actor(), 'acme', { userId: 'me' }, { page: 1, perPage: 30 }),
    ).rejects.toMatchObject({ kind: 'bad_request', message: 'user_id must be a user UUID' });
  });
});

describe('deleteTeam and addTeamMember', () => {
  it.each<[Awaited<ReturnType<TeamRepository['deleteUnlessLastTeam']>>, Record<string, unknown> | null]>([
    ['deleted', null],
    ['not_found', { kind: 'not_found', message: 'No team found' }],
    [{ lastTeamOf: 2 }, { kind: 'unprocessable', code: 'last_team' }],
  ])('maps the repository outcome %j', async (deleted, error) => {
    const { deps } = world({ role: 'admin', deleted });
    const run = deleteTeam(deps)(actor(), ref);
    if (error) await expect(run).rejects.toMatchObject(error);
    else await expect(run).resolves.toBeUndefined();
  });

  it("gives a member added without a role the team's default member role", async () => {
    const { deps } = world({ role: 'admin' });
    const view = await addTeamMember(deps)(actor(), ref, { user_id: USER_ID });
    expect(view.member).toEqual({
      id: 'new-id',
      teamId: TEAM_ID,
      userId: USER_ID,
      role: 'maintainer',
      createdAt: NOW,
    });
  });
});
