import { notFound, parseTeamPipelineChange } from '@ci/domain';
import type { Actor } from '../auth/actor';
import type { Deps } from '../ports';
import { requireTeam } from '../teams/team-access';
import {
  asResult,
  pipelineKey,
  requireChangeablePipeline,
  type TeamPipelineRef,
  type TeamPipelineResult,
} from './team-pipeline-access';

/**
 * Changes the access level; an unknown association answers 404 before the body is looked at. A
 * maintainer changes only associations of pipelines they may edit themselves.
 */
export const updateTeamPipeline =
  (deps: Deps) =>
  async (actor: Actor, ref: TeamPipelineRef, body: unknown): Promise<TeamPipelineResult> => {
    const target = await requireTeam(deps)(actor, 'updateTeamPipeline', ref, 'manage');
    const key = { teamId: target.team.id, pipelineId: pipelineKey(ref.pipeline) };
    if (!(await deps.repos.teamPipelines.find(key))) throw notFound('pipeline');
    await requireChangeablePipeline(deps, actor, target, key.pipelineId, () => notFound('pipeline'));
    const change = parseTeamPipelineChange(body);
    if (!change.ok) throw change.error;
    const updated = await deps.repos.teamPipelines.update({ ...key, accessLevel: change.value.accessLevel });
    if (!updated) throw notFound('pipeline');
    return asResult(target, updated);
  };
