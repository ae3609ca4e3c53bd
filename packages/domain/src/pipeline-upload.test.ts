// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these texts are pipeline strings with variables, not templates
import { describe, expect, it } from 'vitest';
import { factsOf } from './build.fixture';
import type { Job, JobState } from './entities';
import { jobIn } from './job.fixture';
import {
  insertUploadedJobs,
  interpolatePipeline,
  MAX_JOBS_PER_BUILD_WITH_UPLOADS,
  uploadedSteps,
} from './pipeline-upload';
import type { Result } from './result';
import { testPatterns } from './step-condition.fixture';
import { MAX_JOBS_PER_BUILD } from './steps';

const at = new Date('2026-11-27T12:00:00.000Z');
const facts = factsOf();

function ids(prefix: string) {
  let n = 0;
  return () => `${prefix}-${++n}`;
}

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

function message<T>(result: Result<T>): string {
  if (result.ok) throw new Error('expected a refusal');
  return result.error.message;
}

const job = (id: string, position: number, state: JobState, overrides: Partial<Job> = {}) =>
  jobIn(state, 'script', { id, position, ...overrides });

describe('interpolatePipeline', () => {
  const env = { BRANCH: 'main', USER: 'ada' };

  it('interpolates every string of the document from the job env, keys left alone', () => {
    const doc = {
      steps: [{ label: 'on $BRANCH', command: ['echo $$HOME', 'echo ${USER}'], env: { $K: 'x' } }],
    };
    expect(value(interpolatePipeline(doc, env))).toEqual({
      steps: [{ label: 'on main', command: ['echo $HOME', 'echo ada'], env: { $K: 'x' } }],
    });
  });

  it("reads the file's env first and lets it win over the job's", () => {
    const doc = { env: { TARGET: '$BRANCH-build', BRANCH: 'other' }, steps: ['make $TARGET on $BRANCH'] };
    expect(value(interpolatePipeline(doc, env))).toEqual({
      env: { TARGET: 'main-build', BRANCH: 'other' },
      steps: ['make main-build on other'],
    });
  });

  it('interpolates a bare list, and leaves numbers and booleans as they are', () => {
    expect(value(interpolatePipeline([{ command: '$USER', parallelism: 2, soft_fail: true }], env))).toEqual([
      { command: 'ada', parallelism: 2, soft_fail: true },
    ]);
  });

  it('refuses with every problem in one message, naming the variables', () => {
    const doc = { steps: ['echo ${A?needed}', 'echo ${B:?}', 'echo ${C'] };
    expect(message(interpolatePipeline(doc, env))).toBe(
      'The uploaded pipeline is invalid: A: needed; B: not set or empty; unterminated ${ in "${C"',
    );
  });
});

describe('uploadedSteps', () => {
  it("reads the steps and puts the file's env under each command step's own", () => {
    const steps = value(
      uploadedSteps(
        { env: { A: '1', B: '1' }, steps: [{ command: 'x', env: { B: '2' } }, 'wait'] },
        ids('s'),
        testPatterns,
      ),
    );
    expect(steps).toMatchObject([
      { type: 'command', id: 's-1', command: 'x', env: { A: '1', B: '2' } },
      { type: 'wait', id: 's-2' },
    ]);
  });

  it('refuses a bad step with its number and problem', () => {
    expect(message(uploadedSteps({ steps: ['ok', { command: 3 }] }, ids('s'), testPatterns))).toBe(
      'The uploaded pipeline is invalid: Step 2: command must be a non-empty string or list of strings',
    );
  });

  it('refuses a document without steps', () => {
    expect(message(uploadedSteps({ env: {} }, ids('s'), testPatterns))).toBe(
      'The uploaded pipeline is invalid: steps must be given',
    );
  });

  it('refuses a list longer than a build may hold before reading a step', () => {
    let made = 0;
    const list = Array.from({ length: 5000 }, () => 'echo');
    expect(
      message(
        uploadedSteps(
          { steps: list },
          () => {
            made++;
            return 'id';
          },
          testPatterns,
        ),
      ),
    ).toBe(`The uploaded pipeline is invalid: 5000 steps (an upload may hold at most ${MAX_JOBS_PER_BUILD})`);
    expect(made).toBe(0);
  });
});

