import type { OrganizationRole, Pipeline, Scope, Team, TeamMemberRole, TeamPipeline } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import type { Deps, PipelineAccessEntry, TeamPipelineRepository, TeamPipelineView } from '../ports';
import { actorWith } from '../use-case.fixture';
import { createTeamPipeline } from './create-team-pipeline';
import { deleteTeamPipeline } from './delete-team-pipeline';
import { getTeamPipeline } from './get-team-pipeline';
import { listTeamPipelines } from './list-team-pipelines';
import { updateTeamPipeline } from './update-team-pipeline';

const ORG = { id: 'org-1', slug: 'acme', name: 'Acme', createdAt: new Date(0) };
const TEAM_ID = '0190f3a0-aaaa-7abc-8def-0123456789ab';
const WEB = '0190f3a1-0001-7abc-8def-0123456789ab';
const SECRET = '0190f3a1-0002-7abc-8def-0123456789ab';
const NOW = new Date('2026-11-21T10:04:05.123Z');

const team = { id: TEAM_ID, organizationId: ORG.id, slug: 'platform', privacy: 'visible' } as Team;
const pipelines: Record<string, Pipeline> = {
  [WEB]: { id: WEB, slug: 'web' } as Pipeline,
  [SECRET]: { id: SECRET, slug: 'secret' } as Pipeline,
};

function actor(scopes: Scope[] = ['view_teams', 'write_teams']): Actor {
  return actorWith(scopes);
}

/** In-memory ports: one organization, one team, the user's roles, and what the user's teams give. */
function world(input: {
  role: OrganizationRole;
  teamRole?: TeamMemberRole | null;
  privacy?: Team['privacy'];
  entries?: PipelineAccessEntry[];
  rows?: TeamPipeline[];
}) {
  const rows = [...(input.rows ?? [])];
  const calls: string[] = [];
  const view = (row: TeamPipeline): TeamPipelineView => ({
    teamPipeline: row,
    pipelineSlug: pipelines[row.pipelineId]!.slug,
    pipeline: pipelines[row.pipelineId]!,
  });
  // The batched lists are GraphQL's (team-pipelines-of.test.ts).
  const teamPipelines: Omit<
    TeamPipelineRepository,
    'listOfTeams' | 'countOfTeams' | 'listOfPipelines' | 'countOfPipelines'
  > = {
    put: async () => {},
    list: async ({ visiblePipelineIds, offset, limit }) => {
      calls.push(`list ${JSON.stringify(visiblePipelineIds)}`);
      return rows
        .filter((row) => !visiblePipelineIds || visiblePipelineIds.includes(row.pipelineId))
        .slice(offset, offset + limit)
        .map(view);
    },
    count: async ({ visiblePipelineIds }) =>
      rows.filter((row) => !visiblePipelineIds || visiblePipelineIds.includes(row.pipelineId)).length,
    find: async ({ pipelineId }) => {
      const row = rows.find((r) => r.pipelineId === pipelineId);
      return row ? view(row) : null;
    },
    insert: async (row) => {
      calls.push('insert');
      if (rows.some((r) => r.pipelineId === row.pipelineId)) return 'taken';
      rows.push(row);
      return 'inserted';
    },
    update: async ({ pipelineId, accessLevel }) => {
      calls.push('update');
      const row = rows.find((r) => r.pipelineId === pipelineId);
      if (!row) return null;
      row.accessLevel = accessLevel;
      return view(row);
    },
    deleteUnlessLast: async ({ pipelineId, allowLast }) => {
      calls.push(allowLast ? 'delete allowing the last' : 'delete');
      if (pipelineId === SECRET) return allowLast ? 'deleted' : 'last_team';
      return pipelineId === WEB ? 'deleted' : 'not_found';
    },
  };
  const deps = {
    repos: {
      access: {
        organization: async ({ organizationSlug }: { organizationSlug: string }) =>
          organizationSlug === 'acme' ? { organization: ORG, role: input.role } : null,
        pipelineAccessIn: async () => input.entries ?? [],
      },
      teams: {
        findForViewer: async ({ organizationId, teamId }: { organizationId: string; teamId: string }) => {
          calls.push('team');
          if (organizationId !== ORG.id || teamId !== TEAM_ID) return null;
          const view = { team: { ...team, privacy: input.privacy ?? 'visible' }, createdBy: null };
          return { view, viewerRole: input.teamRole ?? null };
        },
      },
      pipelines: {
        findById: async (_organizationId: string, id: string) => {
          calls.push('pipeline');
          return pipelines[id] ?? null;
        },
      },
      teamPipelines,
    },
    clock: { now: () => NOW },
    newId: () => 'id',
  } as unknown as Deps;
  return { deps, rows, calls };
}

