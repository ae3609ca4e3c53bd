import type { AccessLevel, OrganizationRole, Pipeline, Scope, TeamPipeline } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import type { Deps, PipelineAccessEntry, PipelineRepository } from '../ports';
import { archivePipeline, unarchivePipeline } from './archive-pipeline';
import { createPipeline } from './create-pipeline';
import { deletePipeline } from './delete-pipeline';
import { getPipeline } from './get-pipeline';
import { listPipelines } from './list-pipelines';
import { updatePipeline } from './update-pipeline';

const ORG = { id: 'org-1', slug: 'acme', name: 'Acme', createdAt: new Date(0) };
const NOW = new Date('2026-11-21T10:04:05.123Z');
const MINE = '0190f3a0-aaaa-7abc-8def-0123456789ab';
const THEIRS = '0190f3a0-bbbb-7abc-8def-0123456789ab';
const ALL: Scope[] = ['read_pipelines', 'write_pipelines'];
const BODY = {
  name: 'New App',
  repository: 'git@github.com:acme/new-app.git',
  configuration: 'steps: [make]',
};
const COUNTS = {
  scheduledBuildsCount: 0,
  runningBuildsCount: 0,
  scheduledJobsCount: 0,
  runningJobsCount: 0,
  waitingJobsCount: 0,
};

function actor(scopes: Scope[] = ALL): Actor {
  return {
    tokenId: 't',
    user: { id: 'user-1', name: 'U', email: 'u@x', avatarUrl: null, createdAt: new Date(0) },
    scopes,
    organizationIds: null,
  };
}

function stored(slug: string, changes: Partial<Pipeline> = {}): Pipeline {
  return {
    id: `id-${slug}`,
    organizationId: ORG.id,
    slug,
    name: slug,
    archivedAt: null,
    ...changes,
  } as Pipeline;
}

/**
 * In-memory ports: one organization where the user has `role`; pipelines with what the user's teams give
 * on each (`levels`) and whether they have teams at all; the user is a member of team MINE only.
 */
function world(input: {
  role: OrganizationRole | null;
  pipelines?: Array<{ pipeline: Pipeline; levels?: AccessLevel[]; hasTeams?: boolean }>;
}) {
  const rows = new Map((input.pipelines ?? []).map((entry) => [entry.pipeline.id, entry]));
  const teamRows: TeamPipeline[] = [];
  const calls: string[] = [];
  const entry = (id: string): PipelineAccessEntry => {
    const row = rows.get(id)!;
    return {
      pipelineId: id,
      organizationId: ORG.id,
      teamAccessLevels: row.levels ?? [],
      pipelineHasTeams: row.hasTeams ?? true,
    };
  };
  const pipelines: Omit<PipelineRepository, 'findBySlug' | 'findById' | 'insert'> = {
    list: async ({ visiblePipelineIds }) => {
      calls.push(`list ${JSON.stringify(visiblePipelineIds)}`);
      return [...rows.values()]
        .filter((row) => !visiblePipelineIds || visiblePipelineIds.includes(row.pipeline.id))
        .map((row) => ({ pipeline: { ...row.pipeline, counts: COUNTS }, createdBy: null }));
    },
    count: async ({ visiblePipelineIds }) =>
      [...rows.values()].filter((row) => !visiblePipelineIds || visiblePipelineIds.includes(row.pipeline.id))
        .length,
    findRecord: async (id) => {
      const row = rows.get(id);
      return row ? { pipeline: { ...row.pipeline, counts: COUNTS }, createdBy: null } : null;
    },
    teamsIn: async ({ teamIds }) =>
      teamIds
        .filter((id) => id === MINE || id === THEIRS)
        .map((teamId) => ({
          teamId,
          viewerRole: teamId === MINE ? ('member' as const) : null,
          membersCanCreatePipelines: true,
        })),
    create: async ({ pipeline, teams }) => {
      calls.push('create');
      if ([...rows.values()].some((row) => row.pipeline.slug === pipeline.slug)) return 'slug_taken';
      rows.set(pipeline.id, { pipeline, hasTeams: teams.length > 0 });
      teamRows.push(...teams);
      return 'created';
    },
    update: async ({ id, change }) => {
      calls.push('update');
      const row = rows.get(id);
      if (!row) return 'not_found';
      const next = change(row.pipeline);
      if ([...rows.values()].some((other) => other.pipeline.slug === next.slug && other.pipeline.id !== id)) {
        return 'slug_taken';
      }
      row.pipeline = next;
      return next;
    },
    delete: async (id) => {
      calls.push('delete');
      return rows.delete(id);
    },
  };
  const access = {
    organization: async ({ organizationSlug }: { organizationSlug: string }) =>
      input.role && organizationSlug === 'acme' ? { organization: ORG, role: input.role } : null,
    pipeline: async ({
      organizationSlug,
      pipelineSlug,
    }: {
      organizationSlug: string;
      pipelineSlug: string;
    }) => {
      if (!input.role || organizationSlug !== 'acme') return null;
      const row = [...rows.values()].find((r) => r.pipeline.slug === pipelineSlug);
      return {
        organization: ORG,
        role: input.role,
        pipeline: row?.pipeline ?? null,
        teamAccessLevels: row?.levels ?? [],
        pipelineHasTeams: row?.hasTeams ?? true,
      };
    },
    pipelineAccessIn: async () => [...rows.keys()].map(entry),
  };
  let n = 0;
  const deps = {
    repos: { access, pipelines },
    clock: { now: () => NOW },
    newId: () => `new-${++n}`,
  } as unknown as Deps;
  return { deps, rows, teamRows, calls };
}

