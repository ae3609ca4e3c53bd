import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_URL, type PipelinesWorld, startPipelinesWorld, WEB_URL } from '../support/pipelines-world';

/**
 * Source webhooks through the real HTTP server and PostgreSQL: GitHub, GitLab, Bitbucket and generic
 * deliveries to a pipeline's `provider.webhook_url`, signed and unsigned, and what each builds (or not)
 * under the pipeline's provider settings.
 */

type Json = Record<string, unknown>;
const SHA = 'c0ffee'.padEnd(40, '0');
const OTHER_SHA = 'beef'.padEnd(40, '1');

let world: PipelinesWorld;
beforeAll(async () => {
  world = await startPipelinesWorld();
});
afterAll(() => world?.close());

let n = 0;
/** A GitHub pipeline made over REST, with its webhook path (`/webhooks/deliver/<token>`). */
async function githubPipeline(body: Json = {}) {
  const pipeline = await world.createPipeline({
    name: `hooked ${++n}`,
    repository: 'git@github.com:acme/app.git',
    ...body,
  });
  const url = pipeline.provider.webhook_url as string;
  expect(url.startsWith(`${API_URL}/webhooks/deliver/`)).toBe(true);
  return { slug: pipeline.slug as string, path: url.slice(API_URL.length), id: pipeline.id as string };
}

