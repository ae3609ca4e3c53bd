import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newBuildSnapshot } from './build-state';
import type { Job, Pipeline } from './entities';
import { jobIn } from './job.fixture';
import { pipelineWith } from './pipeline.fixture';
import {
  genericWebhookFields,
  type PullRequestAction,
  readSourceEvent,
  type SourceEvent,
  sourceHostOf,
  supersede,
  supersededBuildRules,
  webhookDecision,
} from './source-webhook';

const SHA = 'a'.repeat(40);

function githubPush(ref: string, extra: Record<string, unknown> = {}) {
  return {
    ref,
    after: SHA,
    deleted: false,
    head_commit: { message: 'Fix it', author: { name: 'Ada', email: 'ada@example.com' } },
    ...extra,
  };
}

function githubPullRequest(action: string, fork = false) {
  return {
    action,
    number: 42,
    pull_request: {
      number: 42,
      title: 'Add a thing',
      user: { login: 'ada' },
      head: {
        ref: 'feature/x',
        sha: SHA,
        repo: {
          full_name: fork ? 'someone/app' : 'acme/app',
          clone_url: fork ? 'https://github.com/someone/app.git' : 'https://github.com/acme/app.git',
          owner: { login: fork ? 'someone' : 'acme' },
        },
      },
      base: { ref: 'main', repo: { full_name: 'acme/app' } },
    },
  };
}

function read(host: Parameters<typeof readSourceEvent>[0], event: string, payload: unknown): SourceEvent {
  const result = readSourceEvent(host, event, payload);
  if (!result.ok) throw result.error;
  return result.value;
}

type Decidable = Exclude<SourceEvent, { kind: 'generic' }>;

function decide(settings: Record<string, unknown>, event: SourceEvent, pipeline: Partial<Pipeline> = {}) {
  return webhookDecision(
    pipelineWith({ provider: { id: 'github', settings }, ...pipeline }),
    event as Decidable,
  );
}

describe('sourceHostOf', () => {
  it.each([
    [{ 'x-github-event': 'push' }, 'github', 'push'],
    [{ 'x-gitlab-event': 'Push Hook' }, 'gitlab', 'Push Hook'],
    [{ 'x-event-key': 'repo:push' }, 'bitbucket', 'repo:push'],
    [{ 'content-type': 'application/json' }, 'generic', 'build'],
  ] as const)('tells %j as %s %s', (headers, host, event) => {
    expect(sourceHostOf(headers)).toEqual({ host, event });
  });
});

