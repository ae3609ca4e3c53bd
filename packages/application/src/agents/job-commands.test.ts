import type { Agent, Job } from '@ci/domain';
import { buildIn } from '@ci/domain/build.fixture';
import { jobIn } from '@ci/domain/job.fixture';
import { describe, expect, it } from 'vitest';
import type { BuildView, Deps } from '../ports';
import type { BuildMetaDataRepository, JobRepository } from './agent-ports';
import { hashAgentSecret } from './agent-secrets';
import { getJobMetaData, jobMetaDataKeys, setJobMetaData } from './job-meta-data';
import { uploadPipeline } from './job-pipeline-upload';

const JOB = '0190f3a0-0000-7abc-8def-000000000001';
const TOKEN = 'Token bkua_agent';

/** One agent holding one running job of a running build; what the repositories were asked, in order. */
function world(options: { jobState?: Job['state']; full?: boolean } = {}) {
  const calls: string[] = [];
  const agent = { id: 'agent', organizationId: 'org', name: 'a' } as Agent;
  let jobs: Job[] = [
    jobIn(options.jobState ?? 'running', 'script', { id: JOB, agentId: 'agent', position: 0 }),
    jobIn('waiting', 'script', { id: 'later', position: 1 }),
  ];
  const metaData: Record<string, string> = {};
  const jobRepository: Partial<JobRepository> = {
    async find(id) {
      calls.push('jobs.find');
      const job = jobs.find((candidate) => candidate.id === id);
      return job ? { job, buildId: 'build-1', buildNumber: 1, pipelineId: 'p', organizationId: 'org' } : null;
    },
    async changeBuild(_id, change) {
      calls.push('jobs.changeBuild');
      const result = change({
        build: {
          id: 'build-1',
          state: 'running',
          blockedState: null,
          cancelReason: null,
          startedAt: null,
          failingAt: null,
          finishedAt: null,
        },
        jobs,
      });
      if (!result) return null;
      jobs = [...result.jobs];
      return result.result;
    },
  };
  const buildMetaData: BuildMetaDataRepository = {
    async set({ key, value }) {
      calls.push('metaData.set');
      if (options.full && !(key in metaData)) return false;
      metaData[key] = value;
      return true;
    },
    async read() {
      calls.push('metaData.read');
      return { ...metaData };
    },
  };
  const deps = {
    repos: {
      agents: {
        async findByAccessTokenHash(hash: string) {
          calls.push('agents.find');
          return hash === hashAgentSecret('bkua_agent') ? agent : null;
        },
        async touch() {},
      },
      jobs: jobRepository,
      buildMetaData,
      builds: {
        async findByNumber() {
          calls.push('builds.findByNumber');
          return {
            build: buildIn('running'),
            organizationSlug: 'acme',
            pipeline: { slug: 'p', defaultBranch: 'main' },
            creator: null,
            jobs: [],
            rebuiltFrom: null,
          } as unknown as BuildView;
        },
      },
    },
    clock: { now: () => new Date('2026-11-27T12:00:00.000Z') },
    newId: (() => {
      let n = 0;
      return () => `0190f3a0-0000-7abc-8def-1000000000${String(++n).padStart(2, '0')}`;
    })(),
  } as unknown as Deps;
  return { deps, calls, jobs: () => jobs, metaData };
}

const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return { kind: (error as { kind: string }).kind, message: (error as Error).message };
  }
  throw new Error('expected a refusal');
};

