import {
  canCreatePipelineForTeam,
  forbidden,
  newProvider,
  type Pipeline,
  parseNewPipelineRequest,
  pipelineAccess,
  pipelineEnv,
  pipelineNameTaken,
  pipelineTeamUnknown,
  pipelineTemplateUnknown,
  type TeamPipeline,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization } from '../auth/authorize';
import { requirePipelineCluster } from '../clusters/cluster-access';
import type { Deps } from '../ports';
import { loadPipeline, type PipelineResult } from './pipeline-result';
import { readPipelineSource } from './pipeline-source';
import { newWebhookToken } from './webhook-token';

/**
 * Creates a pipeline with its team associations, in one transaction. Admins may create any pipeline;
 * a member only one given to teams they may create pipelines for (maintainer, or member of a team
 * that lets members: the public API's "only administrators can create pipelines without providing team
 * UUIDs" and its team setting `members_can_create_pipelines`), else 403 `Forbidden`. The organization's unique slug key decides taken
 * names, so concurrent creates of one name make one pipeline.
 */
export const createPipeline =
  (deps: Deps) =>
  async (actor: Actor, organizationSlug: string, body: unknown): Promise<PipelineResult> => {
    const { organization, role } = await requireOrganization(deps)(actor, 'createPipeline', organizationSlug);
    const request = parseNewPipelineRequest(body);
    if (!request.ok) throw request.error;
    const defined = await readPipelineSource(
      deps,
      { organizationId: organization.id, role },
      request.value.definition,
    );
    const { teams: grants, providerSettings, definition: _definition, env, ...fields } = request.value;

    if (role !== 'admin' && grants.length === 0) throw forbidden();
    const teams = await deps.repos.pipelines.teamsIn({
      organizationId: organization.id,
      teamIds: grants.map((grant) => grant.teamId),
      userId: actor.user.id,
    });
    const unknown = grants.find((grant) => !teams.some((team) => team.teamId === grant.teamId));
    if (unknown) throw pipelineTeamUnknown(unknown);
    const mayCreateFor = (team: (typeof teams)[number]) =>
      canCreatePipelineForTeam({ role, teamRole: team.viewerRole }, team);
    if (!teams.every(mayCreateFor)) throw forbidden();
    await requirePipelineCluster(deps, organization.id, fields.clusterId);

    const now = deps.clock.now();
    const pipeline: Pipeline = {
      ...fields,
      id: deps.newId(),
      organizationId: organization.id,
      steps: defined.steps,
      configuration: defined.configuration,
      env: pipelineEnv(defined, env),
      provider: newProvider(fields.repository, providerSettings),
      webhookToken: newWebhookToken(),
      nextBuildNumber: 1,
      archivedAt: null,
      createdAt: now,
      createdById: actor.user.id,
    };
    const teamPipelines: TeamPipeline[] = grants.map((grant) => ({
      id: deps.newId(),
      teamId: grant.teamId,
      pipelineId: pipeline.id,
      accessLevel: grant.accessLevel,
      createdAt: now,
    }));
    const created = await deps.repos.pipelines.create({ pipeline, teams: teamPipelines });
    if (created === 'slug_taken') throw pipelineNameTaken();
    if (created === 'template_not_found') throw pipelineTemplateUnknown();
    if (created === 'team_not_found') {
      // A named team was deleted between the look-up and the insert: name the one that is gone.
      const left = await deps.repos.pipelines.teamsIn({
        organizationId: organization.id,
        teamIds: grants.map((grant) => grant.teamId),
        userId: actor.user.id,
      });
      throw pipelineTeamUnknown(
        grants.find((grant) => !left.some((team) => team.teamId === grant.teamId)) ?? grants[0]!,
      );
    }

    const access = pipelineAccess({
      role,
      teamAccessLevels: grants.map((grant) => grant.accessLevel),
      pipelineHasTeams: grants.length > 0,
    });
    return loadPipeline(deps)({ pipelineId: pipeline.id, access, organizationSlug: organization.slug });
  };
