import {
  distinctUuids,
  forbidden,
  isUuid,
  notFound,
  type Operation,
  type Organization,
  type PipelineTemplate,
  parsePipelineTemplateFields,
  pipelineTemplateShownTo,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization, requireScope } from '../auth/authorize';
import { usableMemberships } from '../auth/usable-memberships';
import { type Page, pageWindow, type RowWindow } from '../page';
import { readPipelineDefinition } from '../pipelines/pipeline-definition';
import type { Deps, OrganizationAccess } from '../ports';
import type { PipelineTemplateOrder } from './pipeline-template-ports';

/**
 * Pipeline templates: an organization's admins create, change and delete them and see them all
 * (`write_pipeline_templates` / `read_pipeline_templates`); other members see the available ones. The
 * configuration is checked with the pipelines' own step parser.
 */

export interface PipelineTemplateView {
  template: PipelineTemplate;
  organization: Organization;
}

/** Whether the membership shows the template: admins every one, members the available ones. */
function shows(membership: OrganizationAccess | undefined, template: PipelineTemplate): boolean {
  return pipelineTemplateShownTo(membership?.role, template);
}

async function adminOf(deps: Deps, actor: Actor, operation: Operation, organizationId: string | null) {
  requireScope(actor, operation);
  const memberships = await usableMemberships(deps, actor);
  const membership = organizationId ? memberships.get(organizationId.toLowerCase()) : undefined;
  if (!membership) throw notFound('organization');
  if (membership.role !== 'admin') throw forbidden();
  return membership;
}

/** A template of the organization with this UUID, for an admin's change. */
async function administeredTemplate(
  deps: Deps,
  actor: Actor,
  operation: Operation,
  input: { organizationId: string | null; id: string | null },
) {
  const membership = await adminOf(deps, actor, operation, input.organizationId);
  const [template] =
    input.id && isUuid(input.id) ? await deps.repos.pipelineTemplates.byIds([input.id.toLowerCase()]) : [];
  if (!template || template.organizationId !== membership.organization.id)
    throw notFound('pipeline_template');
  return { template, membership };
}

function checkedConfiguration(deps: Deps, configuration: string): string {
  const read = readPipelineDefinition({ kind: 'configuration', source: configuration }, deps.newId);
  if (!read.ok) throw read.error;
  return configuration;
}

function checkedFields(input: Parameters<typeof parsePipelineTemplateFields>[0]) {
  const fields = parsePipelineTemplateFields(input);
  if (!fields.ok) throw fields.error;
  return fields.value;
}

export const createPipelineTemplate =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationId: string | null,
    input: { name: string; configuration: string; description?: string | null; available?: boolean | null },
  ): Promise<PipelineTemplateView> => {
    const { organization } = await adminOf(deps, actor, 'createPipelineTemplate', organizationId);
    const fields = checkedFields({ name: input.name, description: input.description ?? null });
    const now = deps.clock.now();
    const template: PipelineTemplate = {
      id: deps.newId(),
      organizationId: organization.id,
      name: fields.name as string,
      description: fields.description ?? null,
      configuration: checkedConfiguration(deps, input.configuration),
      available: input.available ?? false,
      creatorId: actor.user.id,
      updaterId: actor.user.id,
      createdAt: now,
      updatedAt: now,
    };
    await deps.repos.pipelineTemplates.insert(template);
    return { template, organization };
  };

export const updatePipelineTemplate =
  (deps: Deps) =>
  async (
    actor: Actor,
    input: {
      organizationId: string | null;
      id: string | null;
      name?: string | null;
      description?: string | null;
      configuration?: string | null;
      available?: boolean | null;
    },
  ): Promise<PipelineTemplateView> => {
    const { template, membership } = await administeredTemplate(deps, actor, 'updatePipelineTemplate', input);
    const fields = checkedFields({
      ...(input.name === undefined || input.name === null ? {} : { name: input.name }),
      ...(input.description === undefined ? {} : { description: input.description }),
      available: input.available,
    });
    const configuration =
      input.configuration === undefined || input.configuration === null
        ? undefined
        : checkedConfiguration(deps, input.configuration);
    const updated = await deps.repos.pipelineTemplates.update(template.id, {
      ...fields,
      ...(configuration === undefined ? {} : { configuration }),
      updaterId: actor.user.id,
      updatedAt: deps.clock.now(),
    });
    if (!updated) throw notFound('pipeline_template');
    return { template: updated, organization: membership.organization };
  };

export const deletePipelineTemplate =
  (deps: Deps) =>
  async (
    actor: Actor,
    input: { organizationId: string | null; id: string | null },
  ): Promise<{ id: string }> => {
    const { template } = await administeredTemplate(deps, actor, 'deletePipelineTemplate', input);
    if (!(await deps.repos.pipelineTemplates.delete(template.id))) throw notFound('pipeline_template');
    return { id: template.id };
  };

/** These templates in the order given; null for those the actor may not see. */
export const getPipelineTemplatesById =
  (deps: Deps) =>
  async (actor: Actor, ids: readonly string[]): Promise<Array<PipelineTemplateView | null>> => {
    requireScope(actor, 'getPipelineTemplate');
    const [templates, memberships] = await Promise.all([
      deps.repos.pipelineTemplates.byIds(distinctUuids(ids)),
      usableMemberships(deps, actor),
    ]);
    const visible = new Map<string, PipelineTemplateView>();
    for (const template of templates) {
      const membership = memberships.get(template.organizationId);
      if (membership && shows(membership, template)) {
        visible.set(template.id, { template, organization: membership.organization });
      }
    }
    return ids.map((id) => visible.get(id.toLowerCase()) ?? null);
  };

/** `pipelineTemplate(uuid:)`: one the actor may not see answers as one that does not exist. */
export const findPipelineTemplate =
  (deps: Deps) =>
  async (actor: Actor, uuid: string): Promise<PipelineTemplateView> => {
    const [found] = await getPipelineTemplatesById(deps)(actor, [uuid]);
    if (!found) throw notFound('pipeline_template');
    return found;
  };

export const listPipelineTemplates =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationSlug: string,
    order: PipelineTemplateOrder,
    page: Page | RowWindow,
  ): Promise<{ items: PipelineTemplateView[]; totalCount: number }> => {
    const membership = await requireOrganization(deps)(actor, 'getPipelineTemplate', organizationSlug);
    const scope = { organizationId: membership.organization.id, availableOnly: membership.role !== 'admin' };
    const [templates, totalCount] = await Promise.all([
      deps.repos.pipelineTemplates.list({ ...scope, order, ...pageWindow(page) }),
      deps.repos.pipelineTemplates.count(scope),
    ]);
    return {
      items: templates.map((template) => ({ template, organization: membership.organization })),
      totalCount,
    };
  };
