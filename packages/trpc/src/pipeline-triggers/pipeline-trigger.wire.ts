import { PIPELINE_TRIGGER_LIMITS, PIPELINE_TRIGGER_TYPES } from '@ci/domain';
import { z } from 'zod';

const timestamp = z.string().meta({ description: 'ISO 8601 UTC with milliseconds', format: 'date-time' });

/** A pipeline trigger, in the public pipeline triggers API's data model. */
export const PipelineTriggerWire = z
  .strictObject({
    id: z.uuid(),
    url: z.string(),
    type: z.enum(PIPELINE_TRIGGER_TYPES),
    label: z.string(),
    enabled: z.boolean(),
    build: z.strictObject({
      message: z.string().nullable(),
      commit: z.string().nullable(),
      branch: z.string().nullable(),
      environment_variables: z.array(z.string()).meta({ description: 'names only; none are kept here' }),
    }),
    filter: z.null().meta({ description: 'no delivery filters here: always null' }),
    verification: z.null().meta({ description: 'no signature verification here: always null' }),
    webhook_url: z
      .string()
      .optional()
      .meta({ description: 'the `…/webhooks/deliver/bktr_…` URL, shown once: in the answer of the create' }),
    created_at: timestamp,
  })
  .meta({ id: 'PipelineTrigger' });
export type PipelineTriggerWire = z.infer<typeof PipelineTriggerWire>;

/** Every trigger of a pipeline, in one answer: the list is not paged. */
export const PipelineTriggerListWire = z.array(PipelineTriggerWire).meta({ id: 'PipelineTriggerList' });

const text = (max: number) => z.string().max(max).nullable().optional();

/** Documented as inputs: the domain validates the bodies (422), keys it does not know are ignored. */
export const CreatePipelineTriggerRequest = z
  .object({
    type: z.enum(PIPELINE_TRIGGER_TYPES).optional(),
    label: text(PIPELINE_TRIGGER_LIMITS.label),
    enabled: z.boolean().optional(),
    build: z
      .object({
        branch: text(PIPELINE_TRIGGER_LIMITS.branch),
        commit: text(PIPELINE_TRIGGER_LIMITS.commit),
        message: text(PIPELINE_TRIGGER_LIMITS.message),
      })
      .optional(),
  })
  .meta({ id: 'CreatePipelineTriggerRequest', unusedIO: 'input' });
export type CreatePipelineTriggerRequest = z.input<typeof CreatePipelineTriggerRequest>;

export const UpdatePipelineTriggerRequest = CreatePipelineTriggerRequest.omit({ type: true }).meta({
  id: 'UpdatePipelineTriggerRequest',
  unusedIO: 'input',
});
export type UpdatePipelineTriggerRequest = z.input<typeof UpdatePipelineTriggerRequest>;

/** The pipeline's inbound webhook: `secret` signs GitHub's deliveries and is GitLab's token. */
export const CreatePipelineWebhookRequest = z
  .object({
    secret: z
      .string()
      .max(255)
      .nullable()
      .optional()
      .meta({ description: 'set it; null or empty clears it; absent leaves it' }),
  })
  .meta({ id: 'CreatePipelineWebhookRequest', unusedIO: 'input' });
export type CreatePipelineWebhookRequest = z.input<typeof CreatePipelineWebhookRequest>;
