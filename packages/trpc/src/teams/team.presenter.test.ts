import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TeamView } from '@ci/application';
import { describe, expect, it } from 'vitest';
import { presentTeam, presentTeamMember, presentTeams } from './team.presenter';
import { TeamMemberWire, TeamWire } from './team.wire';

// A copy of ../shared/reference/buildkite-examples/teams-get.json, kept in the repository so the test is hermetic.
const EXAMPLE = JSON.parse(
  readFileSync(resolve(import.meta.dirname, '../../../../test/fixtures/reference/teams-get.json'), 'utf8'),
) as Record<string, unknown>;
const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

// The team of the public example, so that whole bodies can be compared with it. (The example's creator
// id is not a UUID and does not match its graphql_id; ours are consistent, so the creator differs there.)
const view: TeamView = {
  team: {
    id: 'c5e09619-8648-4896-a936-9d0b8b7b3fe9',
    organizationId: 'org',
    slug: 'fearless-frontenders',
    name: 'Fearless Frontenders',
    description: '',
    privacy: 'secret',
    isDefaultTeam: true,
    defaultMemberRole: 'member',
    membersCanCreatePipelines: true,
    membersCanCreateSuites: true,
    membersCanCreateRegistries: true,
    membersCanDestroyRegistries: false,
    membersCanDestroyPackages: false,
    createdById: '875ce846-f6c0-4360-8133-389b03c7c46a',
    createdAt: new Date('2023-03-14T00:45:16.215Z'),
  },
  createdBy: {
    id: '875ce846-f6c0-4360-8133-389b03c7c46a',
    name: 'Peter Pettigrew',
    email: 'pp@hogwarts.co.uk',
    avatarUrl: 'https://www.gravatar.com/avatar/aa9e3513ea543edb9143cbcca425e56c',
    createdAt: new Date('2022-01-18T02:51:30.983Z'),
  },
};

describe('presentTeam', () => {
  it("has the example's keys in their order, and its creator's", () => {
    const wire = presentTeam(view);
    expect(Object.keys(wire)).toEqual(Object.keys(EXAMPLE));
    expect(Object.keys(wire.created_by ?? {})).toEqual(Object.keys(EXAMPLE.created_by as object));
  });

  it('gives the body of the example for the same team', () => {
    const example = EXAMPLE as { created_by: Record<string, unknown> };
    expect(presentTeam(view)).toEqual({
      ...EXAMPLE,
      created_by: { ...example.created_by, id: view.createdBy?.id },
    });
  });

  it('gives a creator without an avatar the gravatar of their email', () => {
    const creator = { ...view.createdBy!, avatarUrl: null, email: 'Ada@Example.com ' };
    expect(presentTeam({ ...view, createdBy: creator }).created_by?.avatar_url).toBe(
      'https://www.gravatar.com/avatar/3e3417d7ef77d5932a6734b916515ed5',
    );
  });

  it('shows a team without a description as "" and one made by the CLI with a null created_by', () => {
    const wire = presentTeam({
      team: { ...view.team, description: null, createdById: null },
      createdBy: null,
    });
    expect(wire.description).toBe('');
    expect(wire.created_by).toBeNull();
    expect(wire.created_at).toMatch(ISO_MS_Z);
    expect(TeamWire.parse(wire)).toEqual(wire);
  });

  it('presents a list in order', () => {
    const other = { ...view, team: { ...view.team, id: '0190f3a1-0000-7000-8000-000000000000', name: 'B' } };
    expect(presentTeams([view, other]).map((team) => team.name)).toEqual(['Fearless Frontenders', 'B']);
    expect(presentTeams([])).toEqual([]);
  });
});

describe('presentTeamMember', () => {
  it("has the public API's member keys in their order", () => {
    const wire = presentTeamMember({
      member: {
        id: '018c6030-b459-45b2-a844-000000000001',
        teamId: view.team.id,
        userId: '018c6030-b459-45b2-a844-951f0fc8a4e7',
        role: 'member',
        createdAt: new Date('2023-12-15T00:23:23.823Z'),
      },
      userName: 'Dolores Umbridge',
    });
    expect(wire).toEqual({
      role: 'member',
      created_at: '2023-12-15T00:23:23.823Z',
      user_id: '018c6030-b459-45b2-a844-951f0fc8a4e7',
      user_name: 'Dolores Umbridge',
    });
    expect(Object.keys(wire)).toEqual(['role', 'created_at', 'user_id', 'user_name']);
    expect(TeamMemberWire.parse(wire)).toEqual(wire);
  });
});
