import type { Annotation, Scope } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import { buildVisibilityRepos, PIPELINE_NAMES, type PipelineName } from '../builds/build-visibility.fixture';
import type { Deps } from '../ports';
import { ACME, actorWith, uuid as id } from '../use-case.fixture';
import { deleteAnnotationById, getAnnotationsById } from './annotations-by-id';

const annotations: Annotation[] = PIPELINE_NAMES.map(
  (name, index) => ({ id: id(index + 21), buildId: id(index + 1), context: name }) as Annotation,
);
const annotationOf = (name: PipelineName) => annotations[PIPELINE_NAMES.indexOf(name)] as Annotation;

/** One annotation per build of the shared fixture (its context the pipeline's name). */
function world() {
  const reads: string[] = [];
  const deps = {
    repos: {
      ...buildVisibilityRepos(reads, 'read_only'),
      annotations: {
        byIds: async (ids: readonly string[]) => {
          reads.push('annotations');
          return annotations.filter((annotation) => ids.includes(annotation.id));
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
    expect(reads.sort()).toEqual(['access', 'annotations', 'build pipelines', 'memberships']);
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
