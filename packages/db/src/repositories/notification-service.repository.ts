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

/** First attempts one job makes at once (a graphile-worker batch job: those that throw are tried again). */
const FIRST_ATTEMPTS_PER_JOB = 25;

/**
 * Queues the first attempt of each delivery of `$1`, now, as batch jobs of {@link FIRST_ATTEMPTS_PER_JOB}:
 * a burst of events costs a few jobs (each a fetch and a completion) rather than one per delivery.
 */
const QUEUE_FIRST_ATTEMPTS = `select graphile_worker.add_job('notification_delivery',
  json_agg(json_build_object('delivery_id', id) order by n), max_attempts := 5)
  from unnest($1::uuid[]) with ordinality as x(id, n) group by (n - 1) / ${FIRST_ATTEMPTS_PER_JOB}`;

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
        if (made.length) await tx.query(QUEUE_FIRST_ATTEMPTS, [made.map((row) => row.id)]);
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
    async deliveriesToSend(ids) {
      const rows = await sql.query(`select * from notification_deliveries where id = any($1::uuid[])`, [
        ids.filter((id) => id !== ''),
      ]);
      const services = new Map(
        (await byIds([...new Set(rows.map((row) => row.service_id as string))])).map((service) => [
          service.id,
          service,
        ]),
      );
      return new Map(
        rows.flatMap((row) => {
          const service = services.get(row.service_id as string);
          return service ? [[row.id as string, { delivery: deliveryFromRow(row), service }] as const] : [];
        }),
      );
    },
    async recordAttempts(attempts) {
      if (attempts.length === 0) return;
      await sql.transaction(async (tx) => {
        const recorded = await tx.query<{ service_id: string }>(
          `with x as (
             select * from jsonb_to_recordset($1::jsonb) as x(id uuid, state text, attempts int,
               response_status int, error text, duration_ms int, at timestamptz, retry_at timestamptz)
           ), updated as (
             update notification_deliveries d set state = x.state, attempts = x.attempts,
               response_status = x.response_status, error = x.error, duration_ms = x.duration_ms,
               last_attempt_at = x.at
             from x where d.id = x.id returning d.id, d.service_id
           )
           select u.service_id, case when x.retry_at is not null then (graphile_worker.add_job(
               'notification_delivery', json_build_object('delivery_id', u.id), run_at := x.retry_at,
               max_attempts := 5)).id end as retry_job
           from updated u join x on x.id = u.id`,
          [
            JSON.stringify(
              attempts.map((attempt) => ({
                id: attempt.id,
                state: attempt.state,
                attempts: attempt.attempts,
                response_status: attempt.responseStatus,
                error: attempt.error,
                duration_ms: attempt.durationMs,
                at: attempt.at,
                retry_at: attempt.retryAt,
              })),
            ),
          ],
        );
        const services = [...new Set(recorded.map((row) => row.service_id))];
        if (services.length === 0) return;
        // The newest deliveries are kept; older finished ones go (those still being sent stay until done).
        // Rows another attempt is forgetting now are left to it: concurrent attempts never wait on each other.
        await tx.query(
          `delete from notification_deliveries where id in (
             select id from notification_deliveries where id in (
               select r.id from (
                 select d.id, d.state, row_number() over (partition by d.service_id
                   order by d.created_at desc, d.id desc) as n
                 from notification_deliveries d where d.service_id = any($1::uuid[])
               ) r where r.n > $2 and r.state in ('succeeded', 'failed'))
             for update skip locked)`,
          [services, KEPT_DELIVERIES],
        );
      });
    },
  };
}
