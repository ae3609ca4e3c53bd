import { encodeGraphqlId } from '@ci/domain';
import { uuidOf } from '../global-id';
import { PipelineTemplateRef } from '../types/pipeline-template';
import { publicMutation } from './client-mutation-id';

/** Pipeline template create, update and delete, for organization admins (`write_pipeline_templates`). */

publicMutation('pipelineTemplateCreate', {
  description: 'Create a pipeline template.',
  inputFields: (t) => ({
    organizationId: t.id({ required: true }),
    name: t.string({ required: true }),
    description: t.string(),
    configuration: t.string({ required: true, description: 'The pipeline configuration (YAML)' }),
    available: t.boolean({ defaultValue: false }),
  }),
  resolve: async (input, ctx) => ({
    pipelineTemplate: await ctx.useCases.byId.createPipelineTemplate(
      ctx.actor,
      uuidOf(input.organizationId, 'Organization'),
      {
        name: input.name,
        configuration: input.configuration,
        description: input.description,
        available: input.available,
      },
    ),
  }),
  payloadFields: (t) => ({
    pipelineTemplate: t.expose('pipelineTemplate', { type: PipelineTemplateRef, nullable: false }),
  }),
});

publicMutation('pipelineTemplateUpdate', {
  description: 'Change a pipeline template: what is given.',
  inputFields: (t) => ({
    organizationId: t.id({ required: true }),
    id: t.id({ required: true }),
    name: t.string(),
    description: t.string(),
    configuration: t.string(),
    available: t.boolean(),
  }),
  resolve: async (input, ctx) => ({
    pipelineTemplate: await ctx.useCases.byId.updatePipelineTemplate(ctx.actor, {
      organizationId: uuidOf(input.organizationId, 'Organization'),
      id: uuidOf(input.id, 'PipelineTemplate'),
      name: input.name,
      ...(input.description === undefined ? {} : { description: input.description }),
      configuration: input.configuration,
      available: input.available,
    }),
  }),
  payloadFields: (t) => ({
    pipelineTemplate: t.expose('pipelineTemplate', { type: PipelineTemplateRef, nullable: false }),
  }),
});

publicMutation('pipelineTemplateDelete', {
  description: 'Delete a pipeline template.',
  inputFields: (t) => ({
    organizationId: t.id({ required: true }),
    id: t.id({ required: true }),
  }),
  resolve: async (input, ctx) => {
    const { id } = await ctx.useCases.byId.deletePipelineTemplate(ctx.actor, {
      organizationId: uuidOf(input.organizationId, 'Organization'),
      id: uuidOf(input.id, 'PipelineTemplate'),
    });
    return { deletedPipelineTemplateId: encodeGraphqlId('PipelineTemplate', id) };
  },
  payloadFields: (t) => ({
    deletedPipelineTemplateId: t.exposeID('deletedPipelineTemplateId', { nullable: false }),
  }),
});
