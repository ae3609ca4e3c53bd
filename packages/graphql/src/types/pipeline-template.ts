import { builder } from '../builder';

/** A pipeline template, as the public schema shows one. None exists here: templates are not modelled. */
interface PipelineTemplateShape {
  id: string;
  uuid: string;
  name: string;
  description: string | null;
  configuration: string;
  available: boolean;
}

export const PipelineTemplateRef = builder.objectRef<PipelineTemplateShape>('PipelineTemplate').implement({
  description: 'A pipeline template (none exists here: `Pipeline.pipelineTemplate` is always null)',
  fields: (t) => ({
    id: t.exposeID('id', { nullable: false }),
    uuid: t.exposeID('uuid', { nullable: false }),
    name: t.exposeString('name', { nullable: false }),
    description: t.exposeString('description', { nullable: true }),
    configuration: t.expose('configuration', { type: 'YAML', nullable: false }),
    available: t.exposeBoolean('available', { nullable: false }),
  }),
});
