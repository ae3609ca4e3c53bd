import type { PipelineTemplate } from '@ci/domain';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationEntity, UserEntity } from './organization.entity';
import { referencesIndex } from './references-index';

/** A pipeline template: a named configuration an organization's admins keep. */
export const PipelineTemplateEntity = defineEntity({
  name: 'PipelineTemplate',
  tableName: 'pipeline_templates',
  indexes: [
    {
      name: 'pipeline_templates_organization_name_idx',
      expression:
        'create index "pipeline_templates_organization_name_idx" on "pipeline_templates" ("organization_id", "name", "id")',
    },
    referencesIndex('pipeline_templates', 'creator_id'),
    referencesIndex('pipeline_templates', 'updater_id'),
  ],
  properties: {
    id: p.uuid().primary(),
    organization: () => p.manyToOne(OrganizationEntity).deleteRule('cascade'),
    name: p.string().length(255),
    description: p.text().nullable(),
    configuration: p.text(),
    available: p.boolean().default(false),
    creator: () => p.manyToOne(UserEntity).nullable().deleteRule('set null'),
    updater: () => p.manyToOne(UserEntity).nullable().deleteRule('set null'),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export function toPipelineTemplate(template: InferEntity<typeof PipelineTemplateEntity>): PipelineTemplate {
  return {
    id: template.id,
    organizationId: template.organization.id,
    name: template.name,
    description: template.description ?? null,
    configuration: template.configuration,
    available: template.available,
    creatorId: template.creator?.id ?? null,
    updaterId: template.updater?.id ?? null,
    createdAt: template.createdAt,
    updatedAt: template.updatedAt,
  };
}
