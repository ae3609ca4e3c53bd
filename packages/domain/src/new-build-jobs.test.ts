import { describe, expect, it } from 'vitest';
import { factsOf } from './build.fixture';
import type { StepDefinition } from './entities';
import { jobsForSteps, jobTimeout } from './new-build-jobs';
import { testPatterns } from './step-condition.fixture';

const at = new Date('2026-11-21T10:00:00.000Z');
let counter = 0;
const newId = () => `00000000-0000-7000-8000-${String(++counter).padStart(12, '0')}`;
/** The jobs of new build `b` at `at`, as `jobsForSteps` makes them for these steps and facts. */
const jobsOf = (steps: StepDefinition[], facts = factsOf()) =>
  jobsForSteps({ steps, buildId: 'b', at, newId, facts, regex: testPatterns });

const command = (overrides: Partial<Extract<StepDefinition, { type: 'command' }>> = {}): StepDefinition => ({
  type: 'command',
  id: newId(),
  key: 'test',
  label: 'Test',
  command: 'make test',
  env: { A: '1' },
  agentQueryRules: [],
  softFail: false,
  parallelism: null,
  retry: null,
  artifactPaths: null,
  ...overrides,
});

describe('jobsForSteps', () => {
  it('makes a trigger job per trigger step, which no agent takes, scheduled unless behind a wait', () => {
    const build = { message: null, commit: 'abc', branch: null, metaData: {}, env: { A: '1' } };
    const trigger = (async: boolean): StepDefinition => ({
      type: 'trigger',
      id: newId(),
      key: 'deploy',
      label: 'Deploy',
      pipeline: 'deploy-app',
      async,
      build,
    });
    const wait: StepDefinition = { type: 'wait', id: newId(), key: null, continueOnFailure: false };
    const [first, , second] = jobsOf([trigger(true), wait, trigger(false)]);
    expect(first).toMatchObject({
      type: 'trigger',
      state: 'scheduled',
      name: 'Deploy',
      stepKey: 'deploy',
      command: null,
      agentQueryRules: [],
      runnableAt: at,
      trigger: { pipeline: 'deploy-app', async: true, build },
      triggeredBuildId: null,
    });
    expect(second).toMatchObject({ type: 'trigger', state: 'waiting', runnableAt: null });
    expect(second?.trigger?.async).toBe(false);
  });

  it('makes one scheduled script job per command step, keeping the step id and key', () => {
    const step = command();
    const [job, ...rest] = jobsOf([step]);
    expect(rest).toEqual([]);
    expect(job).toMatchObject({
      type: 'script',
      state: 'scheduled',
      stepId: step.id,
      stepKey: 'test',
      name: 'Test',
      command: 'make test',
      env: { A: '1' },
      agentQueryRules: ['queue=default'],
      scheduledAt: at,
      runnableAt: at,
      position: 0,
    });
  });

  it("marks each job with its step's group, and none outside a group", () => {
    const wait: StepDefinition = {
      type: 'wait',
      id: newId(),
      key: null,
      continueOnFailure: false,
      groupKey: 'g',
    };
    const jobs = jobsOf([command({ groupKey: 'g', parallelism: 2 }), wait, command({ key: 'x' })]);
    expect(jobs.map((job) => job.groupKey)).toEqual(['g', 'g', 'g', null]);
  });

  it('keeps the agent query rules a step names', () => {
    const [job] = jobsOf([command({ agentQueryRules: ['queue=mac'] })]);
    expect(job?.agentQueryRules).toEqual(['queue=mac']);
  });

  it('copies a parallel step into numbered jobs', () => {
    const jobs = jobsOf([command({ parallelism: 3 })]);
    expect(jobs.map((job) => [job.parallelGroupIndex, job.parallelGroupTotal])).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
    ]);
    expect(new Set(jobs.map((job) => job.id)).size).toBe(3);
  });

  it('makes jobs behind a wait or block step wait, not runnable', () => {
    const steps: StepDefinition[] = [
      command(),
      { type: 'wait', id: newId(), key: null, continueOnFailure: false },
      command({ key: 'deploy' }),
      { type: 'block', id: newId(), key: 'release', label: 'Release' },
    ];
    const jobs = jobsOf(steps);
    expect(jobs.map((job) => [job.type, job.state, job.runnableAt])).toEqual([
      ['script', 'scheduled', at],
      ['waiter', 'waiting', null],
      ['script', 'waiting', null],
      ['manual', 'blocked', null],
    ]);
    expect(jobs.map((job) => job.position)).toEqual([0, 1, 2, 3]);
  });

  it("times a command job out by its step, else the pipeline's default, never past its maximum", () => {
    expect(jobTimeout(10, undefined)).toBe(10);
    expect(jobTimeout(undefined, { defaultTimeoutInMinutes: 30, maximumTimeoutInMinutes: null })).toBe(30);
    expect(jobTimeout(90, { defaultTimeoutInMinutes: 30, maximumTimeoutInMinutes: 60 })).toBe(60);
    expect(jobTimeout(null, { defaultTimeoutInMinutes: null, maximumTimeoutInMinutes: 60 })).toBe(60);
    expect(jobTimeout(null, { defaultTimeoutInMinutes: null, maximumTimeoutInMinutes: null })).toBeNull();
    const jobs = jobsForSteps({
      steps: [
        command({ timeoutInMinutes: 5 }),
        command({ key: 'b' }),
        { type: 'wait', id: newId(), key: null, continueOnFailure: false },
      ],
      buildId: 'b',
      at,
      newId,
      facts: factsOf(),
      regex: testPatterns,
      timeouts: { defaultTimeoutInMinutes: 15, maximumTimeoutInMinutes: null },
    });
    expect(jobs.map((job) => job.timeoutInMinutes)).toEqual([5, 15, null]);
  });

  it('leaves out the steps whose branches or if the build does not meet, gating as the rest', () => {
    const steps: StepDefinition[] = [
      command({ key: 'a', branches: 'main' }),
      command({ key: 'b', branches: '!main' }),
      command({ key: 'c', condition: 'build.tag != null' }),
      { type: 'wait', id: newId(), key: 'w', continueOnFailure: false, condition: 'build.branch == "x"' },
      command({ key: 'd', condition: 'build.branch == "main" && pipeline.slug == "pipeline-1"' }),
      command({ key: 'e', condition: 'build.branch =~ /^MA/i' }),
      command({ key: 'f', condition: 'build.branch !~ /^ma/' }),
    ];
    const jobs = jobsOf(steps);
    expect(jobs.map((job) => [job.stepKey, job.state])).toEqual([
      ['a', 'scheduled'],
      ['d', 'scheduled'],
      ['e', 'scheduled'],
    ]);
    const tagged = jobsOf(steps, factsOf({ branch: 'x', tag: 'v1' }));
    expect(tagged.map((job) => [job.stepKey, job.state])).toEqual([
      ['b', 'scheduled'],
      ['c', 'scheduled'],
      ['w', 'waiting'],
      ['f', 'waiting'],
    ]);
  });

  it("makes a job per matrix combination and parallel copy, filling in the step's fields", () => {
    const step = command({
      label: 'test {{matrix.os}}',
      command: 'make OS={{matrix.os}} ARCH={{ matrix.arch }}',
      env: { TARGET: '{{matrix.os}}-{{matrix.arch}}' },
      agentQueryRules: ['queue={{matrix.os}}'],
      parallelism: 2,
      matrix: {
        setup: { os: ['linux', 'macos'], arch: ['arm64'] },
        adjustments: [{ with: { os: 'macos', arch: 'arm64' }, skip: false, softFail: true }],
      },
    });
    const jobs = jobsOf([step]);
    // Every field of a combination's job, filled with its values; copies differ only by index.
    const filled = (os: string, softFail: boolean, index: number) => [
      `test ${os}`,
      `make OS=${os} ARCH=arm64`,
      { TARGET: `${os}-arm64` },
      [`queue=${os}`],
      { os, arch: 'arm64' },
      softFail,
      index,
    ];
    expect(
      jobs.map((job) => [
        job.name,
        job.command,
        job.env,
        job.agentQueryRules,
        job.matrix,
        job.softFail,
        job.parallelGroupIndex,
      ]),
    ).toEqual([
      filled('linux', false, 0),
      filled('linux', false, 1),
      filled('macos', true, 0),
      filled('macos', true, 1),
    ]);
    expect(jobs.map((job) => job.position)).toEqual([0, 1, 2, 3]);
    const list = jobsOf([
      command({ command: 'echo {{matrix}}', matrix: { setup: { '': ['a', 2] }, adjustments: [] } }),
    ]);
    expect(list.map((job) => [job.command, job.matrix])).toEqual([
      ['echo a', 'a'],
      ['echo 2', 2],
    ]);
  });

  it("places a clustered pipeline's command jobs in the queue their step names, or the default one", () => {
    const cluster = {
      clusterId: 'c1',
      defaultQueueId: 'q-default',
      queueIds: new Map([
        ['default', 'q-default'],
        ['deploy', 'q-deploy'],
      ]),
    };
    const steps: StepDefinition[] = [
      command(),
      command({ agentQueryRules: ['queue=deploy'], parallelism: 2 }),
      command({ agentQueryRules: ['queue=gpu'] }),
      { type: 'wait', id: newId(), key: null, continueOnFailure: false },
    ];
    const jobs = jobsForSteps({
      steps,
      buildId: 'b',
      at,
      newId,
      facts: factsOf(),
      regex: testPatterns,
      cluster,
    });
    expect(jobs.map((job) => [job.clusterId, job.clusterQueueId])).toEqual([
      ['c1', 'q-default'],
      ['c1', 'q-deploy'],
      ['c1', 'q-deploy'],
      ['c1', null],
      [null, null],
    ]);
  });

  it('leaves jobs of an unclustered pipeline unclustered', () => {
    const jobs = jobsOf([command()]);
    expect(jobs.map((job) => [job.clusterId, job.clusterQueueId])).toEqual([[null, null]]);
  });
});