describe('readSourceEvent', () => {
  it('reads a GitHub branch push with its head commit', () => {
    expect(read('github', 'push', githubPush('refs/heads/main'))).toEqual({
      kind: 'push',
      ref: { type: 'branch', name: 'main' },
      commit: SHA,
      message: 'Fix it',
      author: { name: 'Ada', email: 'ada@example.com' },
      deleted: false,
    });
  });

  it('reads a GitHub tag push and a deleted branch', () => {
    expect(read('github', 'push', githubPush('refs/tags/v1.0'))).toMatchObject({
      ref: { type: 'tag', name: 'v1.0' },
    });
    expect(read('github', 'push', githubPush('refs/heads/x', { deleted: true }))).toMatchObject({
      deleted: true,
    });
    expect(read('github', 'push', githubPush('refs/heads/x', { after: '0'.repeat(40) }))).toMatchObject({
      deleted: true,
    });
  });

  it('reads a GitHub pull request, telling a fork by its head repository', () => {
    expect(read('github', 'pull_request', githubPullRequest('opened'))).toEqual({
      kind: 'pull_request',
      action: 'opened',
      number: 42,
      branch: 'feature/x',
      base: 'main',
      commit: SHA,
      message: 'Add a thing',
      author: null,
      repository: 'https://github.com/acme/app.git',
      forkOwner: null,
    });
    expect(read('github', 'pull_request', githubPullRequest('synchronize', true))).toMatchObject({
      action: 'updated',
      forkOwner: 'someone',
    });
  });

  it.each([
    ['opened', 'opened'],
    ['synchronize', 'updated'],
    ['reopened', 'reopened'],
    ['ready_for_review', 'ready_for_review'],
    ['labeled', 'labels_changed'],
    ['unlabeled', 'labels_changed'],
    ['closed', 'closed'],
    ['assigned', 'other'],
  ])('reads GitHub action %s as %s', (action, expected) => {
    expect(read('github', 'pull_request', githubPullRequest(action))).toMatchObject({ action: expected });
  });

  it('reads a GitHub ping and leaves unknown events unsupported', () => {
    expect(read('github', 'ping', { zen: 'Keep it logically awesome.' })).toEqual({ kind: 'ping' });
    expect(read('github', 'issues', {})).toEqual({ kind: 'unsupported', event: 'issues' });
  });

  it('reads a GitLab push and merge request', () => {
    expect(
      read('gitlab', 'Push Hook', {
        ref: 'refs/heads/main',
        after: SHA,
        checkout_sha: SHA,
        user_name: 'Ada',
        user_email: 'ada@example.com',
        commits: [{ id: SHA, message: 'Fix it', author: { name: 'Ada L', email: 'ada@example.com' } }],
      }),
    ).toEqual({
      kind: 'push',
      ref: { type: 'branch', name: 'main' },
      commit: SHA,
      message: 'Fix it',
      author: { name: 'Ada L', email: 'ada@example.com' },
      deleted: false,
    });
    expect(
      read('gitlab', 'Merge Request Hook', {
        user: { name: 'Ada', email: 'ada@example.com' },
        object_attributes: {
          iid: 7,
          action: 'update',
          title: 'MR',
          source_branch: 'feature/x',
          target_branch: 'main',
          last_commit: { id: SHA },
          source: { path_with_namespace: 'someone/app', git_http_url: 'https://gitlab.com/someone/app.git' },
          target: { path_with_namespace: 'acme/app' },
        },
      }),
    ).toMatchObject({
      kind: 'pull_request',
      action: 'updated',
      number: 7,
      repository: 'https://gitlab.com/someone/app.git',
      forkOwner: 'someone',
    });
  });

  it('reads a Bitbucket push, a deleted branch and pull requests', () => {
    const change = (side: Record<string, unknown>) => ({ push: { changes: [side] } });
    expect(
      read(
        'bitbucket',
        'repo:push',
        change({
          new: {
            type: 'branch',
            name: 'main',
            target: { hash: SHA, message: 'Fix it', author: { raw: 'Ada <ada@example.com>' } },
          },
        }),
      ),
    ).toEqual({
      kind: 'push',
      ref: { type: 'branch', name: 'main' },
      commit: SHA,
      message: 'Fix it',
      author: { name: 'Ada', email: 'ada@example.com' },
      deleted: false,
    });
    expect(
      read('bitbucket', 'repo:push', change({ new: null, old: { type: 'branch', name: 'gone' } })),
    ).toMatchObject({
      deleted: true,
      ref: { name: 'gone' },
    });
    const pullRequest = {
      pullrequest: {
        id: 3,
        title: 'PR',
        author: { display_name: 'Ada' },
        source: {
          branch: { name: 'feature/x' },
          commit: { hash: SHA },
          repository: { full_name: 'acme/app' },
        },
        destination: { branch: { name: 'main' }, repository: { full_name: 'acme/app' } },
      },
    };
    expect(read('bitbucket', 'pullrequest:created', pullRequest)).toMatchObject({
      action: 'opened',
      number: 3,
    });
    expect(read('bitbucket', 'pullrequest:updated', pullRequest)).toMatchObject({
      action: 'updated',
      forkOwner: null,
    });
    expect(read('bitbucket', 'pullrequest:fulfilled', pullRequest)).toEqual({
      kind: 'unsupported',
      event: 'pullrequest:fulfilled',
    });
  });

  it.each([
    ['github', 'push', { ref: 'main', after: SHA }],
    ['github', 'push', { ref: 'refs/heads/main' }],
    ['github', 'pull_request', { action: 'opened', pull_request: {} }],
    ['gitlab', 'Push Hook', { after: SHA }],
    ['gitlab', 'Merge Request Hook', { object_attributes: { iid: 1 } }],
    ['bitbucket', 'repo:push', { push: { changes: [] } }],
    ['bitbucket', 'pullrequest:created', { pullrequest: { id: 1 } }],
    ['generic', 'build', []],
    ['github', 'push', 'text'],
  ] as const)('refuses a %s %s payload without what a build needs (400)', (host, event, payload) => {
    const result = readSourceEvent(host, event, payload);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.kind).toBe('bad_request');
  });

  it('never throws on any JSON value', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          ['github', 'push'],
          ['github', 'pull_request'],
          ['gitlab', 'Push Hook'],
          ['gitlab', 'Merge Request Hook'],
          ['bitbucket', 'repo:push'],
          ['bitbucket', 'pullrequest:updated'],
        ),
        fc.jsonValue(),
        ([host, event], payload) => {
          readSourceEvent(host as 'github', event as string, payload);
        },
      ),
    );
  });
});