const ref = { organization: 'acme', team: TEAM_ID };
const row = (pipelineId: string): TeamPipeline => ({
  id: `0190f3a2-${pipelineId.slice(9, 13)}-7abc-8def-0123456789ab`,
  teamId: TEAM_ID,
  pipelineId,
  accessLevel: 'read_only',
  createdAt: new Date(0),
});

describe('who reaches the team', () => {
  it('checks the scope first, even for an organization that does not exist', async () => {
    const { deps } = world({ role: 'admin' });
    await expect(
      createTeamPipeline(deps)(actor(['view_teams']), { organization: 'nope', team: 'x' }, {}),
    ).rejects.toMatchObject({
      kind: 'forbidden',
      message: "Your access token doesn't have the write_teams scope",
    });
    await expect(
      listTeamPipelines(deps)(actor(['write_teams']), ref, { page: 1, perPage: 30 }),
    ).rejects.toMatchObject({
      kind: 'forbidden',
      message: "Your access token doesn't have the view_teams scope",
    });
  });

  it('answers 404 No organization found before anything about the team', async () => {
    const { deps, calls } = world({ role: 'admin' });
    await expect(
      getTeamPipeline(deps)(actor(), { organization: 'nope', team: TEAM_ID, pipeline: WEB }),
    ).rejects.toMatchObject({ kind: 'not_found', message: 'No organization found' });
    expect(calls).toEqual([]);
  });

  it.each([
    [
      'create',
      (deps: Deps) => createTeamPipeline(deps)(actor(), ref, { pipeline_id: WEB, access_level: 'read_only' }),
    ],
    [
      'update',
      (deps: Deps) =>
        updateTeamPipeline(deps)(actor(), { ...ref, pipeline: WEB }, { access_level: 'read_only' }),
    ],
    ['delete', (deps: Deps) => deleteTeamPipeline(deps)(actor(), { ...ref, pipeline: WEB })],
  ])(
    'refuses a member who is not a maintainer on %s with 403 Forbidden, before the body, changing nothing',
    async (_name, run) => {
      for (const teamRole of [null, 'member'] as const) {
        const { deps, calls } = world({ role: 'member', teamRole, rows: [row(WEB)] });
        await expect(run(deps)).rejects.toMatchObject({ kind: 'forbidden', message: 'Forbidden' });
        expect(calls).toEqual(['team']);
      }
    },
  );

  it('answers a member 404 No team found for a secret team they are not in, even on changes', async () => {
    const { deps } = world({ role: 'member', privacy: 'secret' });
    await expect(listTeamPipelines(deps)(actor(), ref, { page: 1, perPage: 30 })).rejects.toMatchObject({
      kind: 'not_found',
      message: 'No team found',
    });
    await expect(deleteTeamPipeline(deps)(actor(), { ...ref, pipeline: WEB })).rejects.toMatchObject({
      kind: 'not_found',
      message: 'No team found',
    });
    const inTeam = world({ role: 'member', teamRole: 'member', privacy: 'secret' });
    await expect(
      listTeamPipelines(inTeam.deps)(actor(), ref, { page: 1, perPage: 30 }),
    ).resolves.toMatchObject({ totalCount: 0 });
  });

  it.each(['not-a-uuid', '0190f3a0-ffff-7abc-8def-0123456789ab', ''])(
    'answers team %j with 404 No team found',
    async (teamRef) => {
      const { deps } = world({ role: 'admin' });
      await expect(
        listTeamPipelines(deps)(actor(), { organization: 'acme', team: teamRef }, { page: 1, perPage: 30 }),
      ).rejects.toMatchObject({ kind: 'not_found', message: 'No team found' });
    },
  );

  it('finds the team by its UUID in any case', async () => {
    const { deps } = world({ role: 'admin', rows: [row(WEB)] });
    const page = await listTeamPipelines(deps)(
      actor(),
      { ...ref, team: TEAM_ID.toUpperCase() },
      { page: 1, perPage: 30 },
    );
    expect(page.totalCount).toBe(1);
  });
});

