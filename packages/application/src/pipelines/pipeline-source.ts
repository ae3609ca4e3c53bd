import {
  type DefinedSteps,
  type OrganizationRole,
  type PipelineDefinition,
  type PipelineSource,
  pipelineTemplateShownTo,
  pipelineTemplateUnknown,
} from '@ci/domain';
import type { Deps } from '../ports';
import { readPipelineDefinition } from './pipeline-definition';

/**
 * The steps a create or update body gives: its own definition, or the configuration of the pipeline
 * template it names, which must be a template of the organization the caller may see (admins every one,
 * members the available ones: the templates' one rule). Any other template is 422 on
 * `pipeline_template_uuid`, as one that does not exist.
 */
export async function readPipelineSource(
  deps: Deps,
  scope: { organizationId: string; role: OrganizationRole | null },
  source: PipelineSource,
): Promise<DefinedSteps> {
  let definition: PipelineDefinition;
  if (source.kind !== 'template') definition = source;
  else {
    const [template] = await deps.repos.pipelineTemplates.byIds([source.templateId]);
    if (
      !template ||
      template.organizationId !== scope.organizationId ||
      !pipelineTemplateShownTo(scope.role, template)
    ) {
      throw pipelineTemplateUnknown();
    }
    definition = { kind: 'configuration', source: template.configuration };
  }
  const defined = readPipelineDefinition(definition, deps.newId);
  if (!defined.ok) throw defined.error;
  return defined.value;
}
