import type { NotificationServiceView } from '@ci/application';
import type { NotificationDelivery } from '@ci/domain';
import { builder } from '../builder';
import { OrganizationRef } from './organization';

/**
 * Notification services as the public schema names them: the `NotificationService` interface
 * (`description`, `id`, `name`) and its webhook kind, with what a webhook has besides (its URL, events,
 * filters and last deliveries; never its token). Managed over REST and the CLI: the public schema has no
 * mutations for them.
 */
const NotificationServiceInterface = builder
  .interfaceRef<NotificationServiceView>('NotificationService')
  .implement({
    fields: (t) => ({
      id: t.id({ nullable: false, resolve: ({ service }) => service.id }),
      name: t.string({ nullable: false, resolve: () => 'Webhook' }),
      description: t.string({ nullable: false, resolve: ({ service }) => service.description }),
    }),
  });

const NotificationDeliveryRef = builder.objectRef<NotificationDelivery>('NotificationDelivery').implement({
  description: 'One event sent to a webhook, with how its attempts went (the last 20 are kept)',
  fields: (t) => ({
    uuid: t.id({ nullable: false, resolve: (delivery) => delivery.id }),
    event: t.string({ nullable: false, resolve: (delivery) => delivery.event }),
    state: t.string({
      nullable: false,
      description: 'pending, retrying, succeeded or failed',
      resolve: (d) => d.state,
    }),
    attempts: t.int({ nullable: false, resolve: (delivery) => delivery.attempts }),
    responseStatus: t.int({ nullable: true, resolve: (delivery) => delivery.responseStatus }),
    error: t.string({ nullable: true, resolve: (delivery) => delivery.error }),
    durationMs: t.int({ nullable: true, resolve: (delivery) => delivery.durationMs }),
    createdAt: t.field({ type: 'DateTime', nullable: false, resolve: (delivery) => delivery.createdAt }),
    lastAttemptAt: t.field({
      type: 'DateTime',
      nullable: true,
      resolve: (delivery) => delivery.lastAttemptAt,
    }),
  }),
});

builder.objectRef<NotificationServiceView>('NotificationServiceWebhook').implement({
  interfaces: [NotificationServiceInterface],
  isTypeOf: () => true,
  fields: (t) => ({
    uuid: t.id({ nullable: false, resolve: ({ service }) => service.id }),
    url: t.string({ nullable: false, resolve: ({ service }) => service.url }),
    events: t.stringList({ nullable: false, resolve: ({ service }) => service.events }),
    enabled: t.boolean({ nullable: false, resolve: ({ service }) => service.enabled }),
    branchFilter: t.string({ nullable: true, resolve: ({ service }) => service.branchFilter }),
    pipelineSlug: t.string({ nullable: true, resolve: ({ pipelineSlug }) => pipelineSlug }),
    tokenMode: t.string({
      nullable: false,
      description: 'token or signature',
      resolve: ({ service }) => service.tokenMode,
    }),
    organization: t.field({
      type: OrganizationRef,
      nullable: false,
      resolve: ({ organization }) => organization,
    }),
    deliveries: t.field({
      type: [NotificationDeliveryRef],
      nullable: false,
      description: 'The last 20 deliveries, newest first',
      resolve: ({ service }, _args, ctx) =>
        ctx.useCases.notificationServices.deliveries(ctx.actor, null, service.id),
    }),
  }),
});

builder.queryField('notificationService', (t) =>
  t.field({
    type: NotificationServiceInterface,
    nullable: true,
    description: 'Find a notification service (organization admins only)',
    args: { uuid: t.arg.id({ required: true, description: 'The UUID of the notification service' }) },
    resolve: (_root, args, ctx) => ctx.useCases.notificationServices.get(ctx.actor, null, args.uuid),
  }),
);
