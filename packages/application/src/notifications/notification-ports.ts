import type { DeliveryState, NotificationDelivery, NotificationService, Organization } from '@ci/domain';

export type NotificationServiceChanges = Partial<
  Pick<
    NotificationService,
    'description' | 'url' | 'events' | 'pipelineId' | 'branchFilter' | 'tokenMode' | 'enabled'
  >
>;

/** An attempt's outcome; `retryAt` set: the next attempt is queued in the same transaction. */
export interface DeliveryAttempt {
  id: string;
  attempts: number;
  state: DeliveryState;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  at: Date;
  retryAt: Date | null;
}

export interface NotificationServiceRepository {
  insert(service: NotificationService): Promise<void>;
  /** These services, in any organization; the use cases decide who may see them. */
  byIds(ids: readonly string[]): Promise<NotificationService[]>;
  /** A page of an organization's services, oldest first. */
  list(input: { organizationId: string; offset: number; limit: number }): Promise<NotificationService[]>;
  count(organizationId: string): Promise<number>;
  /** The service as changed, or null when it no longer exists. */
  update(id: string, changes: NotificationServiceChanges): Promise<NotificationService | null>;
  delete(id: string): Promise<boolean>;
  /** The enabled services of these organizations. */
  enabledOf(organizationIds: readonly string[]): Promise<NotificationService[]>;
  organizations(ids: readonly string[]): Promise<Organization[]>;
  /**
   * Stores the deliveries not made yet (a service's event id and event make one) and queues the first
   * attempt of each, in one transaction; answers how many were new.
   */
  queueDeliveries(deliveries: readonly NotificationDelivery[]): Promise<number>;
  /** The newest deliveries of a service, newest first. */
  deliveries(serviceId: string, limit: number): Promise<NotificationDelivery[]>;
  /** Deliveries with their services, for an attempt, by delivery id; those gone (or their service) left out. */
  deliveriesToSend(
    ids: readonly string[],
  ): Promise<Map<string, { delivery: NotificationDelivery; service: NotificationService }>>;
  /**
   * Records attempts (and queues the next of those with `retryAt`) in one transaction, then forgets their
   * services' finished deliveries beyond the newest (the domain's `KEPT_DELIVERIES`).
   */
  recordAttempts(attempts: readonly DeliveryAttempt[]): Promise<void>;
}
