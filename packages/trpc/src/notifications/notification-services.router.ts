import { z } from 'zod';
import { documented, documentedList } from '../documented';
import { listPage } from '../pagination';
import { organizationSlug, pageParameters } from '../parameters';
import { authed, type Meta, router } from '../trpc';
import { presentPing } from './notification-payload.presenter';
import { presentNotificationDelivery, presentNotificationService } from './notification-service.presenter';
import {
  type CreateNotificationServiceRequest,
  NotificationDeliveryWire,
  NotificationServiceWire,
  type UpdateNotificationServiceRequest,
} from './notification-service.wire';

const SERVICES = '/organizations/{organization}/services';
const SERVICE = `${SERVICES}/{service}`;
const TAGS = ['Notification services'];

const organization = organizationSlug;
const service = z.string().meta({ description: 'notification service UUID' });
const ServiceKey = z.object({ organization, service });

type Body = CreateNotificationServiceRequest & UpdateNotificationServiceRequest;

/** The bodies are validated by the domain (422), so the run-time inputs pass them through untouched. */
const CreateInput = z.looseObject({ organization }) as unknown as z.ZodType<
  { organization: string } & CreateNotificationServiceRequest
>;
const UpdateInput = z.looseObject({ organization, service }) as unknown as z.ZodType<
  { organization: string; service: string } & UpdateNotificationServiceRequest
>;

/** The body's snake_case keys as the use cases read them. */
function serviceInput(body: Partial<Body>) {
  return {
    description: body.description,
    url: body.url,
    events: body.events,
    pipeline: body.pipeline,
    branchFilter: body.branch_filter,
    tokenMode: body.token_mode,
    enabled: body.enabled,
    token: (body as { token?: unknown }).token,
  };
}

const update = (method: 'PATCH' | 'PUT') =>
  authed
    .meta({
      openapi: {
        method,
        path: SERVICE,
        tags: TAGS,
        summary: 'Update a notification service',
        ...(method === 'PUT' ? { description: `The same as \`PATCH ${SERVICE}\`.` } : {}),
      },
      operation: 'updateNotificationService',
      requestBody: 'UpdateNotificationServiceRequest',
    } satisfies Meta)
    .input(UpdateInput)
    .output(documented(NotificationServiceWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, service, ...body } = input;
      const { token: _ignored, ...changes } = serviceInput(body);
      const view = await ctx.useCases.notificationServices.update(ctx.actor, organization, service, changes);
      return presentNotificationService(view, ctx.urls);
    });

/** An organization's outbound webhooks, for its admins (docs/compatibility.md, "Notification services"). */
export const notificationServicesRouter = router({
  list: authed
    .meta({
      openapi: { method: 'GET', path: SERVICES, tags: TAGS, summary: 'List notification services' },
      operation: 'listNotificationServices',
    })
    .input(z.object({ organization, ...pageParameters }))
    .output(documentedList(NotificationServiceWire))
    .query(async ({ ctx, input }) => {
      const { items } = await listPage(ctx, input, (page) =>
        ctx.useCases.notificationServices.list(ctx.actor, input.organization, page),
      );
      return items.map((view) => presentNotificationService(view, ctx.urls));
    }),

  create: authed
    .meta({
      openapi: { method: 'POST', path: SERVICES, tags: TAGS, summary: 'Create a notification service' },
      operation: 'createNotificationService',
      requestBody: 'CreateNotificationServiceRequest',
      successStatus: 201,
    })
    .input(CreateInput)
    .output(documented(NotificationServiceWire))
    .mutation(async ({ ctx, input }) => {
      const { organization, ...body } = input;
      const view = await ctx.useCases.notificationServices.create(
        ctx.actor,
        organization,
        serviceInput(body),
      );
      return presentNotificationService(view, ctx.urls, { withToken: true });
    }),

  get: authed
    .meta({
      openapi: { method: 'GET', path: SERVICE, tags: TAGS, summary: 'Get a notification service' },
      operation: 'getNotificationService',
    })
    .input(ServiceKey)
    .output(documented(NotificationServiceWire))
    .query(async ({ ctx, input }) =>
      presentNotificationService(
        await ctx.useCases.notificationServices.get(ctx.actor, input.organization, input.service),
        ctx.urls,
      ),
    ),

  update: update('PATCH'),
  updateWithPut: update('PUT'),

  delete: authed
    .meta({
      openapi: { method: 'DELETE', path: SERVICE, tags: TAGS, summary: 'Delete a notification service' },
      operation: 'deleteNotificationService',
      successStatus: 204,
    })
    .input(ServiceKey)
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      await ctx.useCases.notificationServices.delete(ctx.actor, input.organization, input.service);
    }),

  deliveries: authed
    .meta({
      openapi: {
        method: 'GET',
        path: `${SERVICE}/deliveries`,
        tags: TAGS,
        summary: "A notification service's last 20 deliveries, newest first",
      },
      operation: 'getNotificationService',
    })
    .input(ServiceKey)
    .output(documentedList(NotificationDeliveryWire))
    .query(async ({ ctx, input }) => {
      const deliveries = await ctx.useCases.notificationServices.deliveries(
        ctx.actor,
        input.organization,
        input.service,
      );
      return deliveries.map(presentNotificationDelivery);
    }),

  ping: authed
    .meta({
      openapi: {
        method: 'POST',
        path: `${SERVICE}/ping`,
        tags: TAGS,
        summary: 'Send a ping event to a notification service',
      },
      operation: 'pingNotificationService',
      successStatus: 201,
    })
    .input(ServiceKey)
    .output(documented(NotificationDeliveryWire))
    .mutation(async ({ ctx, input }) => {
      const delivery = await ctx.useCases.notificationServices.ping(
        ctx.actor,
        input.organization,
        input.service,
        (subject) => presentPing(subject, ctx.urls),
      );
      return presentNotificationDelivery(delivery);
    }),
});
