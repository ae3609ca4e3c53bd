import type { OrganizationRole, Pipeline, Scope, Team, TeamMemberRole } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import type {
  Deps,
  ParentWindow,
  PipelineAccessEntry,
  TeamPipelineView,
  VisibleAcrossOrganizations,
} from '../ports';
import { ACME, actorWith, uuid as id } from '../use-case.fixture';
import { listTeamPipelinesOfPipelines, listTeamPipelinesOfTeams } from './team-pipelines-of';

/** platform (visible, the user a member) has web and secret-less api; covert (secret, not the user's) has web and vault. */
const TEAMS = [
  { id: id(1), slug: 'platform', privacy: 'visible', organizationId: ACME.id },
  { id: id(2), slug: 'covert', privacy: 'secret', organizationId: ACME.id },
] as Team[];
const PIPELINES = [
  { id: id(11), slug: 'web', organizationId: ACME.id },
  { id: id(12), slug: 'api', organizationId: ACME.id },
  { id: id(13), slug: 'vault', organizationId: ACME.id },
] as Pipeline[];
const ROLES: Record<string, TeamMemberRole> = { [id(1)]: 'member' };
const VIEWS: TeamPipelineView[] = [
  [id(1), id(11)],
  [id(1), id(12)],
  [id(2), id(11)],
  [id(2), id(13)],
].map(([teamId, pipelineId], index) => {
  const pipeline = PIPELINES.find((p) => p.id === pipelineId) as Pipeline;
  return {
    teamPipeline: {
      id: id(21 + index),
      teamId: teamId as string,
      pipelineId: pipeline.id,
      accessLevel: 'read_only',
      createdAt: new Date(0),
    },
    pipelineSlug: pipeline.slug,
    pipeline,
  };
});

function actor(scopes: Scope[] = ['view_teams']): Actor {
  return actorWith(scopes);
}

function world(role: OrganizationRole) {
  const visibleAsked: VisibleAcrossOrganizations[] = [];
  // The member's team (platform) gives web and api; vault has only covert.
  const entries: PipelineAccessEntry[] = PIPELINES.map((p) => ({
    pipelineId: p.id,
    organizationId: ACME.id,
    teamAccessLevels: p.slug === 'vault' ? [] : ['read_only'],
    pipelineHasTeams: true,
  }));
  const covered = (visible: VisibleAcrossOrganizations, view: TeamPipelineView, of: 'team' | 'pipeline') =>
    visible.adminOrganizationIds.includes(view.pipeline.organizationId) ||
    visible.visibleIds.includes(of === 'team' ? view.teamPipeline.pipelineId : view.teamPipeline.teamId);
  const listOf =
    (of: 'team' | 'pipeline') =>
    async ({
      windows,
      visible,
    }: {
      windows: readonly ParentWindow[];
      visible: VisibleAcrossOrganizations;
    }) => {
      visibleAsked.push(visible);
      return windows.flatMap((w) =>
        VIEWS.filter(
          (v) =>
            (of === 'team' ? v.teamPipeline.teamId : v.teamPipeline.pipelineId) === w.parentId &&
            covered(visible, v, of),
        ).slice(w.offset, w.offset + w.limit),
      );
    };
  const countOf =
    (of: 'team' | 'pipeline') =>
    async (input: {
      teamIds?: readonly string[];
      pipelineIds?: readonly string[];
      visible: VisibleAcrossOrganizations;
    }) =>
      (input.teamIds ?? input.pipelineIds ?? []).map((parentId) => ({
        parentId,
        count: VIEWS.filter(
          (v) =>
            (of === 'team' ? v.teamPipeline.teamId : v.teamPipeline.pipelineId) === parentId &&
            covered(input.visible, v, of),
        ).length,
      }));
  const deps = {
    repos: {
      lookups: {
        teams: async (ids: readonly string[]) => TEAMS.filter((t) => ids.includes(t.id)),
        pipelines: async (ids: readonly string[]) => PIPELINES.filter((p) => ids.includes(p.id)),
      },
      access: {
        memberships: async () => [{ organization: ACME, role }],
        pipelineAccessIn: async () => entries,
      },
      teams: {
        viewerFacts: async () =>
          TEAMS.map((t) => ({ teamId: t.id, privacy: t.privacy, viewerRole: ROLES[t.id] ?? null })),
      },
      teamPipelines: {
        listOfTeams: listOf('team'),
        countOfTeams: countOf('team'),
        listOfPipelines: listOf('pipeline'),
        countOfPipelines: countOf('pipeline'),
      },
    },
  } as unknown as Deps;
  return { deps, visibleAsked };
}

const requests = (...ids: string[]) =>
  ids.map((parentId) => ({ parentId, window: { offset: 0, limit: 10 }, withTotal: true }));
type Parts = Awaited<ReturnType<ReturnType<typeof listTeamPipelinesOfTeams>>>;
const shown = (parts: Parts) =>
  parts.map((part) =>
    'items' in part
      ? { items: part.items.map((r) => `${r.team.slug}:${r.pipelineSlug}`), total: part.totalCount }
      : part.message,
  );

describe('listTeamPipelinesOfTeams', () => {
  it("shows a member their teams' pipelines that they may see, and refuses a secret team they are not in", async () => {
    const { deps } = world('member');
    expect(shown(await listTeamPipelinesOfTeams(deps)(actor(), requests(id(1), id(2))))).toEqual([
      { items: ['platform:web', 'platform:api'], total: 2 },
      'No team found',
    ]);
  });

  it('shows an admin every team and every pipeline', async () => {
    const { deps, visibleAsked } = world('admin');
    expect(shown(await listTeamPipelinesOfTeams(deps)(actor(), requests(id(1), id(2))))).toEqual([
      { items: ['platform:web', 'platform:api'], total: 2 },
      { items: ['covert:web', 'covert:vault'], total: 2 },
    ]);
    expect(visibleAsked[0]?.adminOrganizationIds).toEqual([ACME.id]);
  });

  it('needs view_teams', async () => {
    const { deps } = world('admin');
    await expect(listTeamPipelinesOfTeams(deps)(actor(['read_pipelines']), [])).rejects.toMatchObject({
      message: "Your access token doesn't have the view_teams scope",
    });
  });
});

describe('listTeamPipelinesOfPipelines', () => {
  it("shows a member a pipeline's teams they may see, the secret one left out, and refuses pipelines they cannot see", async () => {
    const { deps, visibleAsked } = world('member');
    expect(
      shown(await listTeamPipelinesOfPipelines(deps)(actor(), requests(id(11), id(13), 'nope'))),
    ).toEqual([{ items: ['platform:web'], total: 1 }, 'No pipeline found', 'No pipeline found']);
    expect(visibleAsked[0]).toEqual({ adminOrganizationIds: [], visibleIds: [id(1)] });
  });

  it('shows an admin every team of a pipeline', async () => {
    const { deps } = world('admin');
    expect(shown(await listTeamPipelinesOfPipelines(deps)(actor(), requests(id(11), id(13))))).toEqual([
      { items: ['platform:web', 'covert:web'], total: 2 },
      { items: ['covert:vault'], total: 1 },
    ]);
  });
});