describe('meta-data from a job', () => {
  it('checks the key and value before it authenticates or reads anything', async () => {
    const { deps, calls } = world();
    expect(await refusal(setJobMetaData(deps)(undefined, JOB, { key: '', value: 'v' }))).toEqual({
      kind: 'bad_request',
      message: 'key must be a non-empty string',
    });
    expect(calls).toEqual([]);
  });

  it('answers 401 for an unknown token and 404 for a job the agent does not hold', async () => {
    const { deps } = world();
    expect(
      (await refusal(setJobMetaData(deps)('Token bkua_other', JOB, { key: 'k', value: 'v' }))).kind,
    ).toBe('unauthenticated');
    expect((await refusal(getJobMetaData(deps)(TOKEN, 'later', 'k'))).kind).toBe('not_found');
  });

  it('refuses a set from a finished job without writing', async () => {
    const { deps, calls } = world({ jobState: 'passed' });
    expect(await refusal(setJobMetaData(deps)(TOKEN, JOB, { key: 'k', value: 'v' }))).toEqual({
      kind: 'unprocessable',
      message: 'This job has finished',
    });
    expect(calls).not.toContain('metaData.set');
  });

  it('refuses a new key when the build holds as many as it may', async () => {
    const { deps } = world({ full: true });
    expect(await refusal(setJobMetaData(deps)(TOKEN, JOB, { key: 'k', value: 'v' }))).toEqual({
      kind: 'unprocessable',
      message: 'A build may hold at most 1000 meta-data keys',
    });
  });

  it('sets, gets and lists keys in order', async () => {
    const { deps } = world();
    await setJobMetaData(deps)(TOKEN, JOB, { key: 'b', value: '2' });
    await setJobMetaData(deps)(TOKEN, JOB, { key: 'a', value: '1' });
    expect(await getJobMetaData(deps)(TOKEN, JOB, 'b')).toBe('2');
    expect(await jobMetaDataKeys(deps)(TOKEN, JOB)).toEqual(['a', 'b']);
    expect(await refusal(getJobMetaData(deps)(TOKEN, JOB, 'c'))).toEqual({
      kind: 'not_found',
      message: 'No meta-data "c"',
    });
  });
});

describe('pipeline upload', () => {
  const request = { replace: false, dryRun: false, interpolate: false, web: 'https://ci.test' };

  it('refuses bad YAML before it takes the build lock', async () => {
    const { deps, calls } = world();
    const answer = await refusal(uploadPipeline(deps)(TOKEN, JOB, { ...request, pipeline: 'steps: [ "x' }));
    expect(answer.message).toMatch(/^The uploaded pipeline is not valid YAML or JSON: /);
    expect(calls).not.toContain('jobs.changeBuild');
  });

  it('refuses invalid steps before it takes the build lock', async () => {
    const { deps, calls } = world();
    const answer = await refusal(uploadPipeline(deps)(TOKEN, JOB, { ...request, pipeline: { steps: [{}] } }));
    expect(answer).toEqual({
      kind: 'unprocessable',
      message:
        'The uploaded pipeline is invalid: Step 1: expected a command, wait, block, trigger or group step',
    });
    expect(calls).not.toContain('jobs.changeBuild');
  });

  it('writes nothing on a dry run', async () => {
    const { deps, calls } = world();
    const answer = await uploadPipeline(deps)(TOKEN, JOB, {
      ...request,
      dryRun: true,
      pipeline: '["echo $$X"]',
    });
    expect(answer).toEqual({ pipeline: ['echo $$X'], jobIds: [] });
    expect(calls).not.toContain('jobs.changeBuild');
  });

  it('adds the jobs after the uploader and answers their ids', async () => {
    const { deps, jobs } = world();
    const answer = await uploadPipeline(deps)(TOKEN, JOB, {
      ...request,
      pipeline: 'steps: [ "one", "two" ]',
    });
    expect(answer.jobIds).toHaveLength(2);
    expect(
      jobs()
        .sort((a, b) => a.position - b.position)
        .map((job) => job.command),
    ).toEqual(['echo hi', 'one', 'two', 'echo hi']);
  });

  it('refuses an upload from a job that is not running, under the lock', async () => {
    const { deps } = world({ jobState: 'accepted' });
    expect((await refusal(uploadPipeline(deps)(TOKEN, JOB, { ...request, pipeline: '["x"]' }))).message).toBe(
      'Only a running job may upload steps (this one is accepted)',
    );
  });
});
