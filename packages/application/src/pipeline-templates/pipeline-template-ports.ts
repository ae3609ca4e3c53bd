import type { PipelineTemplate } from '@ci/domain';

export type PipelineTemplateOrder = 'name' | 'recently_created';

export interface PipelineTemplateListScope {
  organizationId: string;
  /** only the available ones (what a member who is not an admin sees) */
  availableOnly: boolean;
}

export interface PipelineTemplateChanges {
  name?: string;
  description?: string | null;
  configuration?: string;
  available?: boolean;
  updaterId: string;
  updatedAt: Date;
}

export interface PipelineTemplateRepository {
  insert(template: PipelineTemplate): Promise<void>;
  byIds(ids: readonly string[]): Promise<PipelineTemplate[]>;
  list(
    input: PipelineTemplateListScope & { order: PipelineTemplateOrder; offset: number; limit: number },
  ): Promise<PipelineTemplate[]>;
  count(scope: PipelineTemplateListScope): Promise<number>;
  /** The template as changed, or null when it no longer exists. */
  update(id: string, changes: PipelineTemplateChanges): Promise<PipelineTemplate | null>;
  delete(id: string): Promise<boolean>;
}
