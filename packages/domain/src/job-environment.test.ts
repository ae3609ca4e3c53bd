import { describe, expect, it } from 'vitest';
import { buildIn } from './build.fixture';
import { jobIn } from './job.fixture';
import { countLogHeaders, jobEnvironment } from './job-environment';
import { pipelineWith } from './pipeline.fixture';

const environment = (
  overrides: Parameters<typeof jobEnvironment>[0] extends infer I ? Partial<I> : never = {},
) =>
  jobEnvironment({
    job: jobIn('running', 'script', { env: { SHARED: 'step', ONLY_STEP: '1' } }),
    build: buildIn('running', { env: { SHARED: 'build', ONLY_BUILD: '1' } }),
    pipeline: pipelineWith(),
    organizationSlug: 'acme',
    creator: null,
    agentName: 'agent-1',
    web: 'https://ci.example',
    ...overrides,
  });

describe('jobEnvironment', () => {
  it("merges the pipeline's, the build's and the step's variables, the step's winning", () => {
    const env = environment();
    expect([env.SHARED, env.ONLY_PIPELINE, env.ONLY_BUILD, env.ONLY_STEP]).toEqual(['step', '1', '1', '1']);
  });

  it('lets no variable override the BUILDKITE_ ones', () => {
    const env = environment({
      job: jobIn('running', 'script', { env: { BUILDKITE_BRANCH: 'spoofed', CI: 'false' } }),
    });
    expect([env.BUILDKITE_BRANCH, env.CI]).toEqual(['main', 'true']);
  });

  it("names the build's tag when its commit is a tag ref, else none", () => {
    expect(environment().BUILDKITE_TAG).toBe('');
    expect(environment({ build: buildIn('running', { commit: 'refs/tags/v1.2.0' }) }).BUILDKITE_TAG).toBe(
      'v1.2.0',
    );
  });

  it("gives the job's timeout in minutes as BUILDKITE_TIMEOUT, or false", () => {
    expect(environment().BUILDKITE_TIMEOUT).toBe('false');
    expect(environment({ job: jobIn('running', 'script', { timeoutInMinutes: 20 }) }).BUILDKITE_TIMEOUT).toBe(
      '20',
    );
  });

  it('names the build that triggered this one, else leaves the three variables empty', () => {
    const names = [
      'BUILDKITE_TRIGGERED_FROM_BUILD_ID',
      'BUILDKITE_TRIGGERED_FROM_BUILD_NUMBER',
      'BUILDKITE_TRIGGERED_FROM_BUILD_PIPELINE_SLUG',
    ];
    const untriggered = environment();
    expect(names.map((name) => untriggered[name])).toEqual(['', '', '']);
    const triggered = environment({
      triggeredFrom: { buildId: 'b-1', buildNumber: 12, pipelineSlug: 'web' },
    });
    expect(names.map((name) => triggered[name])).toEqual(['b-1', '12', 'web']);
  });

  it('numbers parallel copies and names the agent', () => {
    const env = environment({
      job: jobIn('running', 'script', { parallelGroupIndex: 1, parallelGroupTotal: 3 }),
    });
    expect([env.BUILDKITE_PARALLEL_JOB, env.BUILDKITE_PARALLEL_JOB_COUNT, env.BUILDKITE_AGENT_NAME]).toEqual([
      '1',
      '3',
      'agent-1',
    ]);
    expect(environment().BUILDKITE_PARALLEL_JOB).toBeUndefined();
  });
});

describe('countLogHeaders', () => {
  it('counts ---, +++ and ~~~ section lines only', () => {
    expect(countLogHeaders('~~~ Running\n--- a\n+++ b\n----\n-- c\nx')).toBe(3);
  });
});
