import { randomBytes } from 'node:crypto';
import {
  forbidden,
  isUuid,
  KEPT_DELIVERIES,
  type NotificationDelivery,
  type NotificationService,
  type NotificationServiceInput,
  notFound,
  type Operation,
  type Organization,
  parseNotificationService,
  type User,
  unprocessable,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requireOrganization, requireScope } from '../auth/authorize';
import { usableMemberships } from '../auth/usable-memberships';
import { type Page, pageWindow, type RowWindow } from '../page';
import type { Deps } from '../ports';

/**
 * An organization's notification services (outbound webhooks), for its admins only: read with
 * `read_notification_services`, changed with `write_notification_services`. The token is shown once, in
 * the create's answer; it stays readable in the database because every delivery sends or signs with it.
 */

export interface NotificationServiceView {
  service: NotificationService;
  organization: Organization;
  /** the slug of the pipeline it is limited to */
  pipelineSlug: string | null;
}

export interface NotificationServiceInputWithPipeline extends NotificationServiceInput {
  /** a pipeline's slug or UUID; null or '' clears the filter, undefined keeps it */
  pipeline?: string | null;
  /** the token; a random one when absent */
  token?: unknown;
}

async function adminOf(deps: Deps, actor: Actor, operation: Operation, organizationSlug: string) {
  const membership = await requireOrganization(deps)(actor, operation, organizationSlug);
  if (membership.role !== 'admin') throw forbidden();
  return membership.organization;
}

/** A service of an organization the actor administers: a member who is not an admin is refused. */
async function administeredService(deps: Deps, actor: Actor, operation: Operation, id: string) {
  requireScope(actor, operation);
  const [[service], memberships] = await Promise.all([
    isUuid(id) ? deps.repos.notificationServices.byIds([id.toLowerCase()]) : Promise.resolve([]),
    usableMemberships(deps, actor),
  ]);
  const membership = service ? memberships.get(service.organizationId) : undefined;
  if (!service || !membership) throw notFound('notification_service');
  if (membership.role !== 'admin') throw forbidden();
  return { service, organization: membership.organization };
}

async function pipelineOf(deps: Deps, organization: Organization, name: string | null | undefined) {
  if (name === undefined) return undefined;
  if (name === null || name === '') return null;
  const pipeline = isUuid(name)
    ? await deps.repos.pipelines.findById(organization.id, name.toLowerCase())
    : await deps.repos.pipelines.findBySlug(organization.id, name);
  if (!pipeline) throw unprocessable('invalid_notification_service', 'Validation failed: pipeline not found');
  return pipeline;
}

async function viewsOf(deps: Deps, organization: Organization, services: readonly NotificationService[]) {
  const ids = [...new Set(services.flatMap((service) => (service.pipelineId ? [service.pipelineId] : [])))];
  const pipelines = ids.length ? await deps.repos.lookups.pipelines(ids) : [];
  const slugs = new Map(pipelines.map((pipeline) => [pipeline.id, pipeline.slug]));
  return services.map(
    (service): NotificationServiceView => ({
      service,
      organization,
      pipelineSlug: service.pipelineId ? (slugs.get(service.pipelineId) ?? null) : null,
    }),
  );
}

function tokenOf(token: unknown): string {
  if (token === undefined || token === null || token === '') return randomBytes(24).toString('hex');
  if (typeof token !== 'string' || token.length < 8 || token.length > 255 || /\s/.test(token)) {
    throw unprocessable(
      'invalid_notification_service',
      'Validation failed: token must be 8 to 255 characters without spaces',
    );
  }
  return token;
}

export const createNotificationService =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationSlug: string,
    input: NotificationServiceInputWithPipeline,
  ): Promise<NotificationServiceView> => {
    const organization = await adminOf(deps, actor, 'createNotificationService', organizationSlug);
    const fields = parseNotificationService(input);
    if (!fields.ok) throw fields.error;
    const pipeline = await pipelineOf(deps, organization, input.pipeline);
    const service: NotificationService = {
      id: deps.newId(),
      organizationId: organization.id,
      ...fields.value,
      pipelineId: pipeline?.id ?? null,
      token: tokenOf(input.token),
      creatorId: actor.user.id,
      createdAt: deps.clock.now(),
    };
    await deps.repos.notificationServices.insert(service);
    return { service, organization, pipelineSlug: pipeline?.slug ?? null };
  };