describe('reading associations', () => {
  const entries: PipelineAccessEntry[] = [
    { pipelineId: WEB, organizationId: ORG.id, teamAccessLevels: ['read_only'], pipelineHasTeams: true },
    { pipelineId: SECRET, organizationId: ORG.id, teamAccessLevels: [], pipelineHasTeams: true },
  ];

  it('lists every association for an admin, with the organization slug for the URL', async () => {
    const { deps, calls } = world({ role: 'admin', rows: [row(WEB), row(SECRET)], entries });
    const page = await listTeamPipelines(deps)(actor(), ref, { page: 1, perPage: 30 });
    expect(page.totalCount).toBe(2);
    expect(page.teamPipelines.map((result) => [result.pipelineSlug, result.organizationSlug])).toEqual([
      ['web', 'acme'],
      ['secret', 'acme'],
    ]);
    expect(calls).toContain('list null');
  });

  it('lists for a member only the pipelines the access rule lets them see', async () => {
    const { deps } = world({ role: 'member', rows: [row(WEB), row(SECRET)], entries });
    const page = await listTeamPipelines(deps)(actor(), ref, { page: 1, perPage: 30 });
    expect(page.teamPipelines.map((result) => result.pipelineSlug)).toEqual(['web']);
    expect(page.totalCount).toBe(1);
  });

  it('answers a member 404 No pipeline found for an association of a pipeline they cannot see', async () => {
    const { deps } = world({ role: 'member', rows: [row(WEB), row(SECRET)], entries });
    await expect(getTeamPipeline(deps)(actor(), { ...ref, pipeline: SECRET })).rejects.toMatchObject({
      kind: 'not_found',
      message: 'No pipeline found',
    });
    expect((await getTeamPipeline(deps)(actor(), { ...ref, pipeline: WEB })).pipelineSlug).toBe('web');
  });

  it('pages with offset and limit', async () => {
    const { deps } = world({ role: 'admin', rows: [row(WEB), row(SECRET)] });
    const page = await listTeamPipelines(deps)(actor(), ref, { page: 2, perPage: 1 });
    expect(page.teamPipelines.map((result) => result.pipelineSlug)).toEqual(['secret']);
    expect(page.totalCount).toBe(2);
  });
});

describe('changing associations', () => {
  it('creates with the clock time and the validated access level', async () => {
    const { deps, rows } = world({ role: 'admin' });
    const result = await createTeamPipeline(deps)(actor(), ref, {
      pipeline_id: WEB.toUpperCase(),
      access_level: 'build_and_read',
    });
    expect(result).toEqual({
      teamPipeline: {
        id: 'id',
        teamId: TEAM_ID,
        pipelineId: WEB,
        accessLevel: 'build_and_read',
        createdAt: NOW,
      },
      pipelineSlug: 'web',
      pipeline: pipelines[WEB],
      organizationSlug: 'acme',
      organization: ORG,
      team,
    });
    expect(rows).toHaveLength(1);
  });

  it('validates the body before looking the pipeline up', async () => {
    const { deps, calls } = world({ role: 'admin' });
    await expect(createTeamPipeline(deps)(actor(), ref, { pipeline_id: WEB })).rejects.toMatchObject({
      message: "Validation failed: Access level can't be blank",
    });
    expect(calls).toEqual(['team']);
  });

  it('answers an unknown pipeline and a taken one with 422', async () => {
    const { deps } = world({ role: 'admin', rows: [row(WEB)] });
    await expect(
      createTeamPipeline(deps)(actor(), ref, {
        pipeline_id: '0190f3a1-9999-7abc-8def-0123456789ab',
        access_level: 'read_only',
      }),
    ).rejects.toMatchObject({ kind: 'unprocessable', message: 'Validation failed: Pipeline must exist' });
    await expect(
      createTeamPipeline(deps)(actor(), ref, { pipeline_id: WEB, access_level: 'read_only' }),
    ).rejects.toMatchObject({
      kind: 'unprocessable',
      message: 'Validation failed: Pipeline has already been taken',
    });
  });

  it('answers an unknown association on update with 404 before looking at the body', async () => {
    const { deps, calls } = world({ role: 'admin' });
    await expect(
      updateTeamPipeline(deps)(actor(), { ...ref, pipeline: WEB }, { access_level: 'bogus' }),
    ).rejects.toMatchObject({ kind: 'not_found', message: 'No pipeline found' });
    expect(calls).not.toContain('update');
  });

  it('updates the access level', async () => {
    const { deps } = world({ role: 'admin', rows: [row(WEB)] });
    const result = await updateTeamPipeline(deps)(
      actor(),
      { ...ref, pipeline: WEB },
      { access_level: 'manage_build_and_read' },
    );
    expect(result.teamPipeline.accessLevel).toBe('manage_build_and_read');
  });

  it.each<[string, string | null, Record<string, unknown> | null]>([
    ['a removable association', WEB, null],
    [
      "the pipeline's last team",
      SECRET,
      { kind: 'unprocessable', message: 'The pipeline must belong to at least one team' },
    ],
    [
      'an unknown association',
      '0190f3a1-9999-7abc-8def-0123456789ab',
      { kind: 'not_found', message: 'No pipeline found' },
    ],
    ['a malformed pipeline UUID', 'web', { kind: 'not_found', message: 'No pipeline found' }],
    [
      'no pipeline at all',
      null,
      { kind: 'unprocessable', message: "Validation failed: Pipeline can't be blank" },
    ],
    [
      'a blank pipeline',
      ' ',
      { kind: 'unprocessable', message: "Validation failed: Pipeline can't be blank" },
    ],
  ])('deletes %s as the repository decides', async (_name, pipeline, error) => {
    const { deps } = world({ role: 'admin' });
    const run = deleteTeamPipeline(deps)(actor(), { ...ref, pipeline });
    if (error) await expect(run).rejects.toMatchObject(error);
    else await expect(run).resolves.toMatchObject({ team: { id: TEAM_ID } });
  });

  it("removes a pipeline's last team only when forced, as GraphQL's teamPipelineDelete(force: true) may", async () => {
    const { deps, calls } = world({ role: 'admin' });
    await expect(deleteTeamPipeline(deps)(actor(), { ...ref, pipeline: SECRET })).rejects.toMatchObject({
      message: 'The pipeline must belong to at least one team',
    });
    await expect(
      deleteTeamPipeline(deps)(actor(), { ...ref, pipeline: SECRET }, { force: true }),
    ).resolves.toMatchObject({ team: { id: TEAM_ID } });
    expect(calls.filter((call) => call.startsWith('delete'))).toEqual(['delete', 'delete allowing the last']);
  });
});

