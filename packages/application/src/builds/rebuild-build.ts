import { rebuildRefusal } from '@ci/domain';
import type { Actor } from '../auth/actor';
import type { Deps } from '../ports';
import { type BuildResult, requireBuild } from './build-result';
import { scheduleBuild } from './create-build';
import type { BuildRef } from './get-build';

/** A new scheduled build of the same commit, branch, message, env, meta-data and pull request. */
export const rebuildBuild =
  (deps: Deps) =>
  async (actor: Actor, ref: BuildRef): Promise<BuildResult> => {
    const { target, build } = await requireBuild(deps)(actor, 'rebuildBuild', ref, 'build');
    const { view } = build;
    const original = view.build;
    const refusal = rebuildRefusal(target.pipeline);
    if (refusal) throw refusal;
    return scheduleBuild(deps)(target, actor.user, {
      commit: original.commit,
      branch: original.branch,
      message: original.message,
      author: original.author,
      cleanCheckout: original.cleanCheckout,
      env: original.env,
      metaData: original.metaData,
      pullRequest: original.pullRequest,
      rebuiltFrom: { id: original.id, number: original.number },
    });
  };
