import type { AccessLevel, Annotation, Build, Pipeline, Scope } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { BuildView, Deps, PipelineAccessEntry } from '../ports';
import { ACME, actorWith, uuid as id, OTHER } from '../use-case.fixture';
import { deleteAnnotationById, getAnnotationsById } from './annotations-by-id';

/** A pipeline the member's team builds, one of a team the member is not in, and one of another organization. */
const pipelines = {
  teamed: { id: id(101), organizationId: ACME.id, slug: 'teamed' },
  hidden: { id: id(102), organizationId: ACME.id, slug: 'hidden' },
  elsewhere: { id: id(103), organizationId: OTHER.id, slug: 'elsewhere' },
} as const;
type Name = keyof typeof pipelines;
const NAMES = Object.keys(pipelines) as Name[];

/** One build per pipeline (ids 1…), one annotation of each (21…), its context the pipeline's name. */
const views: BuildView[] = NAMES.map((name, index) => ({
  build: { id: id(index + 1), number: 1, pipelineId: pipelines[name].id } as Build,
  organizationSlug: pipelines[name].organizationId === ACME.id ? 'acme' : 'other',
  pipeline: { ...(pipelines[name] as unknown as Pipeline), counts: {} } as BuildView['pipeline'],
  creator: null,
  jobs: [],
  rebuiltFrom: null,
  triggeredFrom: null,
}));
const annotations: Annotation[] = NAMES.map(
  (name, index) => ({ id: id(index + 21), buildId: id(index + 1), context: name }) as Annotation,
);
const annotationOf = (name: Name) => annotations[NAMES.indexOf(name)] as Annotation;

/** In-memory ports: the user a member of acme (in a team that builds `teamed`) and an admin of other. */
function world() {
  const reads: string[] = [];
  const entries: PipelineAccessEntry[] = (['teamed', 'hidden'] as const).map((name) => ({
    pipelineId: pipelines[name].id,
    organizationId: ACME.id,
    teamAccessLevels: name === 'teamed' ? (['read_only'] as AccessLevel[]) : [],
    pipelineHasTeams: true,
  }));
  const deps = {
    repos: {
      annotations: {
        byIds: async (ids: readonly string[]) => {
          reads.push('annotations');
          return annotations.filter((annotation) => ids.includes(annotation.id));
        },
      },
      lookups: {
        builds: async ({ ids }: { ids: readonly string[] }) => {
          reads.push('builds');
          return views.filter((view) => ids.includes(view.build.id));
        },
      },
      access: {
        memberships: async () => {
          reads.push('memberships');
          return [
            { organization: ACME, role: 'member' as const },
            { organization: OTHER, role: 'admin' as const },
          ];
        },
        pipelineAccessIn: async () => {
          reads.push('access');
          return entries;
        },
      },
    },
  } as unknown as Deps;
  return { deps, reads };
}

const actor = (scopes: Scope[], organizationIds: string[] | null = null) =>
  actorWith(scopes, organizationIds);

describe('getAnnotationsById', () => {
  it('answers in the order asked the annotations of builds the actor sees, null for every other id', async () => {
    const { deps } = world();
    const ids = [
      annotationOf('hidden').id,
      annotationOf('teamed').id.toUpperCase(),
      id(999),
      'garbage',
      annotationOf('elsewhere').id,
    ];
    const seen = await getAnnotationsById(deps)(actor(['read_builds']), ids);
    expect(seen.map((annotation) => annotation?.context ?? null)).toEqual([
      null,
      'teamed',
      null,
      null,
      'elsewhere',
    ]);
    const limited = await getAnnotationsById(deps)(actor(['read_builds'], [ACME.id]), ids);
    expect(limited.map((annotation) => annotation?.context ?? null)).toEqual([
      null,
      'teamed',
      null,
      null,
      null,
    ]);
  });

  it('needs read_builds, as REST lists annotations', async () => {
    const { deps, reads } = world();
    await expect(
      getAnnotationsById(deps)(actor(['read_artifacts']), [annotationOf('teamed').id]),
    ).rejects.toMatchObject({
      kind: 'forbidden',
      message: "Your access token doesn't have the read_builds scope",
    });
    expect(reads).toEqual([]);
  });

  it('reads a batch in a fixed number of reads, and no build when no annotation exists', async () => {
    const { deps, reads } = world();
    await getAnnotationsById(deps)(
      actor(['read_builds']),
      annotations.map((annotation) => annotation.id),
    );
    expect(reads.sort()).toEqual(['access', 'annotations', 'builds', 'memberships']);
    const none = world();
    expect(await getAnnotationsById(none.deps)(actor(['read_builds']), [id(999)])).toEqual([null]);
    expect(none.reads).toEqual(['annotations']);
  });
});

describe('deleteAnnotationById', () => {
  it('checks write_builds before reading anything', async () => {
    const { deps, reads } = world();
    await expect(
      deleteAnnotationById(deps)(actor(['read_builds']), annotationOf('teamed').id),
    ).rejects.toMatchObject({ message: "Your access token doesn't have the write_builds scope" });
    expect(reads).toEqual([]);
  });

  it('answers No annotation found for an organization the token may not use, an unknown id or none', async () => {
    const { deps } = world();
    for (const annotationId of [annotationOf('elsewhere').id, id(999), 'garbage', null]) {
      await expect(
        deleteAnnotationById(deps)(actor(['write_builds'], [ACME.id]), annotationId),
      ).rejects.toMatchObject({ kind: 'not_found', message: 'No annotation found' });
    }
  });
});
