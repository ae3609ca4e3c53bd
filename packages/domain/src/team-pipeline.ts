import { type AccessLevel, isAccessLevel } from './access';
import { readUuidField, reasonsOf } from './body-fields';
import { type DomainError, unprocessable } from './errors';
import { isJsonObject } from './json-object';
import { err, ok, type Result } from './result';

/** A validated create-team-pipeline body. */
export interface NewTeamPipeline {
  /** lowercase UUID; whether such a pipeline exists in the organization is the caller's question */
  pipelineId: string;
  accessLevel: AccessLevel;
}

/** A validated update-team-pipeline body: only the access level changes. */
export interface TeamPipelineChange {
  accessLevel: AccessLevel;
}

/**
 * Reads a create body `{pipeline_id, access_level}`. Every reason is reported at once, in the Rails form
 * the public API uses (`Validation failed: Pipeline can't be blank, Access level can't be blank`);
 * unknown fields are ignored.
 */
export function parseNewTeamPipeline(body: unknown): Result<NewTeamPipeline> {
  const input = isJsonObject(body) ? body : {};
  const pipelineId = readUuidField(input.pipeline_id, 'Pipeline');
  const accessLevel = readAccessLevel(input.access_level);
  if (!pipelineId.ok || !accessLevel.ok) return err(invalidTeamPipeline(reasonsOf(pipelineId, accessLevel)));
  return ok({ pipelineId: pipelineId.value, accessLevel: accessLevel.value });
}

/** Reads an update body `{access_level}`; a `pipeline_id` in it is ignored (the path names the pipeline). */
export function parseTeamPipelineChange(body: unknown): Result<TeamPipelineChange> {
  const input = isJsonObject(body) ? body : {};
  const accessLevel = readAccessLevel(input.access_level);
  if (!accessLevel.ok) return err(invalidTeamPipeline([accessLevel.error]));
  return ok({ accessLevel: accessLevel.value });
}

/**
 * A well-formed `pipeline_id` naming no pipeline of the organization. A pipeline of another organization
 * answers the same, so the answer reveals nothing about other organizations.
 */
export function teamPipelineUnknownPipeline(): DomainError {
  return invalidTeamPipeline(['Pipeline must exist']);
}

/** The literal `DELETE …/pipelines/` names no pipeline, neither in its body nor in its query. */
export function teamPipelineMissingPipeline(): DomainError {
  return invalidTeamPipeline(["Pipeline can't be blank"]);
}

/** The team already has the pipeline (the association's key is team + pipeline). */
export function teamPipelineTaken(): DomainError {
  return invalidTeamPipeline(['Pipeline has already been taken']);
}

/** decisions.md: a pipeline keeps at least one team; removing its last association is refused. */
export function teamPipelineLastTeam(): DomainError {
  return unprocessable('last_team', 'The pipeline must belong to at least one team');
}

function readAccessLevel(value: unknown): Result<AccessLevel, string> {
  if (value === undefined || value === null || value === '') return err("Access level can't be blank");
  if (typeof value !== 'string' || !isAccessLevel(value)) {
    return err('Access level is not included in the list');
  }
  return ok(value);
}

function invalidTeamPipeline(reasons: readonly string[]): DomainError {
  return unprocessable('invalid_team_pipeline', `Validation failed: ${reasons.join(', ')}`);
}
