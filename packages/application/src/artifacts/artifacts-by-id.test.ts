import type { AccessLevel, Artifact, Build, Pipeline, Scope } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import type { BuildView, Deps, PipelineAccessEntry } from '../ports';
import { ACME, actorWith, uuid as id, OTHER } from '../use-case.fixture';
import { deleteArtifactById, getArtifactsById } from './artifacts-by-id';

/** A pipeline the member's team builds, one of a team the member is not in, and one of another organization. */
const pipelines = {
  teamed: { id: id(101), organizationId: ACME.id, slug: 'teamed' },
  hidden: { id: id(102), organizationId: ACME.id, slug: 'hidden' },
  elsewhere: { id: id(103), organizationId: OTHER.id, slug: 'elsewhere' },
} as const;
type Name = keyof typeof pipelines;
const NAMES = Object.keys(pipelines) as Name[];

/** One build per pipeline (ids 1…), one job in each (11…), one artifact of that job (21…). */
const views: BuildView[] = NAMES.map((name, index) => ({
  build: { id: id(index + 1), number: 1, pipelineId: pipelines[name].id } as Build,
  organizationSlug: pipelines[name].organizationId === ACME.id ? 'acme' : 'other',
  pipeline: { ...(pipelines[name] as unknown as Pipeline), counts: {} } as BuildView['pipeline'],
  creator: null,
  jobs: [
    { job: { id: id(index + 11) } as BuildView['jobs'][number]['job'], agent: null, retrySourceId: null },
  ],
  rebuiltFrom: null,
  triggeredFrom: null,
}));
const artifacts: Artifact[] = NAMES.map(
  (name, index) =>
    ({ id: id(index + 21), buildId: id(index + 1), jobId: id(index + 11), path: name }) as Artifact,
);
const artifactOf = (name: Name) => artifacts[NAMES.indexOf(name)] as Artifact;

/** In-memory ports: the user a member of acme (in a team that builds `teamed`) and an admin of other. */
function world() {
  const reads: string[] = [];
  const entries: PipelineAccessEntry[] = (['teamed', 'hidden'] as const).map((name) => ({
    pipelineId: pipelines[name].id,
    organizationId: ACME.id,
    teamAccessLevels: name === 'teamed' ? (['build_and_read'] as AccessLevel[]) : [],
    pipelineHasTeams: true,
  }));
  const deps = {
    repos: {
      artifacts: {
        byIds: async (ids: readonly string[]) => {
          reads.push('artifacts');
          return artifacts.filter((artifact) => ids.includes(artifact.id));
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
    expect(reads.sort()).toEqual(['access', 'artifacts', 'builds', 'memberships']);
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
