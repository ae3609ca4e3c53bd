import type { NotificationServiceRepository } from '@ci/application';
import type { DeliveryState, NotificationDelivery, NotificationEvent } from '@ci/domain';
import { KEPT_DELIVERIES } from '@ci/domain';
import { NotificationServiceEntity, toNotificationService } from '../entities/notification.entity';
import { OrganizationEntity, toOrganization } from '../entities/organization.entity';
import { type EntityManagerSource, updateReturning } from '../orm';
import { toDate, toDateOrNull } from '../rows';
import type { Sql } from '../sql';

type Row = Record<string, unknown>;

function deliveryFromRow(row: Row): NotificationDelivery {
  return {
    id: row.id as string,
    serviceId: row.service_id as string,
    event: row.event as NotificationEvent,
    eventId: row.event_id as string,
    requestBody: row.request_body as string,
    state: row.state as DeliveryState,
    attempts: row.attempts as number,
    responseStatus: (row.response_status as number | null) ?? null,
    error: (row.error as string | null) ?? null,
    durationMs: (row.duration_ms as number | null) ?? null,
    createdAt: toDate(row.created_at),
    lastAttemptAt: toDateOrNull(row.last_attempt_at),
  };
}

/**
 * Queues an attempt of each delivery of `$1` as graphile-worker's job (ADR 0019), at `$2` (null: now), in
 * the caller's transaction: one statement however many.
 */
const QUEUE_ATTEMPTS = `select graphile_worker.add_job('notification_delivery',
  json_build_object('delivery_id', id), run_at := $2::timestamptz, max_attempts := 5)
  from unnest($1::uuid[]) id`;

export function notificationServiceRepository(
  entityManager: EntityManagerSource,
  sql: Sql,
): NotificationServiceRepository {
  async function byIds(ids: readonly string[]) {
    if (ids.length === 0) return [];
    const services = await entityManager().find(NotificationServiceEntity, { id: { $in: [...ids] } });
    return services.map(toNotificationService);
  }
  return {
    async insert({ organizationId, pipelineId, creatorId, ...service }) {
      await entityManager().insert(NotificationServiceEntity, {
        ...service,
        organization: organizationId,
        pipeline: pipelineId,
        creator: creatorId,
      });
    },
    byIds,
    async list({ organizationId, offset, limit }) {
      const services = await entityManager().find(
        NotificationServiceEntity,
        { organization: organizationId },
        { orderBy: { createdAt: 'asc', id: 'asc' }, limit, offset },
      );
      return services.map(toNotificationService);
    },
    count: (organizationId) =>
      entityManager().count(NotificationServiceEntity, { organization: organizationId }),
    async update(id, { pipelineId, ...changes }) {
      const service = await updateReturning(
        entityManager(),
        NotificationServiceEntity,
        { id },
        { ...changes, ...(pipelineId === undefined ? {} : { pipeline: pipelineId }) },
      );
      return service ? toNotificationService(service) : null;
    },
    async delete(id) {
      return (await entityManager().nativeDelete(NotificationServiceEntity, { id })) > 0;
    },
    async enabledOf(organizationIds) {
      if (organizationIds.length === 0) return [];
      const services = await entityManager().find(NotificationServiceEntity, {
        organization: { $in: [...organizationIds] },
        enabled: true,
      });
      return services.map(toNotificationService);
    },
    async organizations(ids) {
      if (ids.length === 0) return [];
      return (await entityManager().find(OrganizationEntity, { id: { $in: [...ids] } })).map(toOrganization);
    },
    async queueDeliveries(deliveries) {
      if (deliveries.length === 0) return 0;
      return sql.transaction(async (tx) => {
        const made = await tx.query<{ id: string; created_at: Date }>(
          `insert into notification_deliveries (id, service_id, event, event_id, request_body, state, attempts,
             created_at)
           select x.id, x.service_id, x.event, x.event_id, x.request_body, 'pending', 0, x.created_at
           from jsonb_to_recordset($1::jsonb) as x(id uuid, service_id uuid, event text, event_id uuid,
             request_body text, created_at timestamptz)
           on conflict on constraint notification_deliveries_event_unique do nothing
           returning id, created_at`,
          [
            JSON.stringify(
              deliveries.map((delivery) => ({
                id: delivery.id,
                service_id: delivery.serviceId,
                event: delivery.event,
                event_id: delivery.eventId,
                request_body: delivery.requestBody,
                created_at: delivery.createdAt.toISOString(),
              })),
            ),
          ],
        );
        if (made.length) await tx.query(QUEUE_ATTEMPTS, [made.map((row) => row.id), null]);
        return made.length;
      });
    },
    async deliveries(serviceId, limit) {
      const rows = await sql.query(
        `select * from notification_deliveries where service_id = $1 order by created_at desc, id desc limit $2`,
        [serviceId, limit],
      );
      return rows.map(deliveryFromRow);
    },
    async deliveryToSend(id) {
      const [row] = await sql.query(`select * from notification_deliveries where id = $1`, [id]);
      if (!row) return null;
      const [service] = await byIds([row.service_id as string]);
      return service ? { delivery: deliveryFromRow(row), service } : null;
    },
    async recordAttempt(attempt) {
      await sql.transaction(async (tx) => {
        const [row] = await tx.query<{ service_id: string }>(
          `update notification_deliveries set state = $2, attempts = $3, response_status = $4, error = $5,
             duration_ms = $6, last_attempt_at = $7
           where id = $1 returning service_id`,
          [
            attempt.id,
            attempt.state,
            attempt.attempts,
            attempt.responseStatus,
            attempt.error,
            attempt.durationMs,
            attempt.at,
          ],
        );
        if (!row) return;
        if (attempt.retryAt) await tx.query(QUEUE_ATTEMPTS, [[attempt.id], attempt.retryAt]);
        // The newest deliveries are kept; older finished ones go (those still being sent stay until done).
        await tx.query(
          `delete from notification_deliveries d where d.service_id = $1 and d.state in ('succeeded', 'failed')
             and d.id not in (select k.id from notification_deliveries k where k.service_id = $1
                              order by k.created_at desc, k.id desc limit $2)`,
          [row.service_id, KEPT_DELIVERIES],
        );
      });
    },
  };
}
