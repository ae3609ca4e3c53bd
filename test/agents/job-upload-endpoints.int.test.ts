// biome-ignore-all lint/suspicious/noTemplateCurlyInString: pipeline texts with variables, not templates
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentProtocol } from '../support/agent-protocol';
import { startWorld, type World } from '../support/world';

/**
 * The agent API's pipeline upload and meta-data endpoints, driven by hand (no agent process): where the
 * steps go, interpolation, bad input that changes nothing, and concurrent writers that lose nothing.
 */

let world: World;
let agents: ReturnType<typeof agentProtocol>;
beforeAll(async () => {
  world = await startWorld();
  const { secret } = await world.server.useCases.admin.createAgentToken({ organization: 'acme' });
  agents = agentProtocol(world.server, secret);
});
afterAll(async () => {
  await world?.close();
});

let queues = 0;

/** A pipeline of `steps` on a queue of its own, a build of it, and an agent on that queue. */
async function buildOn(steps: (queue: string) => string, body: Record<string, unknown> = {}) {
  const queue = `q${++queues}`;
  const pipeline = await world.server.useCases.admin.createPipeline({
    organization: 'acme',
    name: `upload ${queue}`,
    repository: 'git@example.com:acme/upload.git',
    steps: steps(queue),
  });
  const build = await world.createBuild(pipeline.slug, body);
  const agent = await agents.register({ name: `agent-${queue}`, tags: [`queue=${queue}`] });
  return { queue, pipeline: pipeline.slug, number: build.number as number, agent: agent.token };
}

