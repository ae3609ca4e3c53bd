import { notFound } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requirePipeline } from '../auth/authorize';
import type { BuildView, Deps } from '../ports';
import { asSeenWith, type BuildResult } from './build-result';
import type { PipelineRef } from './create-build';
import { answerRevision } from './pipeline-revision';

export interface BuildRef extends PipelineRef {
  /** null: the path held no build number; answers like a build that does not exist */
  number: number | null;
}

export const getBuild =
  (deps: Deps) =>
  async (
    actor: Actor,
    ref: BuildRef,
    options: { includeRetriedJobs?: boolean } = {},
  ): Promise<BuildResult & { revision: string | null }> => {
    const { number } = ref;
    // The build is read in the access's own statement, shown only once the rules allow it.
    let build: BuildView | null = null;
    const withBuild =
      number === null
        ? undefined
        : async (input: { userId: string; organizationSlug: string; pipelineSlug: string }) => {
            const read = await deps.repos.builds.findWithAccess({
              ...input,
              number,
              includeRetriedJobs: options.includeRetriedJobs ?? false,
            });
            build = read.build;
            return read.facts;
          };
    const target = await requirePipeline(deps)(actor, 'getBuild', ref, 'read', withBuild);
    if (!build) throw notFound('build');
    return { ...asSeenWith(target.access, build), revision: answerRevision(actor, target) };
  };
