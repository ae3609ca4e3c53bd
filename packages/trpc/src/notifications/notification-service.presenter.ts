import type { NotificationServiceView } from '@ci/application';
import { encodeGraphqlId, formatTimestamp, type NotificationDelivery } from '@ci/domain';
import { apiAddresses } from '../api-addresses';
import type { PublicUrls } from '../trpc';
import type { NotificationDeliveryWire, NotificationServiceWire } from './notification-service.wire';

export function presentNotificationService(
  view: NotificationServiceView,
  urls: PublicUrls,
  options: { withToken?: boolean } = {},
): NotificationServiceWire {
  const { service, organization } = view;
  return {
    id: service.id,
    graphql_id: encodeGraphqlId('NotificationService', service.id),
    url: `${apiAddresses.organization(urls.api, organization.slug)}/services/${service.id}`,
    provider: 'webhook',
    description: service.description,
    enabled: service.enabled,
    settings: {
      url: service.url,
      events: service.events,
      pipeline: view.pipelineSlug,
      branch_filter: service.branchFilter,
      token_mode: service.tokenMode,
    },
    ...(options.withToken ? { token: service.token } : {}),
    created_at: formatTimestamp(service.createdAt),
  };
}

export function presentNotificationDelivery(delivery: NotificationDelivery): NotificationDeliveryWire {
  return {
    id: delivery.id,
    event: delivery.event,
    state: delivery.state,
    attempts: delivery.attempts,
    response_status: delivery.responseStatus,
    error: delivery.error,
    duration_ms: delivery.durationMs,
    created_at: formatTimestamp(delivery.createdAt),
    last_attempt_at: formatTimestamp(delivery.lastAttemptAt),
  };
}
