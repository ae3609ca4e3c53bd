import { type AccessLevel, newProvider, type Pipeline, slugify, unprocessable } from '@ci/domain';
import { readPipelineDefinition } from '../pipelines/pipeline-definition';
import { newWebhookToken } from '../pipelines/webhook-token';
import type { Deps } from '../ports';
import { findOrganization } from './organizations';

/** What a pipeline runs until it is given steps: upload the pipeline file from the repository. */
const DEFAULT_CONFIGURATION = `steps:
  - label: ":pipeline:"
    command: "buildkite-agent pipeline upload"
`;

/** Steps arrive as the public pipeline file format (YAML; JSON is YAML too), read by the API's reader. */
function readSteps(source: string, newId: () => string) {
  const defined = readPipelineDefinition({ kind: 'configuration', source }, newId);
  if (defined.ok) return defined.value;
  const reasons = defined.error.details?.errors.map((error) => error.message) ?? [defined.error.message];
  throw unprocessable('invalid_steps', `Validation failed: ${reasons.join(', ')}`);
}

export const createPipeline =
  (deps: Deps) =>
  async (input: {
    organization: string;
    name: string;
    repository: string;
    steps?: string;
    branchConfiguration?: string | null;
    defaultBranch?: string | null;
  }): Promise<Pipeline> => {
    const organization = await findOrganization(deps)(input.organization);
    const name = input.name.trim();
    const slug = slugify(name);
    if (!slug) throw unprocessable('invalid_name', 'Validation failed: Name must contain a letter or digit');
    if (!input.repository.trim())
      throw unprocessable('invalid_repository', "Validation failed: Repository can't be blank");
    if (await deps.repos.pipelines.findBySlug(organization.id, slug)) {
      throw unprocessable('name_taken', 'Validation failed: Name has already been taken');
    }
    const defined = readSteps(input.steps ?? DEFAULT_CONFIGURATION, deps.newId);
    const pipeline: Pipeline = {
      id: deps.newId(),
      organizationId: organization.id,
      slug,
      name,
      description: null,
      repository: input.repository.trim(),
      defaultBranch: input.defaultBranch ?? 'main',
      branchConfiguration: input.branchConfiguration?.trim() || null,
      steps: defined.steps,
      provider: newProvider(input.repository.trim(), {}),
      webhookToken: newWebhookToken(),
      skipQueuedBranchBuilds: false,
      skipQueuedBranchBuildsFilter: null,
      cancelRunningBranchBuilds: false,
      cancelRunningBranchBuildsFilter: null,
      nextBuildNumber: 1,
      archivedAt: null,
      createdAt: deps.clock.now(),
      env: defined.env ?? {},
      visibility: 'private',
      tags: null,
      clusterId: null,
      allowRebuilds: true,
      color: null,
      emoji: null,
      defaultTimeoutInMinutes: null,
      maximumTimeoutInMinutes: null,
      configuration: defined.configuration,
      pipelineTemplateId: null,
      createdById: null,
    };
    await deps.repos.pipelines.insert(pipeline);
    return pipeline;
  };

export const addTeamPipeline =
  (deps: Deps) =>
  async (input: { organization: string; team: string; pipeline: string; accessLevel: AccessLevel }) => {
    const organization = await findOrganization(deps)(input.organization);
    const team = await deps.repos.teams.findBySlug(organization.id, input.team);
    if (!team) throw unprocessable('team_not_found', `No team found with slug ${input.team}`);
    const pipeline = await deps.repos.pipelines.findBySlug(organization.id, input.pipeline);
    if (!pipeline) throw unprocessable('pipeline_not_found', `No pipeline found with slug ${input.pipeline}`);
    const teamPipeline = {
      id: deps.newId(),
      teamId: team.id,
      pipelineId: pipeline.id,
      accessLevel: input.accessLevel,
      createdAt: deps.clock.now(),
    };
    await deps.repos.teamPipelines.put(teamPipeline);
    return { team, pipeline, teamPipeline };
  };
