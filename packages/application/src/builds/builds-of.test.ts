import type { Build, OrganizationRole, Pipeline, Scope } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../auth/actor';
import { establishAccess } from '../auth/established-access';
import type { ListPart } from '../page';
import type { BuildRepository, BuildView, Deps, PipelineAccessEntry } from '../ports';
import { ACME, actorWith, uuid as id, OTHER } from '../use-case.fixture';
import type { BuildResult } from './build-result';
import { listBuildsOfCreators, listBuildsOfPipelines } from './builds-of';

/** teamed: a team of the member's has it; hidden: only other teams; elsewhere: another organization. */
const PIPELINES = {
  teamed: { id: id(1), organizationId: ACME.id, slug: 'teamed' },
  hidden: { id: id(2), organizationId: ACME.id, slug: 'hidden' },
  elsewhere: { id: id(3), organizationId: OTHER.id, slug: 'elsewhere' },
} as unknown as Record<'teamed' | 'hidden' | 'elsewhere', Pipeline>;

/** Two builds on each pipeline, by creator 9. */
const VIEWS: BuildView[] = Object.values(PIPELINES).flatMap((pipeline, p) =>
  [1, 2].map((number) => ({
    build: { id: id(100 + p * 10 + number), number, pipelineId: pipeline.id, creatorId: id(9) } as Build,
    organizationSlug: pipeline.organizationId === ACME.id ? 'acme' : 'other',
    pipeline: { ...pipeline, counts: {} as BuildView['pipeline']['counts'], createdBy: null },
    creator: null,
    jobs: [],
    rebuiltFrom: null,
    triggeredFrom: null,
  })),
);

function actor(scopes: Scope[] = ['read_builds'], organizationIds: string[] | null = null): Actor {
  return actorWith(scopes, organizationIds);
}

function world(role: OrganizationRole) {
  const asked: Array<Record<string, unknown>> = [];
  /** What the access decision read: the parents' pipelines, the memberships. */
  const accessReads: string[] = [];
  const entries: PipelineAccessEntry[] = [
    { pipelineId: id(1), organizationId: ACME.id, teamAccessLevels: ['read_only'], pipelineHasTeams: true },
    { pipelineId: id(2), organizationId: ACME.id, teamAccessLevels: [], pipelineHasTeams: true },
  ];
  const builds: Pick<BuildRepository, 'listOfParents' | 'countOfParents'> = {
    listOfParents: async ({ scope, parent, windows }) => {
      asked.push({ list: { scope, parent, windows } });
      const visible = scope.kind === 'organizations' ? scope.visiblePipelineIds : [];
      return windows.flatMap((window) =>
        VIEWS.filter(
          (view) =>
            (parent === 'pipeline' ? view.pipeline.id : view.build.creatorId) === window.parentId &&
            (visible.includes(view.pipeline.id) ||
              (scope.kind === 'organizations' &&
                scope.adminOrganizationIds.includes(view.pipeline.organizationId))),
        ).slice(window.offset, window.offset + window.limit),
      );
    },
    countOfParents: async ({ parentIds }) => {
      asked.push({ count: parentIds });
      return parentIds.map((parentId) => ({ parentId, count: 2 }));
    },
  };
  const deps = {
    repos: {
      builds,
      lookups: {
        pipelines: async (ids: readonly string[]) => {
          accessReads.push(`pipelines ${ids.join(' ')}`);
          return Object.values(PIPELINES).filter((p) => ids.includes(p.id));
        },
      },
      access: {
        memberships: async () => {
          accessReads.push('memberships');
          return [
            { organization: ACME, role },
            { organization: OTHER, role: 'admin' as const },
          ];
        },
        pipelineAccessIn: async () => entries,
      },
    },
  } as unknown as Deps;
  return { deps, asked, accessReads };
}

const window = { offset: 0, limit: 1 };
const parts = (answers: Array<ListPart<BuildResult>>) =>
  answers.map((part) =>
    'items' in part
      ? {
          slugs: part.items.map((b) => `${b.view.pipeline.slug}#${b.view.build.number}`),
          total: part.totalCount,
        }
      : part.message,
  );

