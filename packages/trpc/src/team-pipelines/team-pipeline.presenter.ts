import type { TeamPipelineResult } from '@ci/application';
import { formatTimestamp } from '@ci/domain';
import type { PublicUrls } from '../trpc';
import type { TeamPipelineWire } from './team-pipeline.wire';

/** The wire form of an association (REST and tRPC), keys in the order of the public API's examples. */
/** What the wire form shows of an association. */
type Presented = Pick<TeamPipelineResult, 'teamPipeline' | 'pipelineSlug' | 'organizationSlug'>;

export function presentTeamPipeline(result: Presented, urls: Pick<PublicUrls, 'api'>): TeamPipelineWire {
  const { teamPipeline } = result;
  return {
    access_level: teamPipeline.accessLevel,
    created_at: formatTimestamp(teamPipeline.createdAt),
    pipeline_id: teamPipeline.pipelineId,
    pipeline_url: `${urls.api}/v2/organizations/${result.organizationSlug}/pipelines/${result.pipelineSlug}`,
  };
}

export function presentTeamPipelines(
  results: readonly Presented[],
  urls: Pick<PublicUrls, 'api'>,
): TeamPipelineWire[] {
  return results.map((result) => presentTeamPipeline(result, urls));
}