const ref = (pipeline: string) => ({ organization: 'acme', pipeline });

describe('createPipeline', () => {
  it('makes an admin’s pipeline with the public defaults, the YAML env and the creator', async () => {
    const { deps, rows } = world({ role: 'admin' });
    const result = await createPipeline(deps)(actor(), 'acme', {
      ...BODY,
      configuration: 'env:\n  FOO: bar\nsteps:\n  - command: make\n',
    });
    const created = rows.get(result.record.pipeline.id)!.pipeline;
    expect(created).toMatchObject({
      slug: 'new-app',
      organizationId: ORG.id,
      env: { FOO: 'bar' },
      createdById: 'user-1',
      createdAt: NOW,
      nextBuildNumber: 1,
      archivedAt: null,
      configuration: 'env:\n  FOO: bar\nsteps:\n  - command: make\n',
      provider: { id: 'github', settings: { repository: 'acme/new-app', trigger_mode: 'code' } },
    });
    expect(created.webhookToken).toMatch(/^[0-9a-f]{50}$/);
    expect(result).toMatchObject({ organizationSlug: 'acme', showWebhookUrl: true });
  });

  it('checks the scope, then the organization, then the body', async () => {
    const { deps, calls } = world({ role: null });
    await expect(createPipeline(deps)(actor(['read_pipelines']), 'nope', {})).rejects.toMatchObject({
      message: "Your access token doesn't have the write_pipelines scope",
    });
    await expect(createPipeline(deps)(actor(), 'acme', BODY)).rejects.toMatchObject({
      message: 'No organization found',
    });
    expect(calls).toEqual([]);
  });

  it('answers 422 for an invalid body and for YAML the step parser refuses, writing nothing', async () => {
    const { deps, calls } = world({ role: 'admin' });
    await expect(createPipeline(deps)(actor(), 'acme', { name: 'x' })).rejects.toMatchObject({
      kind: 'unprocessable',
      message: 'Validation Failed',
    });
    await expect(
      createPipeline(deps)(actor(), 'acme', { ...BODY, configuration: 'steps: [' }),
    ).rejects.toMatchObject({
      details: {
        errors: [{ field: 'configuration', code: 'invalid', message: 'configuration is not valid YAML' }],
      },
    });
    await expect(
      createPipeline(deps)(actor(), 'acme', { ...BODY, configuration: 'steps:\n  - deploy: now\n' }),
    ).rejects.toMatchObject({
      details: {
        errors: [
          {
            field: 'configuration',
            message: 'Step 1: expected a command, wait, block, trigger or group step',
          },
        ],
      },
    });
    expect(calls).toEqual([]);
  });

  it('lets a member create a pipeline given to teams of theirs, with the access those teams give', async () => {
    const { deps, teamRows } = world({ role: 'member' });
    const result = await createPipeline(deps)(actor(), 'acme', {
      ...BODY,
      teams: { [MINE]: 'build_and_read' },
    });
    expect(teamRows).toEqual([
      {
        id: expect.any(String),
        teamId: MINE,
        pipelineId: result.record.pipeline.id,
        accessLevel: 'build_and_read',
        createdAt: NOW,
      },
    ]);
    // build_and_read may not edit: rule B2 hides the webhook URL in the answer too.
    expect(result.showWebhookUrl).toBe(false);
  });

  it.each<[string, Record<string, unknown>]>([
    ['without teams', {}],
    ["with a team that is not the member's", { team_uuids: [MINE, THEIRS] }],
  ])('refuses a member’s pipeline %s with 403 Forbidden, writing nothing', async (_case, teams) => {
    const { deps, calls } = world({ role: 'member' });
    await expect(createPipeline(deps)(actor(), 'acme', { ...BODY, ...teams })).rejects.toMatchObject({
      kind: 'forbidden',
      message: 'Forbidden',
    });
    expect(calls).toEqual([]);
  });

  it('answers 422 naming a team the organization does not have', async () => {
    const unknown = '0190f3a0-cccc-7abc-8def-0123456789ab';
    const { deps, calls } = world({ role: 'admin' });
    await expect(
      createPipeline(deps)(actor(), 'acme', { ...BODY, team_uuids: [MINE, unknown] }),
    ).rejects.toMatchObject({
      details: {
        errors: [
          {
            field: 'team_uuids',
            code: 'invalid',
            message: `team_uuids names ${unknown}, which is not a team of this organization`,
          },
        ],
      },
    });
    expect(calls).toEqual([]);
  });

  it('answers 422 on name when the slug is taken', async () => {
    const { deps } = world({ role: 'admin', pipelines: [{ pipeline: stored('new-app') }] });
    await expect(createPipeline(deps)(actor(), 'acme', { ...BODY, name: 'NEW  app!' })).rejects.toMatchObject(
      {
        details: { errors: [{ field: 'name', code: 'taken', message: 'name has already been taken' }] },
      },
    );
  });
});

