import {
  canSeeWebhookUrl,
  notFound,
  type Operation,
  type Pipeline,
  type PipelineAccess,
  type PipelineAction,
} from '@ci/domain';
import type { Actor } from '../auth/actor';
import { type AuthorizedPipeline, requirePipeline } from '../auth/authorize';
import type { BuildView, Deps } from '../ports';
import type { BuildRef } from './get-build';

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

/** The build `ref` names, once the actor may do `action` on its pipeline; and that pipeline's access. */
export const requireBuild =
  (deps: Deps) =>
  async (
    actor: Actor,
    operation: Operation,
    ref: BuildRef,
    action: PipelineAction,
    options: { includeRetriedJobs?: boolean } = {},
  ): Promise<{ target: AuthorizedPipeline; build: BuildResult }> => {
    const target = await requirePipeline(deps)(actor, operation, ref, action);
    const build = await loadBuild(deps)({
      pipeline: target.pipeline,
      number: ref.number,
      access: target.access,
      includeRetriedJobs: options.includeRetriedJobs,
    });
    return { target, build };
  };
