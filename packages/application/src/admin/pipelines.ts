import { randomBytes } from 'node:crypto';
import {
  type AccessLevel,
  defaultSteps,
  type Pipeline,
  parseStepDefinitions,
  type StepDefinition,
  slugify,
  unprocessable,
} from '@ci/domain';
import { parse as parseYaml } from 'yaml';
import type { Deps } from '../ports';
import { findOrganization } from './organizations';

/** Steps arrive as the public pipeline file format: YAML (JSON is YAML too). */
export function readStepDefinitions(source: string, newId: () => string): StepDefinition[] {
  let document: unknown;
  try {
    document = parseYaml(source);
  } catch {
    throw unprocessable('invalid_steps', 'Validation failed: Steps are not valid YAML');
  }
  const steps = parseStepDefinitions(document, newId);
  if (!steps.ok) throw steps.error;
  return steps.value;
}

const GITHUB = /github\.com[:/]([^/]+\/[^/]+?)(\.git)?$/;

function providerFor(repository: string): Pipeline['provider'] {
  const github = repository.match(GITHUB);
  return github
    ? { id: 'github', settings: { repository: github[1] } }
    : { id: 'git', settings: { repository } };
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
    const steps = input.steps ? readStepDefinitions(input.steps, deps.newId) : defaultSteps(deps.newId);
    const pipeline: Pipeline = {
      id: deps.newId(),
      organizationId: organization.id,
      slug,
      name,
      description: null,
      repository: input.repository.trim(),
      defaultBranch: input.defaultBranch ?? 'main',
      branchConfiguration: input.branchConfiguration?.trim() || null,
      steps,
      provider: providerFor(input.repository.trim()),
      webhookToken: randomBytes(25).toString('hex'),
      skipQueuedBranchBuilds: false,
      skipQueuedBranchBuildsFilter: null,
      cancelRunningBranchBuilds: false,
      cancelRunningBranchBuildsFilter: null,
      nextBuildNumber: 1,
      archivedAt: null,
      createdAt: deps.clock.now(),
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
