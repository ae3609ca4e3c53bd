import type { TeamPipelineResult } from '@ci/application';
import { formatTimestamp } from '@ci/domain';
import { apiAddresses } from '../api-addresses';
import type { PublicUrls } from '../trpc';
import type { TeamPipelineWire } from './team-pipeline.wire';

/** What the wire form shows of an association. */
type Presented = Pick<TeamPipelineResult, 'teamPipeline' | 'pipelineSlug' | 'organizationSlug'>;

/** The wire form of an association (REST and tRPC), keys in the order of the public API's examples. */
export function presentTeamPipeline(result: Presented, urls: Pick<PublicUrls, 'api'>): TeamPipelineWire {
  const { teamPipeline } = result;
  return {
    access_level: teamPipeline.accessLevel,
    created_at: formatTimestamp(teamPipeline.createdAt),
    pipeline_id: teamPipeline.pipelineId,
    pipeline_url: apiAddresses.pipeline(urls.api, result.organizationSlug, result.pipelineSlug),
  };
}

export function presentTeamPipelines(
  results: readonly Presented[],
  urls: Pick<PublicUrls, 'api'>,
): TeamPipelineWire[] {
  return results.map((result) => presentTeamPipeline(result, urls));
}