export const listNotificationServices =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationSlug: string,
    page: Page | RowWindow,
  ): Promise<{ items: NotificationServiceView[]; totalCount: number }> => {
    const organization = await adminOf(deps, actor, 'listNotificationServices', organizationSlug);
    const [services, totalCount] = await Promise.all([
      deps.repos.notificationServices.list({ organizationId: organization.id, ...pageWindow(page) }),
      deps.repos.notificationServices.count(organization.id),
    ]);
    return { items: await viewsOf(deps, organization, services), totalCount };
  };

/** A service by UUID, in the organization named (REST) or in any the actor administers (`organizationSlug` null). */
export const getNotificationService =
  (deps: Deps) =>
  async (actor: Actor, organizationSlug: string | null, id: string): Promise<NotificationServiceView> => {
    const { service, organization } = await administeredService(deps, actor, 'getNotificationService', id);
    if (organizationSlug !== null && organizationSlug !== organization.slug)
      throw notFound('notification_service');
    const [view] = await viewsOf(deps, organization, [service]);
    return view as NotificationServiceView;
  };

export const updateNotificationService =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationSlug: string,
    id: string,
    input: NotificationServiceInputWithPipeline,
  ): Promise<NotificationServiceView> => {
    const { service, organization } = await administeredService(deps, actor, 'updateNotificationService', id);
    if (organizationSlug !== organization.slug) throw notFound('notification_service');
    const fields = parseNotificationService(input, service);
    if (!fields.ok) throw fields.error;
    const pipeline = await pipelineOf(deps, organization, input.pipeline);
    const updated = await deps.repos.notificationServices.update(service.id, {
      ...fields.value,
      ...(pipeline === undefined ? {} : { pipelineId: pipeline?.id ?? null }),
    });
    if (!updated) throw notFound('notification_service');
    const [view] = await viewsOf(deps, organization, [updated]);
    return view as NotificationServiceView;
  };

export const deleteNotificationService =
  (deps: Deps) =>
  async (actor: Actor, organizationSlug: string, id: string): Promise<void> => {
    const { service, organization } = await administeredService(deps, actor, 'deleteNotificationService', id);
    if (organizationSlug !== organization.slug) throw notFound('notification_service');
    if (!(await deps.repos.notificationServices.delete(service.id))) throw notFound('notification_service');
  };

/** A service's newest deliveries (at most the kept ones), newest first. */
export const listNotificationDeliveries =
  (deps: Deps) =>
  async (actor: Actor, organizationSlug: string | null, id: string): Promise<NotificationDelivery[]> => {
    const { service, organization } = await administeredService(deps, actor, 'getNotificationService', id);
    if (organizationSlug !== null && organizationSlug !== organization.slug)
      throw notFound('notification_service');
    return deps.repos.notificationServices.deliveries(service.id, KEPT_DELIVERIES);
  };

/** What a ping's body is made of; the transport presents it. */
export interface PingSubject {
  service: NotificationService;
  organization: Organization;
  sender: User;
}

/** Queues a `ping` to the service (even one that does not list `ping`, as the public "test" button does). */
export const pingNotificationService =
  (deps: Deps) =>
  async (
    actor: Actor,
    organizationSlug: string,
    id: string,
    body: (subject: PingSubject) => string,
  ): Promise<NotificationDelivery> => {
    const { service, organization } = await administeredService(deps, actor, 'pingNotificationService', id);
    if (organizationSlug !== organization.slug) throw notFound('notification_service');
    const delivery: NotificationDelivery = {
      id: deps.newId(),
      serviceId: service.id,
      event: 'ping',
      eventId: deps.newId(),
      requestBody: body({ service, organization, sender: actor.user }),
      state: 'pending',
      attempts: 0,
      responseStatus: null,
      error: null,
      durationMs: null,
      createdAt: deps.clock.now(),
      lastAttemptAt: null,
    };
    await deps.repos.notificationServices.queueDeliveries([delivery]);
    return delivery;
  };