describe('listPipelines and getPipeline', () => {
  const pipelines = [
    { pipeline: stored('web'), levels: ['manage_build_and_read' as const] },
    { pipeline: stored('docs'), levels: ['read_only' as const] },
    { pipeline: stored('secret'), levels: [] },
    { pipeline: stored('public'), levels: [], hasTeams: false },
  ];

  it('lists every pipeline for an admin, all with the webhook URL', async () => {
    const { deps, calls } = world({ role: 'admin', pipelines });
    const page = await listPipelines(deps)(actor(), 'acme', {}, { page: 1, perPage: 30 });
    expect(calls).toEqual(['list null']);
    expect(page.totalCount).toBe(4);
    expect(page.pipelines.every((result) => result.showWebhookUrl)).toBe(true);
  });

  it('lists for a member only what they may see, the webhook URL only where they may edit', async () => {
    const { deps } = world({ role: 'member', pipelines });
    const page = await listPipelines(deps)(actor(), 'acme', {}, { page: 1, perPage: 30 });
    expect(page.pipelines.map((result) => [result.record.pipeline.slug, result.showWebhookUrl])).toEqual([
      ['web', true],
      ['docs', false],
      ['public', false],
    ]);
    expect(page.totalCount).toBe(3);
  });

  it('refuses a filter the database could not compare with 400', async () => {
    const { deps } = world({ role: 'admin', pipelines });
    await expect(
      listPipelines(deps)(actor(), 'acme', { name: 'a\u0000' }, { page: 1, perPage: 30 }),
    ).rejects.toMatchObject({ kind: 'bad_request' });
  });

  it('answers 404 "No pipeline found" for a pipeline the member cannot see, as for one that does not exist', async () => {
    const { deps } = world({ role: 'member', pipelines });
    for (const slug of ['secret', 'nope']) {
      await expect(getPipeline(deps)(actor(), ref(slug))).rejects.toMatchObject({
        kind: 'not_found',
        message: 'No pipeline found',
      });
    }
    await expect(getPipeline(deps)(actor(), ref('docs'))).resolves.toMatchObject({ showWebhookUrl: false });
  });
});