describe('webhookDecision', () => {
  const push = read('github', 'push', githubPush('refs/heads/main'));
  const tag = read('github', 'push', githubPush('refs/tags/v1.0'));
  const opened = read('github', 'pull_request', githubPullRequest('opened'));
  const forked = read('github', 'pull_request', githubPullRequest('opened', true));

  it('builds a branch push with its commit, message and author, and no pull request', () => {
    expect(decide({}, push)).toEqual({
      build: {
        commit: SHA,
        branch: 'main',
        message: 'Fix it',
        author: { name: 'Ada', email: 'ada@example.com' },
        cleanCheckout: false,
        env: {},
        metaData: {},
        pullRequest: null,
      },
    });
  });

  it('builds a pull request on its head branch with {id, base, repository}', () => {
    expect(decide({}, opened)).toMatchObject({
      build: {
        branch: 'feature/x',
        commit: SHA,
        pullRequest: { id: '42', base: 'main', repository: 'https://github.com/acme/app.git' },
      },
    });
  });

  it.each(['none', 'deployment', 'fork'])('builds nothing when trigger_mode is %s', (mode) => {
    for (const event of [push, tag, opened])
      expect(decide({ trigger_mode: mode }, event)).toHaveProperty('skip');
  });

  it('builds nothing for a ping, an unsupported event or a deleted branch', () => {
    expect(decide({}, { kind: 'ping' })).toEqual({ skip: 'ping' });
    expect(decide({}, { kind: 'unsupported', event: 'issues' })).toHaveProperty('skip');
    expect(decide({}, read('github', 'push', githubPush('refs/heads/x', { deleted: true })))).toHaveProperty(
      'skip',
    );
  });

  it.each([
    [false, false],
    [true, true],
  ])('builds tags only with build_tags (%s → %s)', (buildTags, builds) => {
    const decision = decide({ build_tags: buildTags }, tag);
    expect('build' in decision).toBe(builds);
    if ('build' in decision) expect(decision.build.branch).toBe('v1.0');
  });

  it('builds no branch push with build_branches off, but still pull requests', () => {
    expect(decide({ build_branches: false }, push)).toHaveProperty('skip');
    expect(decide({ build_branches: false }, opened)).toHaveProperty('build');
  });

  it('builds no pull request with build_pull_requests off', () => {
    expect(decide({ build_pull_requests: false }, opened)).toEqual({ skip: 'build_pull_requests is off' });
    expect(decide({ build_pull_requests: false }, push)).toHaveProperty('build');
  });

  const actions: [PullRequestAction, Record<string, unknown>, boolean][] = [
    ['opened', {}, true],
    ['updated', {}, true],
    ['reopened', {}, true],
    ['ready_for_review', {}, false],
    ['ready_for_review', { build_pull_request_ready_for_review: true }, true],
    ['labels_changed', {}, false],
    ['labels_changed', { build_pull_request_labels_changed: true }, true],
    ['closed', {}, false],
    ['other', {}, false],
  ];
  it.each(actions)('pull request action %s with %j builds: %s', (action, settings, builds) => {
    expect('build' in decide(settings, { ...(opened as Decidable & { kind: 'pull_request' }), action })).toBe(
      builds,
    );
  });

  it('builds a fork only with build_pull_request_forks, its branch prefixed by the owner unless told not to', () => {
    expect(decide({}, forked)).toEqual({ skip: 'build_pull_request_forks is off' });
    expect(decide({ build_pull_request_forks: true }, forked)).toMatchObject({
      build: {
        branch: 'someone:feature/x',
        pullRequest: { repository: 'https://github.com/someone/app.git' },
      },
    });
    expect(
      decide({ build_pull_request_forks: true, prefix_pull_request_fork_branch_names: false }, forked),
    ).toMatchObject({ build: { branch: 'feature/x' } });
  });

  it('applies the pipeline branch filter to pushes, tags and pull request branches', () => {
    const only = { branchConfiguration: 'main v*' };
    expect(decide({}, push, only)).toHaveProperty('build');
    expect(decide({ build_tags: true }, tag, only)).toHaveProperty('build');
    expect(decide({}, opened, only)).toHaveProperty('skip');
    expect(decide({}, push, { branchConfiguration: '!main' })).toHaveProperty('skip');
  });

  it('applies the pull request branch filter only when it is enabled', () => {
    const filter = { pull_request_branch_filter_configuration: 'release/*' };
    expect(decide(filter, opened)).toHaveProperty('build');
    expect(decide({ ...filter, pull_request_branch_filter_enabled: true }, opened)).toHaveProperty('skip');
    expect(
      decide(
        { pull_request_branch_filter_enabled: true, pull_request_branch_filter_configuration: 'feature/*' },
        opened,
      ),
    ).toHaveProperty('build');
    expect(decide({ ...filter, pull_request_branch_filter_enabled: true }, push)).toHaveProperty('build');
  });

  it('ignores pull requests from the default branch when told to', () => {
    const fromMain = { ...(opened as Decidable & { kind: 'pull_request' }), branch: 'main' };
    expect(decide({ ignore_default_branch_pull_requests: true }, fromMain)).toHaveProperty('skip');
    expect(decide({}, fromMain)).toHaveProperty('build');
  });
});

