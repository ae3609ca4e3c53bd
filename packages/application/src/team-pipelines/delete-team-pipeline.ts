import { notFound, teamPipelineLastTeam, teamPipelineMissingPipeline } from '@ci/domain';
import type { Actor } from '../auth/actor';
import type { Deps } from '../ports';
import { pipelineKey, requireChangeablePipeline, requireTeam, type TeamRef } from './team-access';

/**
 * Removes a team's access to a pipeline, at once for every member. `pipeline` comes from the path, or on
 * the literal `DELETE …/pipelines/` from `pipeline_id`: null when that named none.
 */
export const deleteTeamPipeline =
  (deps: Deps) =>
  async (actor: Actor, ref: TeamRef & { pipeline: string | null }): Promise<void> => {
    const target = await requireTeam(deps)(actor, 'deleteTeamPipeline', ref, 'manage');
    if (ref.pipeline === null || ref.pipeline.trim() === '') throw teamPipelineMissingPipeline();
    const pipelineId = pipelineKey(ref.pipeline);
    await requireChangeablePipeline(deps, actor, target, pipelineId, () => notFound('pipeline'));
    const outcome = await deps.repos.teamPipelines.deleteUnlessLast({ teamId: target.team.id, pipelineId });
    if (outcome === 'not_found') throw notFound('pipeline');
    if (outcome === 'last_team') throw teamPipelineLastTeam();
  };