describe('updating, archiving and deleting', () => {
  const pipelines = () => [
    { pipeline: stored('web', { name: 'web' }), levels: ['manage_build_and_read' as const] },
    { pipeline: stored('docs'), levels: ['read_only' as const] },
    { pipeline: stored('public'), levels: [], hasTeams: false },
    { pipeline: stored('old', { archivedAt: new Date(1) }), levels: ['manage_build_and_read' as const] },
  ];

  it.each(['docs', 'public'])(
    'answers 403 Forbidden to a member without edit permission on %s, before reading the body',
    async (slug) => {
      const { deps, calls } = world({ role: 'member', pipelines: pipelines() });
      for (const operation of [
        () => updatePipeline(deps)(actor(), ref(slug), { name: '' }),
        () => archivePipeline(deps)(actor(), ref(slug)),
        () => unarchivePipeline(deps)(actor(), ref(slug)),
        () => deletePipeline(deps)(actor(), ref(slug)),
      ]) {
        await expect(operation()).rejects.toMatchObject({ kind: 'forbidden', message: 'Forbidden' });
      }
      expect(calls).toEqual([]);
    },
  );

  it('renames with manage_build_and_read: the slug follows the name', async () => {
    const { deps, rows } = world({ role: 'member', pipelines: pipelines() });
    const result = await updatePipeline(deps)(actor(), ref('web'), { name: 'Web Site' });
    expect(result.record.pipeline).toMatchObject({ name: 'Web Site', slug: 'web-site' });
    expect(rows.get('id-web')!.pipeline.slug).toBe('web-site');
  });

  it('refuses a name whose slug another pipeline has, and any change to an archived pipeline', async () => {
    const { deps } = world({ role: 'admin', pipelines: pipelines() });
    await expect(updatePipeline(deps)(actor(), ref('web'), { name: 'Docs' })).rejects.toMatchObject({
      details: { errors: [{ field: 'name', code: 'taken' }] },
    });
    await expect(updatePipeline(deps)(actor(), ref('old'), { description: 'x' })).rejects.toMatchObject({
      kind: 'unprocessable',
      code: 'pipeline_archived',
    });
  });

  it('archives once, then answers 422; unarchives once, then answers 422', async () => {
    const { deps } = world({ role: 'admin', pipelines: pipelines() });
    const archived = await archivePipeline(deps)(actor(), ref('web'));
    expect(archived.record.pipeline.archivedAt).toEqual(NOW);
    await expect(archivePipeline(deps)(actor(), ref('web'))).rejects.toMatchObject({
      message: 'Pipeline could not be archived.',
    });
    await unarchivePipeline(deps)(actor(), ref('web'));
    await expect(unarchivePipeline(deps)(actor(), ref('web'))).rejects.toMatchObject({
      message: 'Pipeline could not be unarchived.',
    });
  });

  it('deletes with edit permission, then answers 404', async () => {
    const { deps, rows } = world({ role: 'member', pipelines: pipelines() });
    await deletePipeline(deps)(actor(), ref('web'));
    expect(rows.has('id-web')).toBe(false);
    await expect(deletePipeline(deps)(actor(), ref('web'))).rejects.toMatchObject({
      message: 'No pipeline found',
    });
  });
});
