import { type DomainError, distinctUuids, notFound } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireScope } from '../auth/authorize';
import { memberPipelineAccess } from '../auth/member-pipeline-access';
import { adminOrganizationIds, usableMemberships } from '../auth/usable-memberships';
import { type ListPart, type PartRequest, readParts } from '../page';
import { visiblePipelinesById } from '../pipelines/pipelines-by-id';
import type { AssociationOrder, Deps, OrganizationAccess, VisibleAcrossOrganizations } from '../ports';
import { teamIdsSeenAsMember } from '../teams/team-access';
import { visibleTeams } from '../teams/teams-by-id';
import { asResult, type TeamPipelineResult } from './team-pipeline-access';

/**
 * The associations of several teams, or of several pipelines, at once (GraphQL's `Team.pipelines` and
 * `Pipeline.teams` on a page of teams or pipelines), oldest first as the REST list, with REST's rules:
 * `view_teams`; a member sees only the pipelines the domain's access rule lets them see and only the
 * teams they may see (a secret team exists only for admins and its members).
 */

/** The pipelines of each team the actor may see; another team is refused with `No team found`. */
export const listTeamPipelinesOfTeams =
  (deps: Deps) =>
  async (actor: Actor, requests: readonly PartRequest[]): Promise<Array<ListPart<TeamPipelineResult>>> => {
    requireScope(actor, 'listTeamPipelines');
    const memberships = await usableMemberships(deps, actor);
    const teams = await visibleTeams(
      deps,
      actor,
      await deps.repos.lookups.teams(distinctUuids(requests.map((request) => request.parentId))),
      memberships,
    );
    const refusals = new Map<string, DomainError>(
      requests
        .filter(({ parentId }) => !teams.has(parentId))
        .map(({ parentId }) => [parentId, notFound('team')]),
    );
    const involved = [
      ...new Map([...teams.values()].map(({ membership: m }) => [m.organization.id, m])).values(),
    ];
    const memberAccess = await memberPipelineAccess(deps, actor.user.id, involved);
    const visible: VisibleAcrossOrganizations = {
      adminOrganizationIds: adminOrganizationIds(involved),
      visibleIds: [...memberAccess.keys()],
    };
    return readParts({
      requests,
      refusals,
      list: async (windows) =>
        (await deps.repos.teamPipelines.listOfTeams({ windows, visible })).map((view) => {
          const { team, membership } = teams.get(view.teamPipeline.teamId) as {
            team: TeamPipelineResult['team'];
            membership: OrganizationAccess;
          };
          return asResult({ organization: membership.organization, team }, view);
        }),
      count: (teamIds) => deps.repos.teamPipelines.countOfTeams({ teamIds, visible }),
      parentOf: (result) => result.teamPipeline.teamId,
    });
  };

/** The teams of each pipeline the actor may see; another pipeline is refused with `No pipeline found`. */
export const listTeamPipelinesOfPipelines =
  (deps: Deps) =>
  async (
    actor: Actor,
    requests: readonly PartRequest[],
    options: { order?: AssociationOrder; search?: string } = {},
  ): Promise<Array<ListPart<TeamPipelineResult>>> => {
    requireScope(actor, 'listTeamPipelines');
    const search = options.search ? { search: options.search } : {};
    const seen = await visiblePipelinesById(
      deps,
      actor,
      requests.map((request) => request.parentId),
    );
    const refusals = new Map<string, DomainError>(
      requests
        .filter(({ parentId }) => !seen.has(parentId))
        .map(({ parentId }) => [parentId, notFound('pipeline')]),
    );
    const memberships = new Map(
      [...seen.values()].map(({ membership }) => [membership.organization.id, membership]),
    );
    const involved = [...memberships.values()];
    const visible: VisibleAcrossOrganizations = {
      adminOrganizationIds: adminOrganizationIds(involved),
      // Where the actor is a member, the teams they may see.
      visibleIds: [...(await teamIdsSeenAsMember(deps, actor.user.id, involved))],
    };
    return readParts({
      requests,
      refusals,
      list: async (windows) => {
        const views = await deps.repos.teamPipelines.listOfPipelines({
          windows,
          visible,
          ...(options.order ? { order: options.order } : {}),
          ...search,
        });
        const teams = new Map(
          (await deps.repos.lookups.teams([...new Set(views.map((view) => view.teamPipeline.teamId))])).map(
            (team) => [team.id, team],
          ),
        );
        const items: TeamPipelineResult[] = [];
        for (const view of views) {
          const team = teams.get(view.teamPipeline.teamId);
          const membership = memberships.get(view.pipeline.organizationId);
          // A team deleted between the two reads is left out, as if the list had been read after.
          if (team && membership) items.push(asResult({ organization: membership.organization, team }, view));
        }
        return items;
      },
      count: (pipelineIds) => deps.repos.teamPipelines.countOfPipelines({ pipelineIds, visible, ...search }),
      parentOf: (result) => result.teamPipeline.pipelineId,
    });
  };
