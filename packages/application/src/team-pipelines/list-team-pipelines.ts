import type { Actor } from '../auth/actor';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { Deps } from '../ports';
import { requireTeam, type TeamRef } from '../teams/team-access';
import { asResult, type TeamPipelineResult, visiblePipelineIds } from './team-pipeline-access';

export interface TeamPipelinePage {
  teamPipelines: TeamPipelineResult[];
  /** every association the list covers, on all pages */
  totalCount: number;
}

/** A team's pipelines, oldest association first; a member sees only the pipelines they may see. */
export const listTeamPipelines =
  (deps: Deps) =>
  async (actor: Actor, ref: TeamRef, page: Page | RowWindow): Promise<TeamPipelinePage> => {
    const target = await requireTeam(deps)(actor, 'listTeamPipelines', ref, 'read');
    const scope = {
      teamId: target.team.id,
      visiblePipelineIds: await visiblePipelineIds(deps, actor, target),
    };
    // The page and the count are independent reads: side by side, not one after the other.
    const [views, totalCount] = await Promise.all([
      deps.repos.teamPipelines.list({
        ...scope,
        ...pageWindow(page),
      }),
      deps.repos.teamPipelines.count(scope),
    ]);
    return { teamPipelines: views.map((view) => asResult(target, view)), totalCount };
  };
