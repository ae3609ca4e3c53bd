import {
  type DefinedSteps,
  err,
  ok,
  type PipelineDefinition,
  parsePipelineFile,
  parseStepDefinitions,
  type Result,
  validationFailed,
} from '@ci/domain';
import { parse as parseYaml } from 'yaml';
import { stepPatterns } from './step-patterns';

/**
 * Reads a pipeline's steps with the domain's one step parser: a YAML `configuration` as a pipeline file
 * (JSON is YAML too), or the legacy `steps` list. Used by the API and by the operator commands alike.
 */
export function readPipelineDefinition(
  definition: PipelineDefinition,
  newStepId: () => string,
): Result<DefinedSteps> {
  if (definition.kind === 'steps') {
    const steps = parseStepDefinitions(definition.steps, newStepId, stepPatterns);
    return steps.ok ? ok({ steps: steps.value, configuration: null, env: null }) : steps;
  }
  let document: unknown;
  try {
    document = parseYaml(definition.source);
  } catch {
    return err(
      validationFailed([
        { field: 'configuration', code: 'invalid', message: 'configuration is not valid YAML' },
      ]),
    );
  }
  const file = parsePipelineFile(document, newStepId, stepPatterns);
  return file.ok ? ok({ ...file.value, configuration: definition.source }) : file;
}
