import type { OrganizationRole, Pipeline, Scope, Team } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import type { Deps, TeamPipelineView } from '../ports';
import {
  createTeamPipelineByIds,
  deleteTeamPipelineById,
  getTeamPipelinesById,
  updateTeamPipelineById,
} from './team-pipelines-by-id';

const ACME = { id: 'org-acme', slug: 'acme', name: 'Acme', createdAt: new Date(0) };
const OTHER = { id: 'org-other', slug: 'other', name: 'Other', createdAt: new Date(0) };
const id = (n: number) => `0190f3a0-0000-7abc-8def-${String(n).padStart(12, '0')}`;
const team = { id: id(1), organizationId: ACME.id, slug: 'platform', privacy: 'visible' } as Team;
const foreignTeam = { id: id(2), organizationId: OTHER.id, slug: 'theirs' } as Team;
const pipeline = (n: number, organizationId = ACME.id) =>
  ({ id: id(n), organizationId, slug: `p${n}` }) as Pipeline;

/** Associations: platform has p11 (which the member's team gives) and p12 (which it does not). */
const views: TeamPipelineView[] = [
  [id(21), team, pipeline(11)],
  [id(22), team, pipeline(12)],
  [id(23), foreignTeam, pipeline(13, OTHER.id)],
].map(([associationId, owner, p]) => ({
  teamPipeline: {
    id: associationId as string,
    teamId: (owner as Team).id,
    pipelineId: (p as Pipeline).id,
    accessLevel: 'read_only',
    createdAt: new Date(0),
  },
  pipelineSlug: (p as Pipeline).slug,
  pipeline: p as Pipeline,
}));

function actor(scopes: Scope[] = ['view_teams', 'write_teams']): Actor {
  return {
    tokenId: 't',
    user: { id: 'u', name: 'U', email: 'u@x', avatarUrl: null, createdAt: new Date(0) },
    scopes,
    organizationIds: null,
  };
}

function world(role: OrganizationRole) {
  const reads: string[] = [];
  const deps = {
    repos: {
      lookups: {
        teamPipelines: async (ids: readonly string[]) => {
          reads.push('team pipelines');
          return views.filter((view) => ids.includes(view.teamPipeline.id));
        },
        teams: async (ids: readonly string[]) => {
          reads.push('teams');
          return [team, foreignTeam].filter((candidate) => ids.includes(candidate.id));
        },
      },
      access: {
        memberships: async () => [{ organization: ACME, role }],
        pipelineAccessIn: async () => [
          {
            pipelineId: id(11),
            organizationId: ACME.id,
            teamAccessLevels: ['read_only'],
            pipelineHasTeams: true,
          },
          { pipelineId: id(12), organizationId: ACME.id, teamAccessLevels: [], pipelineHasTeams: true },
        ],
        organization: async ({ organizationSlug }: { organizationSlug: string }) =>
          organizationSlug === 'acme' ? { organization: ACME, role } : null,
      },
      teams: {
        findForViewer: async ({ teamId }: { teamId: string }) =>
          teamId === team.id ? { view: { team, createdBy: null }, viewerRole: null } : null,
        viewerFacts: async () => [{ teamId: team.id, privacy: team.privacy, viewerRole: null }],
      },
    },
    clock: { now: () => new Date(0) },
    newId: () => id(99),
  } as unknown as Deps;
  return { deps, reads };
}

describe('getTeamPipelinesById', () => {
  it.each([
    ['an admin sees every association of the organization', 'admin', ['p11', 'p12', null]],
    ['a member sees only those of pipelines the member may see', 'member', ['p11', null, null]],
  ] as const)('%s', async (_name, role, expected) => {
    const { deps } = world(role);
    const results = await getTeamPipelinesById(deps)(actor(), [id(21), id(22), id(23)]);
    expect(results.map((result) => result?.pipelineSlug ?? null)).toEqual(expected);
    expect(results[0]?.team).toEqual(team);
    expect(results[0]?.organization).toEqual(ACME);
  });

  it("hides a secret team's associations from a member who is not in it", async () => {
    const { deps } = world('member');
    const secret = { ...team, privacy: 'secret' as const };
    const lookups = deps.repos.lookups;
    const withSecret = {
      ...deps,
      repos: { ...deps.repos, lookups: { ...lookups, teams: async () => [secret] } },
    } as Deps;
    expect(await getTeamPipelinesById(withSecret)(actor(), [id(21)])).toEqual([null]);
  });

  it('checks the scope before reading anything', async () => {
    const { deps, reads } = world('admin');
    await expect(getTeamPipelinesById(deps)(actor(['write_teams']), [id(21)])).rejects.toMatchObject({
      message: "Your access token doesn't have the view_teams scope",
    });
    expect(reads).toEqual([]);
  });
});

describe('changes by id', () => {
  it('check the scope first, then answer as for an association or team that does not exist', async () => {
    const { deps, reads } = world('admin');
    await expect(
      createTeamPipelineByIds(deps)(actor(['view_teams']), {
        teamId: id(1),
        pipelineId: id(11),
        accessLevel: 'read_only',
      }),
    ).rejects.toMatchObject({ message: "Your access token doesn't have the write_teams scope" });
    expect(reads).toEqual([]);
    await expect(
      createTeamPipelineByIds(deps)(actor(), {
        teamId: foreignTeam.id,
        pipelineId: id(11),
        accessLevel: 'read_only',
      }),
    ).rejects.toMatchObject({ message: 'No team found' });
    await expect(updateTeamPipelineById(deps)(actor(), id(23), 'build_and_read')).rejects.toMatchObject({
      message: 'No team pipeline found',
    });
    await expect(deleteTeamPipelineById(deps)(actor(), null)).rejects.toMatchObject({
      message: 'No team pipeline found',
    });
  });

  it('leave the rest to the REST use cases: a member may not change associations', async () => {
    const { deps } = world('member');
    await expect(updateTeamPipelineById(deps)(actor(), id(21), 'build_and_read')).rejects.toMatchObject({
      kind: 'forbidden',
      message: 'Forbidden',
    });
  });
});
