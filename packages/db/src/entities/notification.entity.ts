import type { NotificationEvent, NotificationService, TokenMode } from '@ci/domain';
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import { OrganizationEntity, UserEntity } from './organization.entity';
import { PipelineEntity } from './pipeline.entity';
import { referencesIndex } from './references-index';

/**
 * An organization's outbound webhook (a notification service): where to POST, which events, and the
 * token it is sent (as `X-Buildkite-Token`, or as the key of `X-Buildkite-Signature`). The token is kept
 * readable because every delivery signs or sends it; it is never logged and shown only on creation.
 */
export const NotificationServiceEntity = defineEntity({
  name: 'NotificationService',
  tableName: 'notification_services',
  indexes: [referencesIndex('notification_services', 'creator_id')],
  properties: {
    id: p.uuid().primary(),
    organization: () => p.manyToOne(OrganizationEntity).deleteRule('cascade').index(),
    description: p.string().length(255),
    url: p.text(),
    events: p.array().columnType('text[]'),
    pipeline: () => p.manyToOne(PipelineEntity).nullable().deleteRule('cascade').index(),
    branchFilter: p.string().length(255).nullable(),
    token: p.string().length(255),
    tokenMode: p.string().length(16),
    enabled: p.boolean().default(true),
    creator: () => p.manyToOne(UserEntity).nullable().deleteRule('set null'),
    createdAt: p.datetime(3),
  },
});

/** One event sent (or being sent) to a service; the newest 20 of each service are kept. */
export const NotificationDeliveryEntity = defineEntity({
  name: 'NotificationDelivery',
  tableName: 'notification_deliveries',
  indexes: [
    {
      name: 'notification_deliveries_service_order_idx',
      expression:
        'create index "notification_deliveries_service_order_idx" on "notification_deliveries" ("service_id", "created_at" desc, "id" desc)',
    },
  ],
  uniques: [
    // A fan-out run again (its worker died after committing) finds its deliveries made.
    { name: 'notification_deliveries_event_unique', properties: ['service', 'eventId', 'event'] },
  ],
  properties: {
    id: p.uuid().primary(),
    service: () => p.manyToOne(NotificationServiceEntity).deleteRule('cascade'),
    event: p.string().length(64),
    eventId: p.uuid(),
    requestBody: p.text(),
    state: p.string().length(16),
    attempts: p.integer().default(0),
    responseStatus: p.integer().nullable(),
    error: p.text().nullable(),
    durationMs: p.integer().nullable(),
    createdAt: p.datetime(3),
    lastAttemptAt: p.datetime(3).nullable(),
  },
});

export function toNotificationService(
  service: InferEntity<typeof NotificationServiceEntity>,
): NotificationService {
  return {
    id: service.id,
    organizationId: service.organization.id,
    description: service.description,
    url: service.url,
    events: service.events as NotificationEvent[],
    pipelineId: service.pipeline?.id ?? null,
    branchFilter: service.branchFilter ?? null,
    token: service.token,
    tokenMode: service.tokenMode as TokenMode,
    enabled: service.enabled,
    creatorId: service.creator?.id ?? null,
    createdAt: service.createdAt,
  };
}
