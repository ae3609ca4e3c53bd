import { transition } from '@ci/domain';
import type { Actor } from '../auth/actor';
import { requirePipeline } from '../auth/authorize';
import type { Deps } from '../ports';
import { type BuildResult, loadBuild } from './build-result';
import type { BuildRef } from './get-build';

const ATTEMPTS = 3;

/** Cancels through the state machine; a concurrent state change makes it decide again on fresh data. */
export const cancelBuild =
  (deps: Deps) =>
  async (actor: Actor, ref: BuildRef): Promise<BuildResult> => {
    const target = await requirePipeline(deps)(actor, 'cancelBuild', ref, 'build');
    const load = () =>
      loadBuild(deps)({ pipelineId: target.pipeline.id, number: ref.number, access: target.access });
    for (let attempt = 1; ; attempt++) {
      const { view } = await load();
      const at = deps.clock.now();
      const next = transition(view.build, { type: 'cancel' }, at);
      if (!next.ok) throw next.error;
      const applied = await deps.repos.builds.updateState({
        buildId: view.build.id,
        expectedState: view.build.state,
        build: { ...view.build, ...next.value },
        jobChanges: { state: 'canceled', at },
      });
      if (applied || attempt === ATTEMPTS) return load();
    }
  };
