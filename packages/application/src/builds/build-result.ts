import { canSeeWebhookUrl, notFound, type Pipeline, type PipelineAccess } from '@ci/domain';
import type { BuildView, Deps } from '../ports';

/** A build as the viewer may see it: rule B2 decides whether the webhook URL shows. */
export interface BuildResult {
  view: BuildView;
  showWebhookUrl: boolean;
}

export function asSeenWith(access: PipelineAccess, view: BuildView): BuildResult {
  return { view, showWebhookUrl: canSeeWebhookUrl(access) };
}

export const loadBuild =
  (deps: Deps) =>
  async (input: {
    /** the pipeline as the access check read it: the build's read does not read it again */
    pipeline: Pipeline;
    number: number | null;
    access: PipelineAccess;
    includeRetriedJobs?: boolean;
  }): Promise<BuildResult> => {
    if (input.number === null) throw notFound('build');
    const view = await deps.repos.builds.findByNumber({
      pipelineId: input.pipeline.id,
      pipeline: input.pipeline,
      number: input.number,
      includeRetriedJobs: input.includeRetriedJobs ?? false,
    });
    if (!view) throw notFound('build');
    return asSeenWith(input.access, view);
  };
