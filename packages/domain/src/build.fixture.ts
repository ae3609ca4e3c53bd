import { type BuildState, newBuildSnapshot } from './build-state';
import type { Build } from './entities';
import { type ConditionFacts, conditionFacts } from './step-condition';

const at = new Date('2026-11-21T10:00:00.000Z');

/** A build in any state, for tests: number 1 of `main` at HEAD, made through the API, by no one. */
export function buildIn(state: BuildState, overrides: Partial<Build> = {}): Build {
  return {
    ...newBuildSnapshot(),
    state,
    id: 'build-1',
    pipelineId: 'pipeline-1',
    number: 1,
    message: null,
    commit: 'HEAD',
    branch: 'main',
    env: {},
    metaData: {},
    source: 'api',
    author: null,
    creatorId: null,
    rebuiltFromId: null,
    pullRequest: null,
    cleanCheckout: false,
    createdAt: at,
    scheduledAt: at,
    ...overrides,
  };
}

/** What a step's filters read of a build of `main` at HEAD of pipeline `pipeline-1` in `acme`. */
export function factsOf(overrides: Partial<ConditionFacts> = {}): ConditionFacts {
  return {
    ...conditionFacts(buildIn('scheduled'), { slug: 'pipeline-1', defaultBranch: 'main' }, 'acme'),
    ...overrides,
  };
}
