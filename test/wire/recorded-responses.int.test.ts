import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentProtocol } from '../support/agent-protocol';
import { recorded, shapeDifferences } from '../support/recorded';
import { startWorld, type World } from '../support/world';

/**
 * Every endpoint that has a response recorded from the public service (test/fixtures/recorded) answers
 * one a client generated from that recording decodes: the same keys (ours may have more), the same JSON
 * types, the same choice between null and empty. The choices where the sources disagree are allowed by
 * path below, each one in docs/compatibility.md.
 */

/** The spec's `message` is a string: `''` where the recorded create answers null. */
const MESSAGE_A_STRING = '$.message';
/**
 * A pipeline's `env`, and a step's unset `artifact_paths` and `branch_configuration`: `{}` and `''` as the
 * recorded reads (list, get, builds) show them; the recorded writes of another pipeline show null.
 */
const PIPELINE_READS_FORM = ['$.env', '$.steps[].artifact_paths', '$.steps[].branch_configuration'];

let world: World;
const PIPELINE = '/v2/organizations/acme/pipelines/web';

beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

/** The differences between our answer to a request and the recorded answer `name`; none is the goal. */
async function differences(
  name: string,
  request: { method: string; path: string; body?: unknown; allow?: readonly string[] },
) {
  const response = await world.call(
    request.method,
    request.path,
    request.body === undefined ? {} : { body: request.body },
  );
  const theirs = recorded(name).response;
  expect(response.status, response.text).toBe(theirs.status);
  return shapeDifferences(response.body, theirs.body, { allow: request.allow ?? [] });
}