function deliver(path: string, payload: unknown, headers: Record<string, string> = {}) {
  return world.call('POST', path, {
    token: null,
    rawBody: typeof payload === 'string' ? payload : JSON.stringify(payload),
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

const signature = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

async function builds(slug: string): Promise<Json[]> {
  const response = await world.call('GET', `${world.pipelinePath(slug)}/builds`);
  expect(response.status).toBe(200);
  return response.body;
}

function githubPush(branch = 'main', extra: Json = {}) {
  return {
    ref: `refs/heads/${branch}`,
    before: '0'.repeat(40),
    after: SHA,
    deleted: false,
    head_commit: { id: SHA, message: 'Fix the thing', author: { name: 'Ada', email: 'ada@example.com' } },
    repository: { full_name: 'acme/app' },
    ...extra,
  };
}

function githubPullRequest(action: string, options: { fork?: boolean; branch?: string } = {}) {
  const head = options.fork ? 'someone/app' : 'acme/app';
  return {
    action,
    number: 42,
    pull_request: {
      number: 42,
      title: 'Add the thing',
      user: { login: 'ada' },
      head: {
        ref: options.branch ?? 'feature/thing',
        sha: OTHER_SHA,
        repo: {
          full_name: head,
          clone_url: `https://github.com/${head}.git`,
          owner: { login: head.split('/')[0] },
        },
      },
      base: { ref: 'main', repo: { full_name: 'acme/app' } },
    },
  };
}

describe('GitHub', () => {
  it('builds a push: 201 with the build, source webhook, no creator, commit, branch, message and author', async () => {
    const pipeline = await githubPipeline();
    const response = await deliver(pipeline.path, githubPush(), { 'X-GitHub-Event': 'push' });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(String),
      number: 1,
      url: `${API_URL}/v2/organizations/acme/pipelines/${pipeline.slug}/builds/1`,
      web_url: `${WEB_URL}/acme/${pipeline.slug}/builds/1`,
    });
    const [build] = await builds(pipeline.slug);
    expect(build).toMatchObject({
      id: response.body.id,
      source: 'webhook',
      creator: null,
      commit: SHA,
      branch: 'main',
      message: 'Fix the thing',
      author: { name: 'Ada', email: 'ada@example.com' },
      pull_request: null,
      state: 'scheduled',
    });
  });

  it('builds a pull request with pull_request {id, base, repository}', async () => {
    const pipeline = await githubPipeline();
    const response = await deliver(pipeline.path, githubPullRequest('opened'), {
      'X-GitHub-Event': 'pull_request',
    });
    expect(response.status, response.text).toBe(201);
    const [build] = await builds(pipeline.slug);
    expect(build).toMatchObject({
      branch: 'feature/thing',
      commit: OTHER_SHA,
      message: 'Add the thing',
      pull_request: { id: '42', base: 'main', repository: 'https://github.com/acme/app.git' },
    });
  });

  it('answers a ping and an unknown event 200 and builds nothing', async () => {
    const pipeline = await githubPipeline();
    const ping = await deliver(pipeline.path, { zen: 'Design for failure.' }, { 'X-GitHub-Event': 'ping' });
    expect(ping.status).toBe(200);
    expect(ping.body).toEqual({ message: 'ping' });
    const issues = await deliver(pipeline.path, { action: 'opened' }, { 'X-GitHub-Event': 'issues' });
    expect(issues.status).toBe(200);
    expect(issues.body.message).toMatch(/issues/);
    expect(await builds(pipeline.slug)).toEqual([]);
  });

  it('checks X-Hub-Signature-256 once a secret is set: 401 and no build for a bad or missing one', async () => {
    const pipeline = await githubPipeline();
    const set = await world.call('POST', `${world.pipelinePath(pipeline.slug)}/webhook`, {
      body: { secret: 's3cret' },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.provider.webhook_url).toBe(`${API_URL}${pipeline.path}`);
    const body = JSON.stringify(githubPush());

    const unsigned = await deliver(pipeline.path, body, { 'X-GitHub-Event': 'push' });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body).toEqual({ message: 'Webhook signature does not match' });
    const wrong = await deliver(pipeline.path, body, {
      'X-GitHub-Event': 'push',
      'X-Hub-Signature-256': signature('not the secret', body),
    });
    expect(wrong.status).toBe(401);
    // Signed over other bytes than those sent.
    const tampered = await deliver(pipeline.path, body.replace('main', 'evil'), {
      'X-GitHub-Event': 'push',
      'X-Hub-Signature-256': signature('s3cret', body),
    });
    expect(tampered.status).toBe(401);
    expect(await builds(pipeline.slug)).toEqual([]);

    const signed = await deliver(pipeline.path, body, {
      'X-GitHub-Event': 'push',
      'X-Hub-Signature-256': signature('s3cret', body),
    });
    expect(signed.status, signed.text).toBe(201);
    expect(await builds(pipeline.slug)).toHaveLength(1);
  });

  it('honours trigger_mode, build_branches, build_tags and the branch filter', async () => {
    const off = await githubPipeline({ provider_settings: { trigger_mode: 'none' } });
    expect((await deliver(off.path, githubPush(), { 'X-GitHub-Event': 'push' })).status).toBe(200);
    expect(await builds(off.slug)).toEqual([]);

    const filtered = await githubPipeline({ branch_configuration: 'main release/*' });
    const skipped = await deliver(filtered.path, githubPush('feature/x'), { 'X-GitHub-Event': 'push' });
    expect(skipped.status).toBe(200);
    expect(skipped.body.message).toMatch(/branch filter/);
    expect((await deliver(filtered.path, githubPush('release/1'), { 'X-GitHub-Event': 'push' })).status).toBe(
      201,
    );

    const tags = await githubPipeline();
    const tag = { ...githubPush(), ref: 'refs/tags/v1.0' };
    expect((await deliver(tags.path, tag, { 'X-GitHub-Event': 'push' })).status).toBe(200);
    await world.call('PATCH', world.pipelinePath(tags.slug), {
      body: { provider_settings: { build_tags: true } },
    });
    expect((await deliver(tags.path, tag, { 'X-GitHub-Event': 'push' })).status).toBe(201);
    expect((await builds(tags.slug)).map((build) => build.branch)).toEqual(['v1.0']);
  });

  it('builds forks only when allowed, prefixing the branch with the owner', async () => {
    const pipeline = await githubPipeline();
    const fork = githubPullRequest('synchronize', { fork: true });
    expect((await deliver(pipeline.path, fork, { 'X-GitHub-Event': 'pull_request' })).status).toBe(200);
    await world.call('PATCH', world.pipelinePath(pipeline.slug), {
      body: { provider_settings: { build_pull_request_forks: true } },
    });
    expect((await deliver(pipeline.path, fork, { 'X-GitHub-Event': 'pull_request' })).status).toBe(201);
    const [build] = await builds(pipeline.slug);
    expect(build).toMatchObject({
      branch: 'someone:feature/thing',
      pull_request: { id: '42', base: 'main', repository: 'https://github.com/someone/app.git' },
    });
  });

  it('skips the branch queued builds and cancels its running ones, as the pipeline asks', async () => {
    const pipeline = await githubPipeline({
      skip_queued_branch_builds: true,
      cancel_running_branch_builds: true,
    });
    const hook = (branch: string) => deliver(pipeline.path, githubPush(branch), { 'X-GitHub-Event': 'push' });
    expect((await hook('main')).status).toBe(201);
    expect((await hook('other')).status).toBe(201);
    // No agent runs here: the third build's branch has one running, as an agent would have made it.
    expect((await hook('main')).status).toBe(201);
    await world.server.database.sql.query(
      `update builds set state = 'running', started_at = now() where pipeline_id = $1 and number = 3`,
      [pipeline.id],
    );
    expect((await hook('main')).status).toBe(201);
    const states = Object.fromEntries(
      (await builds(pipeline.slug)).map((build) => [build.number, build.state]),
    );
    expect(states).toEqual({ 1: 'skipped', 2: 'scheduled', 3: 'canceled', 4: 'scheduled' });
  });
});

describe('GitLab', () => {
  const push = {
    object_kind: 'push',
    ref: 'refs/heads/main',
    before: '0'.repeat(40),
    after: SHA,
    checkout_sha: SHA,
    user_name: 'Ada',
    user_email: 'ada@example.com',
    commits: [{ id: SHA, message: 'Fix it\n', author: { name: 'Ada L', email: 'ada@example.com' } }],
  };

  it('builds a Push Hook, checking X-Gitlab-Token against the secret', async () => {
    const pipeline = await githubPipeline({ repository: 'git@gitlab.com:acme/app.git' });
    await world.call('POST', `${world.pipelinePath(pipeline.slug)}/webhook`, {
      body: { secret: 'gl-token' },
    });
    const wrong = await deliver(pipeline.path, push, {
      'X-Gitlab-Event': 'Push Hook',
      'X-Gitlab-Token': 'nope',
    });
    expect(wrong.status).toBe(401);
    const missing = await deliver(pipeline.path, push, { 'X-Gitlab-Event': 'Push Hook' });
    expect(missing.status).toBe(401);
    expect(await builds(pipeline.slug)).toEqual([]);
    const right = await deliver(pipeline.path, push, {
      'X-Gitlab-Event': 'Push Hook',
      'X-Gitlab-Token': 'gl-token',
    });
    expect(right.status, right.text).toBe(201);
    const [build] = await builds(pipeline.slug);
    expect(build).toMatchObject({ source: 'webhook', branch: 'main', commit: SHA, message: 'Fix it\n' });
  });

  it('builds a Merge Request Hook as a pull request', async () => {
    const pipeline = await githubPipeline({ repository: 'git@gitlab.com:acme/app.git' });
    const response = await deliver(
      pipeline.path,
      {
        object_kind: 'merge_request',
        user: { name: 'Ada', email: 'ada@example.com' },
        object_attributes: {
          iid: 7,
          action: 'open',
          title: 'MR',
          source_branch: 'feature/mr',
          target_branch: 'main',
          last_commit: { id: OTHER_SHA },
          source: { path_with_namespace: 'acme/app', git_http_url: 'https://gitlab.com/acme/app.git' },
          target: { path_with_namespace: 'acme/app' },
        },
      },
      { 'X-Gitlab-Event': 'Merge Request Hook' },
    );
    expect(response.status, response.text).toBe(201);
    const [build] = await builds(pipeline.slug);
    expect(build).toMatchObject({
      branch: 'feature/mr',
      pull_request: { id: '7', base: 'main', repository: 'https://gitlab.com/acme/app.git' },
    });
  });
});

describe('Bitbucket', () => {
  it('builds repo:push and pullrequest:created, and nothing for other events', async () => {
    const pipeline = await githubPipeline({ repository: 'git@bitbucket.org:acme/app.git' });
    const push = await deliver(
      pipeline.path,
      {
        push: {
          changes: [
            {
              new: {
                type: 'branch',
                name: 'main',
                target: { hash: SHA, message: 'Fix it', author: { raw: 'Ada <ada@example.com>' } },
              },
            },
          ],
        },
      },
      { 'X-Event-Key': 'repo:push' },
    );
    expect(push.status, push.text).toBe(201);
    const pullRequest = await deliver(
      pipeline.path,
      {
        pullrequest: {
          id: 3,
          title: 'PR',
          author: { display_name: 'Ada' },
          source: {
            branch: { name: 'feature/bb' },
            commit: { hash: OTHER_SHA },
            repository: { full_name: 'acme/app' },
          },
          destination: { branch: { name: 'main' }, repository: { full_name: 'acme/app' } },
        },
      },
      { 'X-Event-Key': 'pullrequest:created' },
    );
    expect(pullRequest.status, pullRequest.text).toBe(201);
    const ignored = await deliver(pipeline.path, {}, { 'X-Event-Key': 'repo:fork' });
    expect(ignored.status).toBe(200);
    const made = await builds(pipeline.slug);
    expect(made.map((build) => [build.branch, build.commit, build.pull_request])).toEqual([
      ['feature/bb', OTHER_SHA, { id: '3', base: 'main', repository: 'acme/app' }],
      ['main', SHA, null],
    ]);
    expect(made[1]).toMatchObject({ author: { name: 'Ada', email: 'ada@example.com' }, source: 'webhook' });
  });
});

describe('generic JSON', () => {
  it('builds the body as a create-build body, the default branch at HEAD when it names none', async () => {
    const pipeline = await githubPipeline({ repository: 'https://git.example.com/acme/app.git' });
    const bare = await deliver(pipeline.path, { message: 'From a script' });
    expect(bare.status, bare.text).toBe(201);
    const full = await deliver(pipeline.path, {
      branch: 'dev',
      commit: SHA,
      message: 'Deploy',
      env: { TARGET: 'staging' },
      meta_data: { by: 'cron' },
    });
    expect(full.status, full.text).toBe(201);
    const [second, first] = await builds(pipeline.slug);
    expect(first).toMatchObject({
      branch: 'main',
      commit: 'HEAD',
      message: 'From a script',
      source: 'webhook',
    });
    expect(second).toMatchObject({
      branch: 'dev',
      commit: SHA,
      env: { TARGET: 'staging' },
      meta_data: { by: 'cron' },
    });
  });

  it('answers 422 for a body the create-build rules refuse', async () => {
    const pipeline = await githubPipeline();
    const response = await deliver(pipeline.path, { branch: 5 });
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('Validation Failed');
  });
});

describe('refused deliveries', () => {
  it('answers 400 for malformed JSON and for a known event without what a build needs', async () => {
    const pipeline = await githubPipeline();
    const malformed = await deliver(pipeline.path, '{"ref": ', { 'X-GitHub-Event': 'push' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: 'Problems parsing JSON' });
    const incomplete = await deliver(pipeline.path, { ref: 'refs/heads/main' }, { 'X-GitHub-Event': 'push' });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.message).toMatch(/after commit/);
    expect(await builds(pipeline.slug)).toEqual([]);
  });

  it('answers 413 for a 10 MB body', async () => {
    const pipeline = await githubPipeline();
    const huge = JSON.stringify({ ...githubPush(), padding: 'x'.repeat(10 * 1024 * 1024) });
    const response = await deliver(pipeline.path, huge, { 'X-GitHub-Event': 'push' });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ message: expect.any(String) });
    expect(await builds(pipeline.slug)).toEqual([]);
  });

  it('answers 404 for an unknown token, and for a deleted webhook until it is made again', async () => {
    expect((await deliver(`/webhooks/deliver/${'0'.repeat(50)}`, githubPush())).status).toBe(404);
    expect((await deliver('/webhooks/deliver/short', githubPush())).status).toBe(404);
    const pipeline = await githubPipeline();
    const dropped = await world.call('DELETE', `${world.pipelinePath(pipeline.slug)}/webhook`);
    expect(dropped.status, dropped.text).toBe(204);
    const after = await world.call('GET', world.pipelinePath(pipeline.slug));
    expect(after.body.provider.webhook_url).toBe('');
    const gone = await deliver(pipeline.path, githubPush(), { 'X-GitHub-Event': 'push' });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: 'No pipeline found' });

    const made = await world.call('POST', `${world.pipelinePath(pipeline.slug)}/webhook`);
    expect(made.status).toBe(200);
    const url = made.body.provider.webhook_url as string;
    expect(url).not.toBe(`${API_URL}${pipeline.path}`);
    expect(
      (await deliver(url.slice(API_URL.length), githubPush(), { 'X-GitHub-Event': 'push' })).status,
    ).toBe(201);
  });

  it('lets only who may edit the pipeline make or drop its webhook', async () => {
    const response = await world.call('DELETE', `${world.pipelinePath('api')}/webhook`, {
      token: world.tokens.member,
    });
    expect(response.status).toBe(403);
    const hidden = await world.call('POST', `${world.pipelinePath('secret')}/webhook`, {
      token: world.tokens.member,
    });
    expect(hidden.status).toBe(404);
  });
});
