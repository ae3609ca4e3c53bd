import { notFound, teamPipelineLastTeam, teamPipelineMissingPipeline } from '@ci/domain';
import type { Actor } from '../auth/actor';
import type { Deps } from '../ports';
import { type AuthorizedTeam, requireTeam, type TeamRef } from '../teams/team-access';
import { pipelineKey, requireChangeablePipeline } from './team-pipeline-access';

/**
 * Removes a team's access to a pipeline, at once for every member. `pipeline` comes from the path, or on
 * the literal `DELETE …/pipelines/` from `pipeline_id`: null when that named none. A pipeline keeps its
 * last team unless `force` (GraphQL's `teamPipelineDelete(force: true)`, as decisions.md allows).
 * Returns the team it was removed from.
 */
export const deleteTeamPipeline =
  (deps: Deps) =>
  async (
    actor: Actor,
    ref: TeamRef & { pipeline: string | null },
    options: { force?: boolean } = {},
  ): Promise<AuthorizedTeam> => {
    const target = await requireTeam(deps)(actor, 'deleteTeamPipeline', ref, 'manage');
    if (ref.pipeline === null || ref.pipeline.trim() === '') throw teamPipelineMissingPipeline();
    const pipelineId = pipelineKey(ref.pipeline);
    await requireChangeablePipeline(deps, actor, target, pipelineId, () => notFound('pipeline'));
    const outcome = await deps.repos.teamPipelines.deleteUnlessLast({
      teamId: target.team.id,
      pipelineId,
      allowLast: options.force === true,
    });
    if (outcome === 'not_found') throw notFound('pipeline');
    if (outcome === 'last_team') throw teamPipelineLastTeam();
    return target;
  };