describe('a maintainer changing associations', () => {
  const OTHER = '0190f3a1-0003-7abc-8def-0123456789ab';
  pipelines[OTHER] = { id: OTHER, slug: 'other' } as Pipeline;
  const entries: PipelineAccessEntry[] = [
    {
      pipelineId: WEB,
      organizationId: ORG.id,
      teamAccessLevels: ['manage_build_and_read'],
      pipelineHasTeams: true,
    },
    { pipelineId: SECRET, organizationId: ORG.id, teamAccessLevels: ['read_only'], pipelineHasTeams: true },
    { pipelineId: OTHER, organizationId: ORG.id, teamAccessLevels: [], pipelineHasTeams: true },
  ];
  const maintainer = (rows: TeamPipeline[] = []) =>
    world({ role: 'member', teamRole: 'maintainer', entries, rows });

  it('adds, updates and removes a pipeline the maintainer may edit', async () => {
    const { deps, calls } = maintainer([row(SECRET)]);
    await expect(
      createTeamPipeline(deps)(actor(), ref, { pipeline_id: WEB, access_level: 'read_only' }),
    ).resolves.toMatchObject({ teamPipeline: { pipelineId: WEB } });
    await expect(
      updateTeamPipeline(deps)(actor(), { ...ref, pipeline: WEB }, { access_level: 'build_and_read' }),
    ).resolves.toMatchObject({ teamPipeline: { accessLevel: 'build_and_read' } });
    await expect(deleteTeamPipeline(deps)(actor(), { ...ref, pipeline: WEB })).resolves.toHaveProperty(
      'team',
    );
    expect(calls.filter((call) => ['insert', 'update', 'delete'].includes(call))).toEqual([
      'insert',
      'update',
      'delete',
    ]);
  });

  it('answers 403 Forbidden on a pipeline the maintainer may only read, changing nothing', async () => {
    const { deps, calls } = maintainer([row(SECRET)]);
    await expect(
      updateTeamPipeline(deps)(
        actor(),
        { ...ref, pipeline: SECRET },
        { access_level: 'manage_build_and_read' },
      ),
    ).rejects.toMatchObject({ kind: 'forbidden', message: 'Forbidden' });
    await expect(deleteTeamPipeline(deps)(actor(), { ...ref, pipeline: SECRET })).rejects.toMatchObject({
      kind: 'forbidden',
    });
    expect(calls).not.toContain('update');
    expect(calls).not.toContain('delete');
  });

  it('answers a pipeline the maintainer cannot see as one that does not exist', async () => {
    const { deps, calls } = maintainer([row(OTHER)]);
    await expect(
      createTeamPipeline(deps)(actor(), ref, { pipeline_id: OTHER, access_level: 'read_only' }),
    ).rejects.toMatchObject({ kind: 'unprocessable', message: 'Validation failed: Pipeline must exist' });
    await expect(
      updateTeamPipeline(deps)(actor(), { ...ref, pipeline: OTHER }, { access_level: 'read_only' }),
    ).rejects.toMatchObject({ kind: 'not_found', message: 'No pipeline found' });
    await expect(deleteTeamPipeline(deps)(actor(), { ...ref, pipeline: OTHER })).rejects.toMatchObject({
      kind: 'not_found',
      message: 'No pipeline found',
    });
    expect(calls.filter((call) => ['insert', 'update', 'delete'].includes(call))).toEqual([]);
  });
});