describe('builds decode as the recorded ones', () => {
  let number: number;
  beforeAll(async () => {
    ({ number } = await world.createBuild('web', { author: { name: 'Ada', email: 'ada@acme.test' } }));
  });

  it.each([
    ['build_retrieve', () => `${PIPELINE}/builds/${number}`],
    ['build_list_pipeline', () => `${PIPELINE}/builds`],
    ['build_list_org', () => '/v2/organizations/acme/builds'],
    ['build_list_all', () => '/v2/builds'],
  ])('%s', async (name, path) => {
    expect(await differences(name, { method: 'GET', path: path() })).toEqual([]);
  });

  it('build_create', async () => {
    const { body } = recorded('build_create').request;
    const path = `${PIPELINE}/builds`;
    expect(
      await differences('build_create', { method: 'POST', path, body, allow: [MESSAGE_A_STRING] }),
    ).toEqual([]);
  });

  it('build_cancel and build_rebuild', async () => {
    const { number: fresh } = await world.createBuild('web');
    const cancel = { method: 'PUT', path: `${PIPELINE}/builds/${fresh}/cancel`, body: {} };
    expect(await differences('build_cancel', cancel)).toEqual([]);
    const rebuild = { method: 'PUT', path: `${PIPELINE}/builds/${fresh}/rebuild`, body: {} };
    expect(await differences('build_rebuild', rebuild)).toEqual([]);
  });

  it('shows the author given, and null for none', async () => {
    const given = await world.call('GET', `${PIPELINE}/builds/${number}`);
    expect(given.body.author).toEqual({ name: 'Ada', email: 'ada@acme.test' });
    const none = await world.createBuild('web');
    expect(none).toMatchObject({ author: null, pull_request: null, blocked_state: '', tag: null });
  });

  it("creates a build from go-buildkite's exact body, whose empty author is none", async () => {
    const response = await world.call('POST', `${PIPELINE}/builds`, {
      rawBody:
        '{"commit":"HEAD","branch":"main","message":"","author":{},"clean_checkout":false,"ignore_pipeline_branch_filters":false}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body.author).toBeNull();
    expect(response.body.creator.email).toBe('admin@acme.test');
    expect(response.body.pipeline.provider.settings).toBeTypeOf('object');
  });

  it('names the tag of a commit that is one', async () => {
    const build = await world.createBuild('web', { commit: 'refs/tags/v1.2.0' });
    expect(build.tag).toBe('v1.2.0');
  });
});

/**
 * A pipeline of its own (one command step on a queue of its own, so that the agent's one job is this
 * build's), a build of it, and an agent registered on that queue.
 */
async function buildWithAgent(pipeline: string) {
  const agents = agentProtocol(
    world.server,
    (await world.server.useCases.admin.createAgentToken({ organization: 'acme' })).secret,
  );
  await world.server.useCases.admin.createPipeline({
    organization: 'acme',
    name: pipeline,
    repository: 'git@example.com:acme/recorded.git',
    steps: `steps:\n  - command: make test\n    agents: { queue: ${pipeline} }\n`,
  });
  const { number } = await world.createBuild(pipeline);
  const agent = await agents.register({ name: `${pipeline}-agent`, tags: [`queue=${pipeline}`] });
  return { agents, agent, number };
}

describe('jobs decode as the recorded ones', () => {
  let number: number;
  let jobId: string;
  beforeAll(async () => {
    const { agents, agent, ...built } = await buildWithAgent('recorded');
    number = built.number;
    jobId = await agents.run(agent.token, 1);
  });
  const jobPath = () => `/v2/organizations/acme/pipelines/recorded/builds/${number}/jobs/${jobId}`;

  it('a job an agent ran shows that agent as the recorded builds do, in a list too', async () => {
    const builds = '/v2/organizations/acme/pipelines/recorded/builds';
    for (const [name, path] of [
      ['build_retrieve', `${builds}/${number}`],
      ['build_list_pipeline', builds],
      ['build_list_org', '/v2/organizations/acme/builds?branch=main'],
    ] as const) {
      const response = await world.call('GET', path);
      const withAgent = [response.body]
        .flat()
        .find((build) => build.number === number && build.pipeline.slug === 'recorded');
      expect(withAgent.jobs[0].agent, name).not.toBeNull();
      expect(await differences(name, { method: 'GET', path }), name).toEqual([]);
    }
  });

  it.each([
    ['job_log', '/log'],
    ['job_env', '/env'],
  ])('%s', async (name, suffix) => {
    expect(await differences(name, { method: 'GET', path: `${jobPath()}${suffix}` })).toEqual([]);
  });

  it('job_retry', async () => {
    expect(await differences('job_retry', { method: 'PUT', path: `${jobPath()}/retry`, body: {} })).toEqual(
      [],
    );
  });

  it('job_delete_log', async () => {
    const request = { method: 'DELETE', path: `${jobPath()}/log` };
    expect(await differences('job_delete_log', request)).toEqual([]);
  });

  it('job_unblock', async () => {
    await world.server.useCases.admin.createPipeline({
      organization: 'acme',
      name: 'gated',
      repository: 'git@example.com:acme/gated.git',
      steps: 'steps:\n  - block: Release?\n  - command: make release\n',
    });
    const build = await world.createBuild('gated');
    const block = build.jobs.find((job: { type: string }) => job.type === 'manual');
    const path = `/v2/organizations/acme/pipelines/gated/builds/${build.number}/jobs/${block.id}/unblock`;
    expect(await differences('job_unblock', { method: 'PUT', path, body: {} })).toEqual([]);
  });
});

describe('pipelines decode as the recorded ones', () => {
  it.each([
    ['pipeline_list', '/v2/organizations/acme/pipelines'],
    ['pipeline_retrieve', PIPELINE],
    ['pipeline_retrieve_with_config', PIPELINE],
  ])('%s', async (name, path) => {
    expect(await differences(name, { method: 'GET', path })).toEqual([]);
  });

  it('pipeline_create, pipeline_update, pipeline_archive and pipeline_unarchive', async () => {
    const created = recorded('pipeline_create').request;
    const path = '/v2/organizations/acme/pipelines/starter-buildkite-pipeline';
    const writes: [string, { method: string; path: string; body?: unknown }][] = [
      ['pipeline_create', { method: 'POST', path: '/v2/organizations/acme/pipelines', body: created.body }],
      ['pipeline_update', { method: 'PATCH', path, body: recorded('pipeline_update').request.body }],
      ['pipeline_archive', { method: 'POST', path: `${path}/archive`, body: {} }],
      ['pipeline_unarchive', { method: 'POST', path: `${path}/unarchive`, body: {} }],
    ];
    for (const [name, request] of writes) {
      expect(await differences(name, { ...request, allow: PIPELINE_READS_FORM }), name).toEqual([]);
    }
  });
});

describe('the organization, the user and the token decode as the recorded ones', () => {
  it.each([
    ['organization_retrieve', '/v2/organizations/acme'],
    ['user_retrieve', '/v2/user'],
    ['access_token_retrieve', '/v2/access-token'],
  ])('%s', async (name, path) => {
    expect(await differences(name, { method: 'GET', path })).toEqual([]);
  });
});

describe('shapeDifferences', () => {
  it('finds a missing key, another type and null where the service answers {}', () => {
    const theirs = { a: 1, b: 'x', c: {}, d: { e: [{ f: true }] } };
    const ours = { b: 2, c: null, d: { e: [{ f: 'yes' }] } };
    expect(shapeDifferences(ours, theirs)).toEqual([
      '$.a: missing',
      '$.b: number where the service answers string',
      '$.c: null where the service answers {}',
      '$.d.e[0].f: string where the service answers boolean',
    ]);
  });

  it('takes null for a value of the scenario, but not for an empty one, and compares items by type', () => {
    expect(shapeDifferences({ at: null, extra: 1 }, { at: '2023-08-20T19:37:51.832Z' })).toEqual([]);
    expect(shapeDifferences({ pr: {} }, { pr: null })).toEqual(['$.pr: {} where the service answers null']);
    const steps = [{ type: 'script', name: 'a' }];
    expect(shapeDifferences([{ type: 'waiter' }, { type: 'script' }], steps)).toEqual(['$[1].name: missing']);
  });
});

describe('artifacts decode as the recorded ones', () => {
  const ARTIFACTS_PIPELINE = '/v2/organizations/acme/pipelines/recorded-artifacts';
  let number: number;
  let jobId: string;
  let artifactId: string;
  beforeAll(async () => {
    const { agents, agent, ...built } = await buildWithAgent('recorded-artifacts');
    number = built.number;
    jobId = await agents.start(agent.token);
    const bytes = Buffer.from('# README\n');
    const created = await agents.v3('POST', `/jobs/${jobId}/artifacts`, agent.token, {
      artifacts: [
        {
          path: 'README.md',
          file_size: bytes.length,
          sha1sum: createHash('sha1').update(bytes).digest('hex'),
        },
      ],
    });
    artifactId = created.artifact_ids[0];
    const stored = await world.server.fetch(`/v3/jobs/${jobId}/artifacts/${artifactId}/data`, {
      method: 'PUT',
      headers: { Authorization: `Token ${agent.token}` },
      body: bytes,
    });
    expect(stored.status).toBe(200);
  });

  it.each([
    ['artifact_list_build', () => `${ARTIFACTS_PIPELINE}/builds/${number}/artifacts`],
    ['artifact_list_job', () => `${ARTIFACTS_PIPELINE}/builds/${number}/jobs/${jobId}/artifacts`],
    [
      'artifact_retrieve',
      () => `${ARTIFACTS_PIPELINE}/builds/${number}/jobs/${jobId}/artifacts/${artifactId}`,
    ],
  ])('%s', async (name, path) => {
    expect(await differences(name, { method: 'GET', path: path() })).toEqual([]);
  });

  it('artifact_download', async () => {
    const response = await world.server.fetch(
      `${ARTIFACTS_PIPELINE}/builds/${number}/jobs/${jobId}/artifacts/${artifactId}/download`,
      { headers: { Authorization: `Bearer ${world.tokens.admin}` }, redirect: 'manual' },
    );
    const theirs = recorded('artifact_download').response;
    expect(response.status).toBe(theirs.status);
    expect(shapeDifferences(await response.json(), theirs.body)).toEqual([]);
  });

  it('artifact_delete', async () => {
    const path = `${ARTIFACTS_PIPELINE}/builds/${number}/jobs/${jobId}/artifacts/${artifactId}`;
    const response = await world.call('DELETE', path);
    expect(response.status).toBe(recorded('artifact_delete').response.status);
    expect(response.text).toBe('');
  });
});
