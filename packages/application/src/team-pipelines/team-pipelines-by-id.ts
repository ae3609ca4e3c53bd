import { type AccessLevel, distinctUuids } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireScope } from '../auth/authorize';
import { memberPipelineAccess } from '../auth/member-pipeline-access';
import { usableById, usableMemberships } from '../auth/usable-memberships';
import type { Deps, OrganizationAccess } from '../ports';
import { type AuthorizedTeam, type TeamRef, teamIdsSeenAsMember } from '../teams/team-access';
import { createTeamPipeline } from './create-team-pipeline';
import { deleteTeamPipeline } from './delete-team-pipeline';
import { asResult, type TeamPipelineResult } from './team-pipeline-access';
import { updateTeamPipeline } from './update-team-pipeline';

/**
 * The team pipeline use cases for a transport that names teams, pipelines and associations by UUID
 * (GraphQL): the same rules as REST, whose use cases the changes call once they know the REST address
 * (organization slug, team UUID, pipeline UUID). Anything of an organization the actor may not use
 * answers as one that does not exist.
 */

/**
 * These associations, in the order given, null for the unknown and the invisible: `view_teams`, the
 * organization, and for a member only the pipelines the member may see (as the REST list and get).
 */
export const getTeamPipelinesById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<TeamPipelineResult | null>> => {
    requireScope(actor, 'getTeamPipeline');
    const wanted = distinctUuids(ids);
    const [views, memberships] = await Promise.all([
      deps.repos.lookups.teamPipelines(wanted),
      usableMemberships(deps, actor),
    ]);
    const inUsable = views.filter((view) => memberships.has(view.pipeline.organizationId));
    const involved = [...new Set(inUsable.map((view) => view.pipeline.organizationId))].map(
      (id) => memberships.get(id) as OrganizationAccess,
    );
    const [teams, memberAccess, seenTeams] = await Promise.all([
      deps.repos.lookups.teams([...new Set(inUsable.map((view) => view.teamPipeline.teamId))]),
      memberPipelineAccess(deps, actor.user.id, involved),
      teamIdsSeenAsMember(deps, actor.user.id, involved),
    ]);
    const teamsById = new Map(teams.map((team) => [team.id, team]));
    const visible = new Map<string, TeamPipelineResult>();
    for (const view of inUsable) {
      const membership = memberships.get(view.pipeline.organizationId) as OrganizationAccess;
      const team = teamsById.get(view.teamPipeline.teamId);
      if (!team) continue;
      // As over REST: a secret team the member is not in, or a pipeline they cannot see, does not exist.
      const sees =
        membership.role === 'admin' ||
        (seenTeams.has(team.id) && memberAccess.has(view.teamPipeline.pipelineId));
      if (sees) visible.set(view.teamPipeline.id, asResult({ ...membership, team }, view));
    }
    return ids.map((id) => visible.get(id.toLowerCase()) ?? null);
  };

/** The REST address of a team the actor's organizations hold; any other answers `No team found`. */
async function addressTeam(deps: Deps, actor: Actor, teamId: string | null): Promise<TeamRef> {
  const { found: team, membership } = await usableById(deps, actor, {
    id: teamId,
    read: (id) => deps.repos.lookups.teams([id]),
    organizationOf: (found) => found.organizationId,
    resource: 'team',
  });
  return { organization: membership.organization.slug, team: team.id };
}

/** The REST address of an association the actor's organizations hold; any other answers `No team pipeline found`. */
async function addressTeamPipeline(
  deps: Deps,
  actor: Actor,
  teamPipelineId: string | null,
): Promise<TeamRef & { pipeline: string }> {
  const { found: view, membership } = await usableById(deps, actor, {
    id: teamPipelineId,
    read: (id) => deps.repos.lookups.teamPipelines([id]),
    organizationOf: (found) => found.pipeline.organizationId,
    resource: 'team_pipeline',
  });
  return {
    organization: membership.organization.slug,
    team: view.teamPipeline.teamId,
    pipeline: view.teamPipeline.pipelineId,
  };
}

/**
 * Gives the team with this UUID a pipeline, as the REST create does: `pipelineId` is the pipeline's UUID,
 * or whatever the client sent when that named no pipeline (the REST body's `pipeline_id` rules judge it).
 */
export const createTeamPipelineByIds =
  (deps: Deps) =>
  async (
    actor: Actor,
    input: { teamId: string | null; pipelineId: string | null; accessLevel: AccessLevel },
  ): Promise<TeamPipelineResult> => {
    requireScope(actor, 'createTeamPipeline');
    const ref = await addressTeam(deps, actor, input.teamId);
    return createTeamPipeline(deps)(actor, ref, {
      pipeline_id: input.pipelineId,
      access_level: input.accessLevel,
    });
  };

/** Changes the access level of the association with this UUID, as the REST update does. */
export const updateTeamPipelineById =
  (deps: Deps) =>
  async (
    actor: Actor,
    teamPipelineId: string | null,
    accessLevel: AccessLevel,
  ): Promise<TeamPipelineResult> => {
    requireScope(actor, 'updateTeamPipeline');
    const ref = await addressTeamPipeline(deps, actor, teamPipelineId);
    return updateTeamPipeline(deps)(actor, ref, { access_level: accessLevel });
  };

/**
 * Removes the association with this UUID, as the REST delete does; `force` removes a pipeline's last
 * team too. Returns the team it was removed from.
 */
export const deleteTeamPipelineById =
  (deps: Deps) =>
  async (
    actor: Actor,
    teamPipelineId: string | null,
    options: { force?: boolean } = {},
  ): Promise<AuthorizedTeam> => {
    requireScope(actor, 'deleteTeamPipeline');
    const ref = await addressTeamPipeline(deps, actor, teamPipelineId);
    return deleteTeamPipeline(deps)(actor, ref, options);
  };