describe('genericWebhookFields', () => {
  const pipeline = pipelineWith({ defaultBranch: 'trunk' });

  it('defaults the commit to HEAD and the branch to the default branch', () => {
    expect(genericWebhookFields(pipeline, { message: 'hi' })).toEqual({
      body: { message: 'hi', commit: 'HEAD', branch: 'trunk' },
    });
  });

  it('keeps what the body gives, but not a request to ignore the branch filter', () => {
    expect(
      genericWebhookFields(pipelineWith({ branchConfiguration: 'main' }), {
        branch: 'dev',
        ignore_pipeline_branch_filters: true,
      }),
    ).toEqual({ skip: 'dev does not match the branch filter' });
    expect(genericWebhookFields(pipeline, { branch: 'x', commit: 'abc', env: { A: '1' } })).toEqual({
      body: { branch: 'x', commit: 'abc', env: { A: '1' } },
    });
  });

  it('builds nothing when trigger_mode is none', () => {
    expect(
      genericWebhookFields(pipelineWith({ provider: { id: 'git', settings: { trigger_mode: 'none' } } }), {}),
    ).toEqual({ skip: 'trigger_mode is none' });
  });
});

describe('supersededBuildRules', () => {
  const rules = (fields: Partial<Pipeline>, branch: string) =>
    supersededBuildRules(pipelineWith(fields), branch);

  it.each([
    [{}, 'main', { skipQueued: false, cancelRunning: false }],
    [{ skipQueuedBranchBuilds: true }, 'main', { skipQueued: true, cancelRunning: false }],
    [{ cancelRunningBranchBuilds: true }, 'main', { skipQueued: false, cancelRunning: true }],
    [
      { skipQueuedBranchBuilds: true, skipQueuedBranchBuildsFilter: '!main' },
      'main',
      { skipQueued: false, cancelRunning: false },
    ],
    [
      { skipQueuedBranchBuilds: true, skipQueuedBranchBuildsFilter: '!main' },
      'feature/x',
      { skipQueued: true, cancelRunning: false },
    ],
    [
      { cancelRunningBranchBuilds: true, cancelRunningBranchBuildsFilter: 'feature/*' },
      'main',
      { skipQueued: false, cancelRunning: false },
    ],
    [
      { cancelRunningBranchBuilds: true, cancelRunningBranchBuildsFilter: 'feature/*' },
      'feature/x',
      { skipQueued: false, cancelRunning: true },
    ],
    [{ skipQueuedBranchBuildsFilter: 'main' }, 'main', { skipQueued: false, cancelRunning: false }],
  ])('with %j on %s: %j', (fields, branch, expected) => {
    expect(rules(fields, branch)).toEqual(expected);
  });
});

describe('supersede', () => {
  const at = new Date('2026-11-27T10:00:00.000Z');
  const job = (id: string, state: Job['state'], retried = false) => jobIn(state, 'script', { id, retried });

  it('skips a scheduled build and cancels its jobs', () => {
    const result = supersede(
      {
        build: { ...newBuildSnapshot(), state: 'scheduled' },
        jobs: [job('a', 'scheduled'), job('b', 'waiting')],
      },
      'skip',
      at,
    );
    expect(result?.build).toMatchObject({ state: 'skipped', finishedAt: at });
    expect(result?.jobs.map((entry) => entry.state)).toEqual(['canceled', 'canceled']);
    expect([...(result?.changed ?? [])]).toEqual(['a', 'b']);
  });

  it('cancels a running build, saying why, and leaves finished and retried jobs', () => {
    const result = supersede(
      {
        build: { ...newBuildSnapshot(), state: 'running' },
        jobs: [job('a', 'passed'), job('b', 'scheduled'), job('c', 'failed', true)],
      },
      'cancel',
      at,
    );
    expect(result?.build).toMatchObject({
      state: 'canceled',
      cancelReason: 'superseded by a newer build of its branch',
    });
    expect([...(result?.changed ?? [])]).toEqual(['b']);
  });

  it.each([
    ['skip', 'running'],
    ['skip', 'passed'],
    ['cancel', 'passed'],
    ['cancel', 'canceled'],
  ] as const)('does nothing (%s) to a %s build', (how, state) => {
    expect(supersede({ build: { ...newBuildSnapshot(), state }, jobs: [] }, how, at)).toBeNull();
  });
});
