import { matchesBranchFilter } from './branch-filter';
import type { Pipeline } from './entities';
import { type DomainError, unprocessable } from './errors';

/** An archived pipeline takes no new builds, whether created or rebuilt. */
function archivedRefusal(pipeline: Pick<Pipeline, 'archivedAt'>): DomainError | null {
  return pipeline.archivedAt
    ? unprocessable('pipeline_archived', 'Builds cannot be created for an archived pipeline')
    : null;
}

/**
 * Why the pipeline takes no new build of this branch (null: it takes it): archived, or a branch outside
 * its branch filter unless the request says to ignore the filter.
 */
export function newBuildRefusal(
  pipeline: Pick<Pipeline, 'archivedAt' | 'branchConfiguration'>,
  request: { branch: string; ignorePipelineBranchFilters: boolean },
): DomainError | null {
  const archived = archivedRefusal(pipeline);
  if (archived) return archived;
  if (
    request.ignorePipelineBranchFilters ||
    matchesBranchFilter(pipeline.branchConfiguration, request.branch)
  ) {
    return null;
  }
  return unprocessable(
    'branch_filtered',
    `Branch "${request.branch}" does not match the pipeline's branch filter "${pipeline.branchConfiguration}"`,
  );
}

/**
 * Why the pipeline takes no rebuild (null: it takes it): archived, or rebuilds turned off. The branch
 * filter is not asked again: the original passed it (or was told to ignore it) when it was created.
 */
export function rebuildRefusal(pipeline: Pick<Pipeline, 'archivedAt' | 'allowRebuilds'>): DomainError | null {
  const archived = archivedRefusal(pipeline);
  if (archived) return archived;
  return pipeline.allowRebuilds
    ? null
    : unprocessable('rebuilds_disabled', 'Rebuilds are disabled for this pipeline (allow_rebuilds is false)');
}
