import type { PipelineTriggerView } from '@ci/application';
import { formatTimestamp, webAddresses } from '@ci/domain';
import { apiAddresses } from '../api-addresses';
import type { PublicUrls } from '../trpc';
import type { PipelineTriggerWire } from './pipeline-trigger.wire';

export function presentPipelineTrigger(view: PipelineTriggerView, urls: PublicUrls): PipelineTriggerWire {
  const { trigger } = view;
  return {
    id: trigger.id,
    url: `${apiAddresses.pipeline(urls.api, view.organizationSlug, view.pipelineSlug)}/triggers/${trigger.id}`,
    type: 'webhook',
    label: trigger.label,
    enabled: trigger.enabled,
    build: {
      message: trigger.message,
      commit: trigger.commit,
      branch: trigger.branch,
      environment_variables: [],
    },
    filter: null,
    verification: null,
    ...(view.token !== undefined && { webhook_url: webAddresses.webhook(urls.api, view.token) }),
    created_at: formatTimestamp(trigger.createdAt),
  };
}
