import { canSeeWebhookUrl, notFound, type PipelineAccess } from '@ci/domain';
import type { Deps, PipelineRecord } from '../ports';

/** A pipeline as the viewer may see it: rule B2 decides whether the webhook URL shows. */
export interface PipelineResult {
  record: PipelineRecord;
  organizationSlug: string;
  showWebhookUrl: boolean;
}

export function pipelineSeenWith(
  access: PipelineAccess,
  record: PipelineRecord,
  organizationSlug: string,
): PipelineResult {
  return { record, organizationSlug, showWebhookUrl: canSeeWebhookUrl(access) };
}

/** Reads the pipeline with its counts and creator; one deleted meanwhile answers like one that never was. */
export const loadPipeline =
  (deps: Deps) => async (input: { pipelineId: string; access: PipelineAccess; organizationSlug: string }) => {
    const record = await deps.repos.pipelines.findRecord(input.pipelineId);
    if (!record) throw notFound('pipeline');
    return pipelineSeenWith(input.access, record, input.organizationSlug);
  };
