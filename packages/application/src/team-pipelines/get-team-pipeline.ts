import { notFound } from '@ci/domain';
import type { Actor } from '../auth/actor';
import type { Deps } from '../ports';
import { requireTeam } from '../teams/team-access';
import {
  asResult,
  pipelineKey,
  type TeamPipelineRef,
  type TeamPipelineResult,
  visiblePipelineIds,
} from './team-pipeline-access';

export const getTeamPipeline =
  (deps: Deps) =>
  async (actor: Actor, ref: TeamPipelineRef): Promise<TeamPipelineResult> => {
    const target = await requireTeam(deps)(actor, 'getTeamPipeline', ref, 'read');
    const pipelineId = pipelineKey(ref.pipeline);
    const [view, visible] = await Promise.all([
      deps.repos.teamPipelines.find({ teamId: target.team.id, pipelineId }),
      visiblePipelineIds(deps, actor, target),
    ]);
    if (!view || (visible && !visible.includes(pipelineId))) throw notFound('pipeline');
    return asResult(target, view);
  };
