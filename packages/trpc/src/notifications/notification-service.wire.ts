import { DELIVERY_STATES, NOTIFICATION_EVENTS, TOKEN_MODES } from '@ci/domain';
import { z } from 'zod';

/**
 * A notification service (outbound webhook) as `/v2/organizations/{org}/services` shows it: the public API
 * documents no REST shape for services, so this one follows the ping payload's `service` (`id`,
 * `provider`, `settings.url`) and our other resources (docs/compatibility.md). `token` is there only in the
 * create's answer.
 */
export const NotificationServiceWire = z
  .strictObject({
    id: z.uuid(),
    graphql_id: z.string().meta({ description: 'base64 of `NotificationService---<id>`' }),
    url: z.string(),
    provider: z.literal('webhook'),
    description: z.string(),
    enabled: z.boolean(),
    settings: z.strictObject({
      url: z.string().meta({ description: 'where the events are POSTed' }),
      events: z.array(z.enum(NOTIFICATION_EVENTS)),
      pipeline: z
        .string()
        .nullable()
        .meta({ description: 'the slug of the only pipeline whose events are sent' }),
      branch_filter: z.string().nullable().meta({ description: 'branch patterns, `!` excludes' }),
      token_mode: z.enum(TOKEN_MODES).meta({
        description:
          '`token`: sent as `X-Buildkite-Token`; `signature`: `X-Buildkite-Signature` (HMAC-SHA256)',
      }),
    }),
    token: z.string().optional().meta({ description: 'only in the answer to the create' }),
    created_at: z.string(),
  })
  .meta({ id: 'NotificationService' });
export type NotificationServiceWire = z.infer<typeof NotificationServiceWire>;

export const NotificationDeliveryWire = z
  .strictObject({
    id: z.uuid().meta({ description: 'sent as `X-Buildkite-Delivery-Id` with every attempt' }),
    event: z.enum(NOTIFICATION_EVENTS),
    state: z.enum(DELIVERY_STATES),
    attempts: z.int(),
    response_status: z.int().nullable(),
    error: z.string().nullable().meta({ description: 'why an attempt got no answer (timeout, refused, …)' }),
    duration_ms: z.int().nullable().meta({ description: 'of the last attempt' }),
    created_at: z.string(),
    last_attempt_at: z.string().nullable(),
  })
  .meta({ id: 'NotificationDelivery' });
export type NotificationDeliveryWire = z.infer<typeof NotificationDeliveryWire>;

const fields = {
  description: z.string().max(255).optional(),
  url: z.string().meta({ description: 'http or https' }),
  events: z
    .array(z.enum(NOTIFICATION_EVENTS))
    .optional()
    .meta({ default: ['build.finished'] }),
  pipeline: z.string().nullable().optional().meta({ description: 'a pipeline slug or UUID' }),
  branch_filter: z.string().nullable().optional(),
  token_mode: z.enum(TOKEN_MODES).optional().meta({ default: 'token' }),
  enabled: z.boolean().optional().meta({ default: true }),
};

/** Documented as inputs: the domain validates the bodies (422), keys it does not know are ignored. */
export const CreateNotificationServiceRequest = z
  .object({ ...fields, token: z.string().optional().meta({ description: 'random when absent' }) })
  .meta({ id: 'CreateNotificationServiceRequest', unusedIO: 'input' });
export type CreateNotificationServiceRequest = z.input<typeof CreateNotificationServiceRequest>;

export const UpdateNotificationServiceRequest = z
  .object({ ...fields, url: fields.url.optional() })
  .meta({ id: 'UpdateNotificationServiceRequest', unusedIO: 'input' });
export type UpdateNotificationServiceRequest = z.input<typeof UpdateNotificationServiceRequest>;
