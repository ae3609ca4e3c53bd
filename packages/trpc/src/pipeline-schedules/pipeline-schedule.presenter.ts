import type { PipelineScheduleView } from '@ci/application';
import { encodeGraphqlId, formatTimestamp } from '@ci/domain';
import { apiAddresses } from '../api-addresses';
import type { PublicUrls } from '../trpc';
import type { PipelineScheduleWire } from './pipeline-schedule.wire';

const timestampOrNull = (at: Date | null) => (at ? formatTimestamp(at) : null);

export function presentPipelineSchedule(view: PipelineScheduleView, urls: PublicUrls): PipelineScheduleWire {
  const { schedule } = view;
  return {
    id: schedule.id,
    graphql_id: encodeGraphqlId('PipelineSchedule', schedule.id),
    url: `${apiAddresses.pipeline(urls.api, view.organizationSlug, view.pipelineSlug)}/schedules/${schedule.id}`,
    label: schedule.label,
    cronline: schedule.cronline,
    branch: schedule.branch,
    commit: schedule.commit,
    message: schedule.message,
    env: schedule.env,
    enabled: schedule.enabled,
    next_build_at: timestampOrNull(schedule.nextBuildAt),
    failed_at: timestampOrNull(schedule.failedAt),
    failed_message: schedule.failedMessage,
    created_at: formatTimestamp(schedule.createdAt),
  };
}
