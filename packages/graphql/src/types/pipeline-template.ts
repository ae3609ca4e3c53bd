import type { PipelineTemplateView } from '@ci/application';
import { builder, type GraphqlContext } from '../builder';
import { OrganizationRef } from './organization';
import { ConnectionInterface } from './scalars';
import { UserRef } from './user';

export const PipelineTemplateRef = builder.objectRef<PipelineTemplateView>('PipelineTemplate');

const PipelineTemplateOrder = builder.enumType('PipelineTemplateOrder', {
  values: { NAME: { value: 'name' }, RECENTLY_CREATED: { value: 'recently_created' } } as const,
});

/** The creator or last editor: always a user here (templates are made through the API). */
async function person(id: string | null, ctx: GraphqlContext) {
  const user = id ? await ctx.loaders.people.load(id) : null;
  if (!user) throw new Error('a pipeline template’s creator or editor is no longer a user');
  return user;
}

builder.node(PipelineTemplateRef, {
  description: 'A pipeline template: a pipeline configuration kept for pipelines to start from',
  id: { resolve: ({ template }) => template.id },
  fields: (t) => ({
    uuid: t.id({ nullable: false, resolve: ({ template }) => template.id }),
    name: t.string({ nullable: false, resolve: ({ template }) => template.name }),
    description: t.string({ nullable: true, resolve: ({ template }) => template.description }),
    configuration: t.field({
      type: 'YAML',
      nullable: false,
      resolve: ({ template }) => template.configuration,
    }),
    available: t.boolean({
      nullable: false,
      description: 'Whether every member sees it (others are for admins only)',
      resolve: ({ template }) => template.available,
    }),
    createdAt: t.field({ type: 'DateTime', nullable: false, resolve: ({ template }) => template.createdAt }),
    updatedAt: t.field({ type: 'DateTime', nullable: false, resolve: ({ template }) => template.updatedAt }),
    createdBy: t.field({
      type: UserRef,
      nullable: false,
      resolve: ({ template }, _args, ctx) => person(template.creatorId, ctx),
    }),
    updatedBy: t.field({
      type: UserRef,
      nullable: false,
      resolve: ({ template }, _args, ctx) => person(template.updaterId, ctx),
    }),
  }),
});

const PipelineTemplateConnection = builder.connectionObject(
  { type: PipelineTemplateRef, name: 'PipelineTemplateConnection', interfaces: [ConnectionInterface] },
  { name: 'PipelineTemplateEdge' },
);

builder.objectField(OrganizationRef, 'pipelineTemplates', (t) =>
  t.connection(
    {
      type: PipelineTemplateRef,
      nullable: true,
      description:
        "The organization's pipeline templates (`read_pipeline_templates`): admins see all, members the available ones",
      args: { order: t.arg({ type: PipelineTemplateOrder, required: false, defaultValue: 'name' }) },
      resolve: (organization, args, ctx) =>
        ctx.loaders.list({
          field: 'Organization.pipelineTemplates',
          parentId: organization.id,
          args,
          read: (window) =>
            ctx.useCases.listPipelineTemplates(ctx.actor, organization.slug, args.order ?? 'name', window),
        }),
    },
    PipelineTemplateConnection,
  ),
);
