import { unprocessable } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requirePipeline } from '../auth/authorize';
import type { Deps } from '../ports';
import { type BuildResult, loadBuild } from './build-result';
import { refuseArchived, scheduleBuild } from './create-build';
import type { BuildRef } from './get-build';

/** A new scheduled build of the same commit, branch, message, env, meta-data and pull request. */
export const rebuildBuild =
  (deps: Deps) =>
  async (actor: Actor, ref: BuildRef): Promise<BuildResult> => {
    const target = await requirePipeline(deps)(actor, 'rebuildBuild', ref, 'build');
    const { view } = await loadBuild(deps)({
      pipelineId: target.pipeline.id,
      number: ref.number,
      access: target.access,
    });
    const original = view.build;
    // The original passed the branch filter (or was told to ignore it) when it was created.
    refuseArchived(target.pipeline);
    if (!target.pipeline.allowRebuilds) {
      throw unprocessable(
        'rebuilds_disabled',
        'Rebuilds are disabled for this pipeline (allow_rebuilds is false)',
      );
    }
    return scheduleBuild(deps)(target, actor, {
      commit: original.commit,
      branch: original.branch,
      message: original.message,
      author: original.author,
      cleanCheckout: original.cleanCheckout,
      env: original.env,
      metaData: original.metaData,
      pullRequest: original.pullRequest,
      rebuiltFromId: original.id,
    });
  };