describe('listBuildsOfPipelines', () => {
  it('gives each pipeline the member may see its window of builds, and refuses the others', async () => {
    const { deps, asked } = world('member');
    const answers = await listBuildsOfPipelines(deps)(
      actor(),
      [id(2), id(1), id(3), 'nope'].map((parentId) => ({ parentId, window, withTotal: true })),
      {},
    );
    expect(parts(answers)).toEqual([
      'No pipeline found',
      { slugs: ['teamed#1'], total: 2 },
      { slugs: ['elsewhere#1'], total: 2 },
      'No pipeline found',
    ]);
    // One read of the visible parents' windows, one count of them: the invisible are never asked.
    expect(asked).toEqual([
      {
        list: {
          scope: {
            kind: 'organizations',
            adminOrganizationIds: [],
            visiblePipelineIds: [id(1), id(3)],
            // The pipelines read to decide the access: the repository reads only their counts.
            pipelines: [PIPELINES.teamed, PIPELINES.elsewhere],
          },
          parent: 'pipeline',
          windows: [
            { parentId: id(1), ...window },
            { parentId: id(3), ...window },
          ],
        },
      },
      { count: [id(1), id(3)] },
    ]);
  });

  it('counts no list when no total is asked', async () => {
    const { deps, asked } = world('member');
    const answers = await listBuildsOfPipelines(deps)(
      actor(),
      [id(1), id(3)].map((parentId) => ({ parentId, window, withTotal: false })),
      {},
    );
    expect(parts(answers)).toEqual([
      { slugs: ['teamed#1'], total: null },
      { slugs: ['elsewhere#1'], total: null },
    ]);
    expect(asked.filter((read) => 'count' in read)).toEqual([]);
  });

  it('lets an admin read every pipeline of their organization, and nothing of one the token may not use', async () => {
    const { deps } = world('admin');
    const answers = await listBuildsOfPipelines(deps)(
      actor(['read_builds'], [ACME.id]),
      [id(2), id(3)].map((parentId) => ({ parentId, window, withTotal: true })),
      {},
    );
    expect(parts(answers)).toEqual([{ slugs: ['hidden#1'], total: 2 }, 'No pipeline found']);
  });

  it('keeps the access this request decided for this actor on a known pipeline, and reads none again', async () => {
    const { deps, asked, accessReads } = world('member');
    const caller = actor();
    // As `pipeline(slug:)` decided it: the rule's answer, here one the batch would not give (hidden).
    const known = [
      {
        pipeline: PIPELINES.hidden,
        established: establishAccess({ actor: caller, pipelineId: id(2), access: 'admin' }),
      },
    ];
    const answers = await listBuildsOfPipelines(deps)(
      caller,
      [{ parentId: id(2), window, withTotal: false }],
      {},
      known,
    );
    expect(parts(answers)).toEqual([{ slugs: ['hidden#1'], total: null }]);
    expect(answers[0]).toMatchObject({ items: [{ showWebhookUrl: true }] });
    expect(accessReads).toEqual([]);
    expect(asked[0]).toMatchObject({
      list: { scope: { visiblePipelineIds: [id(2)], pipelines: [PIPELINES.hidden] } },
    });
  });

  it("decides again a known pipeline whose access was decided for another request's actor or pipeline", async () => {
    const caller = actor();
    for (const established of [
      establishAccess({ actor: actor(), pipelineId: id(2), access: 'admin' }),
      establishAccess({ actor: caller, pipelineId: id(1), access: 'admin' }),
      undefined,
    ]) {
      const { deps, accessReads } = world('member');
      const answers = await listBuildsOfPipelines(deps)(
        caller,
        [{ parentId: id(2), window, withTotal: false }],
        {},
        [{ pipeline: PIPELINES.hidden, established }],
      );
      expect(parts(answers)).toEqual(['No pipeline found']);
      expect(accessReads).toEqual([`pipelines ${id(2)}`, 'memberships']);
    }
  });

  it('decides in the batch only the parents whose access no earlier use case decided', async () => {
    const { deps, accessReads } = world('member');
    const caller = actor();
    const answers = await listBuildsOfPipelines(deps)(
      caller,
      [id(1), id(2), id(3)].map((parentId) => ({ parentId, window, withTotal: false })),
      {},
      [
        {
          pipeline: PIPELINES.teamed,
          established: establishAccess({ actor: caller, pipelineId: id(1), access: 'read_only' }),
        },
      ],
    );
    expect(parts(answers)).toEqual([
      { slugs: ['teamed#1'], total: null },
      'No pipeline found',
      { slugs: ['elsewhere#1'], total: null },
    ]);
    expect(accessReads).toEqual([`pipelines ${id(2)} ${id(3)}`, 'memberships']);
  });

  it('needs read_builds before anything is read', async () => {
    const { deps, asked } = world('admin');
    await expect(listBuildsOfPipelines(deps)(actor(['read_pipelines']), [], {})).rejects.toMatchObject({
      message: "Your access token doesn't have the read_builds scope",
    });
    expect(asked).toEqual([]);
  });
});

describe('the filter of both lists', () => {
  it.each([
    ['branch', { branches: ['main', 'a\u0000b'] }],
    ['commit', { commits: ['\ud800'] }],
    ['meta_data', { metaData: { release: 'v\u0000' } }],
    ['meta_data', { metaData: { 'k\udc00': 'v1' } }],
  ])('refuses %s text PostgreSQL cannot take, before anything is read: %j', async (name, filter) => {
    for (const list of [listBuildsOfPipelines, listBuildsOfCreators]) {
      const { deps, asked } = world('admin');
      await expect(
        list(deps)(actor(), [{ parentId: id(1), window, withTotal: true }], filter),
      ).rejects.toMatchObject({
        kind: 'bad_request',
        code: 'invalid_parameter',
        message: `${name} can't contain NUL characters or unpaired surrogates`,
      });
      expect(asked).toEqual([]);
    }
  });
});

describe('listBuildsOfCreators', () => {
  it("reads a creator's builds over every pipeline the actor may see, as the REST list of all builds", async () => {
    const { deps, asked } = world('member');
    const answers = await listBuildsOfCreators(deps)(
      actor(),
      [id(9), 'not a uuid'].map((parentId) => ({
        parentId,
        window: { offset: 0, limit: 10 },
        withTotal: true,
      })),
      {},
    );
    expect(parts(answers)).toEqual([
      { slugs: ['teamed#1', 'teamed#2', 'elsewhere#1', 'elsewhere#2'], total: 2 },
      'No user found',
    ]);
    expect(asked[0]).toMatchObject({
      list: {
        scope: { kind: 'organizations', adminOrganizationIds: [OTHER.id], visiblePipelineIds: [id(1)] },
        parent: 'creator',
      },
    });
  });
});
