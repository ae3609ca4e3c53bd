import { describe, expect, it } from 'vitest';
import type { PipelineAccess } from './access';
import { BUILD_STATES, type BuildState } from './build-state';
import { jobIn } from './job.fixture';
import type { Rule } from './rule';
import { mayTriggerBuild, triggeredBuildRequest, triggeredOutcome } from './trigger';

const rule = (overrides: Partial<Rule> = {}) => ({
  type: 'pipeline.trigger_build.pipeline' as const,
  sourcePipelineId: 'source',
  targetPipelineId: 'target',
  value: { source_pipeline: 'source', target_pipeline: 'target' },
  ...overrides,
});

describe('mayTriggerBuild', () => {
  it.each<[string, PipelineAccess | null, ReturnType<typeof rule>[], boolean]>([
    ['a creator who may build it', 'build_and_read', [], true],
    ['an admin creator', 'admin', [], true],
    ['a creator who may only read it, without a rule', 'read_only', [], false],
    ['no creator and no rule', null, [], false],
    ['no creator, with a rule from source to target', null, [rule()], true],
    ['a read-only creator, with a rule', 'read_only', [rule()], true],
    [
      'a rule the other way round',
      null,
      [rule({ sourcePipelineId: 'target', targetPipelineId: 'source' })],
      false,
    ],
    [
      'a rule of another action',
      null,
      [rule({ type: 'pipeline.artifacts_read.pipeline' } as Partial<Rule>)],
      false,
    ],
    [
      'a rule with conditions (not evaluated)',
      null,
      [rule({ value: { source_pipeline: 'source', target_pipeline: 'target', conditions: ['x'] } })],
      false,
    ],
  ])('with %s → %s', (_case, creatorAccess, rules, expected) => {
    expect(
      mayTriggerBuild({ sourcePipelineId: 'source', targetPipelineId: 'target', rules, creatorAccess }),
    ).toBe(expected);
  });
});

describe('triggeredBuildRequest', () => {
  const parent = { message: 'Merge #12', author: { name: 'Ada', email: 'ada@example.com' } };

  it("takes what the step's build says", () => {
    const job = jobIn('scheduled', 'trigger', {
      name: 'Deploy',
      trigger: {
        pipeline: 'deploy',
        async: false,
        build: {
          message: 'Ship it',
          commit: 'abc',
          branch: 'release',
          metaData: { a: '1' },
          env: { B: '2' },
        },
      },
    });
    expect(triggeredBuildRequest({ job, parent, targetDefaultBranch: 'main' })).toEqual({
      message: 'Ship it',
      commit: 'abc',
      branch: 'release',
      metaData: { a: '1' },
      env: { B: '2' },
      author: parent.author,
    });
  });

  it("fills in the step's label, HEAD and the target's default branch", () => {
    const build = { message: null, commit: null, branch: null, metaData: {}, env: {} };
    const job = jobIn('scheduled', 'trigger', {
      name: 'Deploy',
      trigger: { pipeline: 'deploy', async: true, build },
    });
    expect(triggeredBuildRequest({ job, parent, targetDefaultBranch: 'trunk' })).toMatchObject({
      message: 'Deploy',
      commit: 'HEAD',
      branch: 'trunk',
    });
    const unnamed = { ...job, name: null };
    expect(triggeredBuildRequest({ job: unnamed, parent, targetDefaultBranch: null })).toMatchObject({
      message: 'Merge #12',
      branch: 'main',
    });
  });
});

describe('triggeredOutcome', () => {
  const expected: Record<BuildState, string | null> = {
    scheduled: null,
    running: null,
    failing: null,
    canceling: null,
    passed: 'passed',
    blocked: 'passed',
    skipped: 'passed',
    not_run: 'passed',
    failed: 'failed',
    canceled: 'canceled',
  };
  it.each(BUILD_STATES.map((state) => [state, expected[state]] as const))(
    'a %s build → %s',
    (state, outcome) => {
      expect(triggeredOutcome(state)).toBe(outcome);
    },
  );
});
