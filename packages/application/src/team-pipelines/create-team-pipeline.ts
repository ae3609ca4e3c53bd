import {
  notFound,
  parseNewTeamPipeline,
  type TeamPipeline,
  teamPipelineTaken,
  teamPipelineUnknownPipeline,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import type { Deps } from '../ports';
import { requireTeam, type TeamRef } from '../teams/team-access';
import { asResult, requireChangeablePipeline, type TeamPipelineResult } from './team-pipeline-access';

/**
 * Gives a team a pipeline of its organization; it takes effect on the next request of every member.
 * Admins may give any pipeline, a maintainer only one they may edit themselves.
 */
export const createTeamPipeline =
  (deps: Deps) =>
  async (actor: Actor, ref: TeamRef, body: unknown): Promise<TeamPipelineResult> => {
    const target = await requireTeam(deps)(actor, 'createTeamPipeline', ref, 'manage');
    const request = parseNewTeamPipeline(body);
    if (!request.ok) throw request.error;
    const pipeline = await deps.repos.pipelines.findById(target.organization.id, request.value.pipelineId);
    if (!pipeline) throw teamPipelineUnknownPipeline();
    // A maintainer who cannot see the pipeline is told what an unknown one answers.
    await requireChangeablePipeline(deps, actor, target, pipeline.id, teamPipelineUnknownPipeline);
    const teamPipeline: TeamPipeline = {
      id: deps.newId(),
      teamId: target.team.id,
      pipelineId: pipeline.id,
      accessLevel: request.value.accessLevel,
      createdAt: deps.clock.now(),
    };
    // The key (team, pipeline) decides, not a look-up before the insert: concurrent adds get one winner.
    const outcome = await deps.repos.teamPipelines.insert(teamPipeline);
    if (outcome === 'taken') throw teamPipelineTaken();
    if (outcome === 'team_not_found') throw notFound('team');
    if (outcome === 'pipeline_not_found') throw teamPipelineUnknownPipeline();
    return asResult(target, { teamPipeline, pipelineSlug: pipeline.slug, pipeline });
  };
