import type { OrganizationRole } from './access';
import { readDescription, readSluggedName } from './body-fields';
import { type DomainError, unprocessable } from './errors';
import { err, ok, type Result } from './result';

/**
 * A pipeline template: a named pipeline configuration (YAML) an organization's admins keep; `available`
 * ones are offered to every member, who may create pipelines from them (their steps are the template's).
 */
export interface PipelineTemplate {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  configuration: string;
  available: boolean;
  creatorId: string | null;
  updaterId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Who sees (and may create pipelines from) a template: every admin of its organization; other members
 * only the available ones. The one rule for reading templates and for using them.
 */
export function pipelineTemplateShownTo(
  role: OrganizationRole | null | undefined,
  template: Pick<PipelineTemplate, 'available'>,
): boolean {
  if (!role) return false;
  return role === 'admin' || template.available;
}

export const MAX_PIPELINE_TEMPLATE_NAME_LENGTH = 255;
export const MAX_PIPELINE_TEMPLATE_DESCRIPTION_LENGTH = 1000;

export interface PipelineTemplateFields {
  name?: string;
  description?: string | null;
  available?: boolean;
}

/** The name and description a create or update gives (undefined: not given), checked. */
export function parsePipelineTemplateFields(input: {
  name?: string | null | undefined;
  description?: string | null | undefined;
  available?: boolean | null | undefined;
}): Result<PipelineTemplateFields, DomainError> {
  const fields: PipelineTemplateFields = {};
  if (input.name !== undefined) {
    const name = readSluggedName(input.name, MAX_PIPELINE_TEMPLATE_NAME_LENGTH);
    if (!name.ok) return err(unprocessable('invalid_pipeline_template', name.error));
    fields.name = name.value;
  }
  if (input.description !== undefined) {
    const text = input.description?.trim() || null;
    const description = readDescription(text, MAX_PIPELINE_TEMPLATE_DESCRIPTION_LENGTH);
    if (!description.ok) return err(unprocessable('invalid_pipeline_template', description.error));
    fields.description = description.value;
  }
  if (input.available !== undefined && input.available !== null) fields.available = input.available;
  return ok(fields);
}
