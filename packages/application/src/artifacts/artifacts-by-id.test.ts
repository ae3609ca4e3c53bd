import type { Artifact, Scope } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import { buildVisibilityRepos, PIPELINE_NAMES, type PipelineName } from '../builds/build-visibility.fixture';
import type { Deps } from '../ports';
import { ACME, actorWith, uuid as id } from '../use-case.fixture';
import { deleteArtifactById, getArtifactsById } from './artifacts-by-id';

const artifacts: Artifact[] = PIPELINE_NAMES.map(
  (name, index) =>
    ({ id: id(index + 21), buildId: id(index + 1), jobId: id(index + 11), path: name }) as Artifact,
);
const artifactOf = (name: PipelineName) => artifacts[PIPELINE_NAMES.indexOf(name)] as Artifact;

/** One artifact per build of the shared fixture (of its job, its path the pipeline's name). */
function world() {
  const reads: string[] = [];
  const deps = {
    repos: {
      ...buildVisibilityRepos(reads, 'build_and_read'),
      artifacts: {
        byIds: async (ids: readonly string[]) => {
          reads.push('artifacts');
          return artifacts.filter((artifact) => ids.includes(artifact.id));
        },
      },
    },
  } as unknown as Deps;
  return { deps, reads };
}

const actor = (scopes: Scope[], organizationIds: string[] | null = null) =>
  actorWith(scopes, organizationIds);

describe('getArtifactsById', () => {
  it('answers in the order asked the artifacts of builds the actor sees, null for every other id', async () => {
    const { deps } = world();
    const ids = [
      artifactOf('hidden').id,
      artifactOf('teamed').id.toUpperCase(),
      id(999),
      'garbage',
      artifactOf('elsewhere').id,
    ];
    const seen = await getArtifactsById(deps)(actor(['read_artifacts']), ids);
    expect(seen.map((artifact) => artifact?.path ?? null)).toEqual([null, 'teamed', null, null, 'elsewhere']);
    const limited = await getArtifactsById(deps)(actor(['read_artifacts'], [ACME.id]), ids);
    expect(limited.map((artifact) => artifact?.path ?? null)).toEqual([null, 'teamed', null, null, null]);
  });

  it('needs read_artifacts, as REST reads an artifact, and not read_builds', async () => {
    const { deps, reads } = world();
    await expect(
      getArtifactsById(deps)(actor(['read_builds']), [artifactOf('teamed').id]),
    ).rejects.toMatchObject({
      kind: 'forbidden',
      message: "Your access token doesn't have the read_artifacts scope",
    });
    expect(reads).toEqual([]);
  });

  it('reads a batch in a fixed number of reads, and no build when no artifact exists', async () => {
    const { deps, reads } = world();
    await getArtifactsById(deps)(
      actor(['read_artifacts']),
      artifacts.map((artifact) => artifact.id),
    );
    expect(reads.sort()).toEqual(['access', 'artifacts', 'build pipelines', 'memberships']);
    const none = world();
    expect(await getArtifactsById(none.deps)(actor(['read_artifacts']), [id(999), 'garbage'])).toEqual([
      null,
      null,
    ]);
    expect(none.reads).toEqual(['artifacts']);
  });
});

describe('deleteArtifactById', () => {
  it('checks write_artifacts before reading anything', async () => {
    const { deps, reads } = world();
    await expect(
      deleteArtifactById(deps)(actor(['read_artifacts']), artifactOf('teamed').id),
    ).rejects.toMatchObject({ message: "Your access token doesn't have the write_artifacts scope" });
    expect(reads).toEqual([]);
  });

  it('answers No artifact found for an organization the token may not use, an unknown id or none', async () => {
    const { deps } = world();
    for (const artifactId of [artifactOf('elsewhere').id, id(999), 'garbage', null]) {
      await expect(
        deleteArtifactById(deps)(actor(['write_artifacts'], [ACME.id]), artifactId),
      ).rejects.toMatchObject({ kind: 'not_found', message: 'No artifact found' });
    }
  });
});
