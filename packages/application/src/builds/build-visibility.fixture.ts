import type { AccessLevel, Build, Pipeline } from '@ci/domain';
import type { BuildView, PipelineAccessEntry } from '../ports';
import { ACME, uuid as id, OTHER } from '../use-case.fixture';

/** A pipeline the member's team builds, one of a team the member is not in, and one of another organization. */
export const PIPELINES = {
  teamed: { id: id(101), organizationId: ACME.id, slug: 'teamed' },
  hidden: { id: id(102), organizationId: ACME.id, slug: 'hidden' },
  elsewhere: { id: id(103), organizationId: OTHER.id, slug: 'elsewhere' },
} as const;
export type PipelineName = keyof typeof PIPELINES;
export const PIPELINE_NAMES = Object.keys(PIPELINES) as PipelineName[];

/** One build per pipeline (ids 1…, in {@link PIPELINE_NAMES}' order), one job in each (11…). */
export const BUILD_VIEWS: BuildView[] = PIPELINE_NAMES.map((name, index) => ({
  build: { id: id(index + 1), number: 1, pipelineId: PIPELINES[name].id } as Build,
  organizationSlug: PIPELINES[name].organizationId === ACME.id ? 'acme' : 'other',
  pipeline: { ...(PIPELINES[name] as unknown as Pipeline), counts: {} } as BuildView['pipeline'],
  creator: null,
  jobs: [
    { job: { id: id(index + 11) } as BuildView['jobs'][number]['job'], agent: null, retrySourceId: null },
  ],
  rebuiltFrom: null,
  triggeredFrom: null,
}));

/**
 * The in-memory ports that decide who sees these builds: the user a member of acme (in a team that has
 * `teamed` at `teamLevel`, not `hidden`) and an admin of other. Each read is pushed to `reads`.
 */
export function buildVisibilityRepos(reads: string[], teamLevel: AccessLevel) {
  const entries: PipelineAccessEntry[] = (['teamed', 'hidden'] as const).map((name) => ({
    pipelineId: PIPELINES[name].id,
    organizationId: ACME.id,
    teamAccessLevels: name === 'teamed' ? [teamLevel] : [],
    pipelineHasTeams: true,
  }));
  return {
    lookups: {
      builds: async ({ ids }: { ids: readonly string[] }) => {
        reads.push('builds');
        return BUILD_VIEWS.filter((view) => ids.includes(view.build.id));
      },
      buildPipelines: async (ids: readonly string[]) => {
        reads.push('build pipelines');
        return BUILD_VIEWS.filter((view) => ids.includes(view.build.id)).map((view) => ({
          buildId: view.build.id,
          number: view.build.number,
          pipelineId: view.pipeline.id,
          pipelineSlug: view.pipeline.slug,
          organizationId: view.pipeline.organizationId,
        }));
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
  };
}