const upload = async (
  agent: string,
  jobId: string,
  pipeline: unknown,
  extra: Record<string, unknown> = {},
) => {
  const response = await world.server.fetch(`/v3/jobs/${jobId}/pipelines`, {
    method: 'POST',
    headers: { Authorization: `Token ${agent}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ uuid: crypto.randomUUID(), pipeline, ...extra }),
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: the untyped JSON an agent reads
  return { status: response.status, body: (text ? JSON.parse(text) : null) as any };
};

const data = async (agent: string, jobId: string, action: string, body?: unknown) => {
  const response = await world.server.fetch(`/v3/jobs/${jobId}/data/${action}`, {
    method: 'POST',
    headers: { Authorization: `Token ${agent}`, 'Content-Type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: the untyped JSON an agent reads
  return { status: response.status, body: (text ? JSON.parse(text) : null) as any };
};

const jobsOf = async (pipeline: string, number: number) => {
  const response = await world.call('GET', `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}`);
  expect(response.status).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: the untyped JSON a client sees
  return response.body as any;
};

const oneStep = (queue: string) => `steps:
  - label: uploader
    command: upload
    agents: { queue: ${queue} }
  - wait
  - label: after
    command: after
    agents: { queue: ${queue} }
`;

describe('pipeline upload', () => {
  it('adds the steps right after the uploading job, interpolated from its environment', async () => {
    const { pipeline, number, agent, queue } = await buildOn(oneStep, { env: { TARGET: 'prod' } });
    const jobId = await agents.start(agent);
    const answer = await upload(
      agent,
      jobId,
      `env:
  GREETING: hello $BUILDKITE_BRANCH
steps:
  - label: deploy \${TARGET}
    command: echo "$GREETING" $$HOME \${MISSING:-none}
    agents: { queue: ${queue} }
  - wait
  - command: echo second
`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ state: 'applied' });
    expect(answer.body.jobs).toHaveLength(3);

    const build = await jobsOf(pipeline, number);
    expect(build.jobs.map((job: { name: string | null; type: string }) => job.name ?? job.type)).toEqual([
      'uploader',
      'deploy prod',
      'waiter',
      'script',
      'waiter',
      'after',
    ]);
    const deploy = build.jobs[1];
    expect(deploy.command).toBe('echo "hello main" $HOME none');
    expect(deploy.state).toBe('scheduled');
    expect(build.jobs[3].state).toBe('waiting');
    const env = await world.call(
      'GET',
      `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/jobs/${deploy.id}/env`,
    );
    expect(env.body.env).toMatchObject({ GREETING: 'hello main' });

    // The uploaded job runs while the uploader does (no wait between them), then the build goes on.
    await agents.finish(agent, jobId);
    const other = await agents.register({ tags: [`queue=${queue}`] });
    expect(await agents.run(other.token)).toBe(deploy.id);
  });

  it("keeps or leaves out uploaded steps by their if, matching the build's message", async () => {
    const { pipeline, number, agent } = await buildOn(oneStep, { message: 'Release 2.0 [skip docs]' });
    const jobId = await agents.start(agent);
    const answer = await upload(
      agent,
      jobId,
      `steps:
  - label: release
    command: x
    if: build.message =~ /^release \\d/i
  - label: docs
    command: x
    if: build.message !~ /\\[skip docs\\]/
  - label: hotfix
    command: x
    if: build.message =~ /hotfix/
`,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const build = await jobsOf(pipeline, number);
    expect(build.jobs.map((job: { name: string | null; type: string }) => job.name ?? job.type)).toEqual([
      'uploader',
      'release',
      'waiter',
      'after',
    ]);
  });

  it('takes a pipeline object as the public agent sends it, already interpolated', async () => {
    const { pipeline, number, agent } = await buildOn(oneStep);
    const jobId = await agents.start(agent);
    const answer = await upload(agent, jobId, { steps: [{ command: 'echo $KEPT' }] });
    expect(answer.status).toBe(200);
    expect((await jobsOf(pipeline, number)).jobs[1].command).toBe('echo $KEPT');
  });

  it('reads JSON text as well as YAML, interpolating it alike', async () => {
    const { pipeline, number, agent } = await buildOn(oneStep);
    const jobId = await agents.start(agent);
    const answer = await upload(agent, jobId, '{"steps": [{"command": "echo $BUILDKITE_BRANCH $$1"}]}');
    expect(answer.status).toBe(200);
    expect((await jobsOf(pipeline, number)).jobs[1].command).toBe('echo main $1');
  });

  it('replaces the steps after the uploader that no agent took, with --replace', async () => {
    const { pipeline, number, agent } = await buildOn(oneStep);
    const jobId = await agents.start(agent);
    expect((await upload(agent, jobId, 'steps: [ "echo new" ]', { replace: true })).status).toBe(200);
    const build = await jobsOf(pipeline, number);
    expect(build.jobs.map((job: { command: string | null }) => job.command)).toEqual(['upload', 'echo new']);
  });

  it('answers a dry run with the pipeline as read, adding nothing', async () => {
    const { pipeline, number, agent } = await buildOn(oneStep);
    const jobId = await agents.start(agent);
    const answer = await upload(agent, jobId, 'steps: [ "echo $BUILDKITE_BUILD_NUMBER" ]', { dry_run: true });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      state: 'dry_run',
      jobs: [],
      pipeline: { steps: [`echo ${number}`] },
    });
    expect((await jobsOf(pipeline, number)).jobs).toHaveLength(3);
  });

  it.each([
    ['bad YAML', 'steps: [ "unclosed', 422, 'The uploaded pipeline is not valid YAML or JSON'],
    ['a step of an unknown kind', 'steps: [ { frobnicate: 1 } ]', 422, 'Step 1: expected a command'],
    ['no steps', 'env: { A: 1 }', 422, 'The uploaded pipeline is invalid: steps must be given'],
    ['a required variable unset', 'steps: [ "echo ${NOPE?give NOPE}" ]', 422, 'NOPE: give NOPE'],
    [
      'a list of 5,000 steps',
      `steps:\n${'  - echo step\n'.repeat(5000)}`,
      422,
      'The uploaded pipeline is invalid: 5000 steps (an upload may hold at most 1000)',
    ],
    [
      'a matrix of 10,000 combinations',
      `steps:\n  - command: "echo {{matrix.a}}"\n    matrix:\n      setup:\n${['a', 'b', 'c', 'd']
        .map((name) => `        ${name}: [${Array.from({ length: 10 }, (_, i) => i).join(', ')}]\n`)
        .join('')}`,
      422,
      'The uploaded pipeline is invalid: steps give 10000 jobs per build (maximum is 1000)',
    ],
    [
      '10 MB of YAML',
      `steps:\n  - command: "${'x'.repeat(10 * 1024 * 1024)}"\n`,
      413,
      'Request body is too large',
    ],
    [
      'an if whose pattern does not compile',
      'steps:\n  - command: x\n    if: build.message =~ /(x/i\n',
      422,
      'The uploaded pipeline is invalid: Step 1: if: invalid regular expression /(x/: missing closing ): `(x`',
    ],
    ['a number', 42, 422, 'pipeline must be YAML or JSON text, or a JSON object'],
  ])('refuses %s with a clear message, changing nothing', async (_name, pipelineText, status, message) => {
    const { pipeline, number, agent } = await buildOn(oneStep);
    const jobId = await agents.start(agent);
    const before = await jobsOf(pipeline, number);
    const answer = await upload(agent, jobId, pipelineText);
    expect(answer.status).toBe(status);
    expect(answer.body.message).toContain(message);
    const after = await jobsOf(pipeline, number);
    expect(after.jobs.map((job: { id: string; state: string }) => [job.id, job.state])).toEqual(
      before.jobs.map((job: { id: string; state: string }) => [job.id, job.state]),
    );
  });

  it('refuses an upload from a job that is not running, and from another agent', async () => {
    const { agent, queue } = await buildOn(oneStep);
    const jobId = await agents.start(agent);
    const stranger = await agents.register({ tags: [`queue=${queue}-none`] });
    expect((await upload(stranger.token, jobId, 'steps: [ "x" ]')).status).toBe(404);
    await agents.finish(agent, jobId);
    const late = await upload(agent, jobId, 'steps: [ "x" ]');
    expect(late.status).toBe(422);
    expect(late.body.message).toBe('Only a running job may upload steps (this one is passed)');
  });

  it('loses nothing when two jobs of a build upload at once', async () => {
    const { pipeline, number, agent, queue } = await buildOn(
      (q) => `steps:
  - command: upload
    parallelism: 2
    agents: { queue: ${q} }
`,
    );
    const second = await agents.register({ tags: [`queue=${queue}`] });
    const [first, other] = [await agents.start(agent), await agents.start(second.token)];
    const steps = (tag: string) =>
      `steps:\n${Array.from({ length: 20 }, (_, i) => `  - echo ${tag}-${i}\n`).join('')}`;
    const answers = await Promise.all([
      upload(agent, first, steps('a')),
      upload(second.token, other, steps('b')),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const build = await jobsOf(pipeline, number);
    expect(build.jobs).toHaveLength(42);
    const commands = build.jobs.map((job: { command: string }) => job.command);
    for (const tag of ['a', 'b']) {
      const at = commands.indexOf(`echo ${tag}-0`);
      // Each upload's steps sit together and in order.
      expect(commands.slice(at, at + 20)).toEqual(Array.from({ length: 20 }, (_, i) => `echo ${tag}-${i}`));
    }
  });
});

describe('meta-data', () => {
  it('sets, gets, checks and lists keys of the build, which REST shows and filters by', async () => {
    const { pipeline, number, agent } = await buildOn(oneStep, { meta_data: { given: 'at create' } });
    const jobId = await agents.start(agent);
    expect((await data(agent, jobId, 'set', { key: 'release', value: 'v1.2.3' })).status).toBe(204);
    expect((await data(agent, jobId, 'set', { key: 'release', value: 'v1.2.4' })).status).toBe(204);
    expect((await data(agent, jobId, 'get', { key: 'release' })).body).toEqual({
      key: 'release',
      value: 'v1.2.4',
    });
    expect((await data(agent, jobId, 'get', { key: 'given' })).body.value).toBe('at create');
    const missing = await data(agent, jobId, 'get', { key: 'nope' });
    expect(missing).toEqual({ status: 404, body: { message: 'No meta-data "nope"' } });
    expect((await data(agent, jobId, 'exists', { key: 'release' })).body).toEqual({ exists: true });
    expect((await data(agent, jobId, 'exists', { key: 'nope' })).body).toEqual({ exists: false });
    expect((await data(agent, jobId, 'keys')).body).toEqual(['given', 'release']);

    expect((await jobsOf(pipeline, number)).meta_data).toEqual({ given: 'at create', release: 'v1.2.4' });
    const found = await world.call(
      'GET',
      `/v2/organizations/acme/pipelines/${pipeline}/builds?meta_data[release]=v1.2.4`,
    );
    expect(found.body.map((build: { number: number }) => build.number)).toEqual([number]);
  });

  it.each([
    [{ key: '', value: 'x' }, 'key must be a non-empty string'],
    [{ key: 'k', value: '' }, "value can't be blank"],
    [{ key: 'k', value: 3 }, "value can't be blank"],
    [{ key: 'k'.repeat(256), value: 'x' }, 'key is longer than 255 characters'],
    [{ key: 'k', value: 'x'.repeat(100 * 1024 + 1) }, 'value is larger than 100 KiB'],
  ])('refuses to set %#: 400 with a message, nothing written', async (body, message) => {
    const { pipeline, number, agent } = await buildOn(oneStep);
    const jobId = await agents.start(agent);
    expect(await data(agent, jobId, 'set', body)).toEqual({ status: 400, body: { message } });
    expect((await jobsOf(pipeline, number)).meta_data).toEqual({});
  });

  it('loses no key when two jobs set meta-data at once', async () => {
    const { pipeline, number, agent, queue } = await buildOn(
      (q) => `steps:
  - command: set
    parallelism: 2
    agents: { queue: ${q} }
`,
    );
    const second = await agents.register({ tags: [`queue=${queue}`] });
    const jobs = [
      { token: agent, id: await agents.start(agent) },
      { token: second.token, id: await agents.start(second.token) },
    ];
    await Promise.all(
      jobs.flatMap(({ token, id }, j) =>
        Array.from({ length: 25 }, (_, i) => data(token, id, 'set', { key: `k${j}-${i}`, value: `${i}` })),
      ),
    );
    const build = await jobsOf(pipeline, number);
    expect(Object.keys(build.meta_data)).toHaveLength(50);
  });

  it('refuses a set from a finished job', async () => {
    const { agent } = await buildOn(oneStep);
    const jobId = await agents.start(agent);
    await agents.finish(agent, jobId);
    expect(await data(agent, jobId, 'set', { key: 'k', value: 'v' })).toEqual({
      status: 422,
      body: { message: 'This job has finished' },
    });
  });
});
