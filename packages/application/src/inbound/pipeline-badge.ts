import { type BadgeStatus, badgeStatus, isUuid, notFound } from '@ci/domain';
import { authenticate } from '../auth/authenticate';
import { requirePipeline } from '../auth/authorize';
import type { Deps } from '../ports';

/** A badge request: the pipeline's UUID from its `badge_url`, the branch asked for, and any API token. */
export interface BadgeRequest {
  pipelineId: string;
  /** null: the pipeline's default branch */
  branch: string | null;
  authorization: string | undefined;
  clientAddress: string | null;
}

/**
 * The status of the branch's latest build. A public pipeline's badge is anyone's; a private one's needs
 * an API token that may read its builds, and answers `No pipeline found` to everyone else, as REST does.
 */
export const getPipelineBadge =
  (deps: Deps) =>
  async (request: BadgeRequest): Promise<{ status: BadgeStatus; buildId: string | null }> => {
    const found = isUuid(request.pipelineId)
      ? await deps.repos.badges.findPipeline(request.pipelineId.toLowerCase())
      : null;
    if (!found) throw notFound('pipeline');
    if (found.pipeline.visibility !== 'public') {
      if (request.authorization === undefined) throw notFound('pipeline');
      const actor = await authenticate(deps)(request.authorization, request.clientAddress);
      await requirePipeline(deps)(
        actor,
        'getPipelineBadge',
        { organization: found.organizationSlug, pipeline: found.pipeline.slug },
        'read',
      );
    }
    const branch = request.branch ?? found.pipeline.defaultBranch ?? 'main';
    const latest = await deps.repos.badges.latestBuild(found.pipeline.id, branch);
    return { status: badgeStatus(latest), buildId: latest?.id ?? null };
  };