describe('insertUploadedJobs', () => {
  const steps = value(uploadedSteps({ steps: ['one', 'wait', 'two'] }, ids('s'), testPatterns));
  const build = [
    job('first', 0, 'passed'),
    job('uploader', 1, 'running'),
    job('waiter', 2, 'waiting', { type: 'waiter', command: null }),
    job('last', 3, 'waiting'),
  ];
  /** An upload of `steps` by the running `uploader` of `build`, but for what a test changes. */
  const upload = (changes: Partial<Parameters<typeof insertUploadedJobs>[0]> = {}) =>
    insertUploadedJobs({
      buildState: 'running',
      jobs: build,
      uploaderId: 'uploader',
      steps,
      replace: false,
      at,
      newId: ids('j'),
      facts,
      regex: testPatterns,
      ...changes,
    });

  it('puts the new jobs right after the uploader and moves the ones behind it down', () => {
    const result = value(upload());
    const order = [...result.jobs]
      .sort((a, b) => a.position - b.position)
      .map((j) => [j.id, j.position, j.state]);
    expect(order).toEqual([
      ['first', 0, 'passed'],
      ['uploader', 1, 'running'],
      ['j-1', 2, 'scheduled'],
      ['j-2', 3, 'waiting'],
      ['j-3', 4, 'waiting'],
      ['waiter', 5, 'waiting'],
      ['last', 6, 'waiting'],
    ]);
    expect([...result.changed].sort()).toEqual(['j-1', 'j-2', 'j-3', 'last', 'waiter']);
    expect(result.removed.size).toBe(0);
    expect(result.added.map((j) => j.buildId)).toEqual(['build-1', 'build-1', 'build-1']);
  });

  it('with replace, removes the jobs behind the uploader that no agent took, keeping the others', () => {
    const jobs = [...build, job('taken', 4, 'running'), job('done', 5, 'passed')];
    const result = value(upload({ jobs, replace: true }));
    expect([...result.removed].sort()).toEqual(['last', 'waiter']);
    expect(result.jobs.map((j) => j.id)).not.toContain('last');
    expect(result.jobs.find((j) => j.id === 'taken')?.position).toBe(7);
  });

  it('keeps a retry of the uploader in its place', () => {
    const jobs = [job('old', 1, 'failed', { retried: true }), ...build];
    const result = value(upload({ jobs }));
    expect(result.jobs.find((j) => j.id === 'old')?.position).toBe(1);
  });

  it.each(['assigned', 'accepted', 'canceling', 'passed', 'failed', 'scheduled'] as const)(
    'refuses an upload from a job that is %s',
    (state) => {
      const jobs = build.map((j) => (j.id === 'uploader' ? { ...j, state } : j));
      expect(message(upload({ jobs }))).toBe(`Only a running job may upload steps (this one is ${state})`);
    },
  );

  it.each(['canceling', 'canceled', 'passed', 'blocked', 'scheduled'] as const)(
    'refuses an upload into a build that is %s',
    (buildState) => {
      expect(message(upload({ buildState }))).toBe(`Steps can't be added to a build that is ${buildState}`);
    },
  );

  it('takes an upload into a failing build', () => {
    expect(upload({ buildState: 'failing' }).ok).toBe(true);
  });

  it('refuses an uploader that is not in the build', () => {
    expect(message(upload({ uploaderId: 'nope' }))).toBe('The uploading job is not part of this build');
  });

  it('refuses an upload that would grow the build past its bound, and with replace counts what goes', () => {
    const many = value(
      uploadedSteps({ steps: Array.from({ length: MAX_JOBS_PER_BUILD }, () => 'x') }, ids('s'), testPatterns),
    );
    const full = [
      job('uploader', 0, 'running'),
      ...Array.from({ length: MAX_JOBS_PER_BUILD_WITH_UPLOADS - MAX_JOBS_PER_BUILD }, (_, i) =>
        job(`q${i}`, i + 1, 'waiting'),
      ),
    ];
    expect(message(upload({ jobs: full, steps: many }))).toBe(
      `The uploaded pipeline is invalid: the build would hold ${MAX_JOBS_PER_BUILD_WITH_UPLOADS + 1} jobs (at most ${MAX_JOBS_PER_BUILD_WITH_UPLOADS})`,
    );
    expect(upload({ jobs: full, steps: many, replace: true }).ok).toBe(true);
  });
});
