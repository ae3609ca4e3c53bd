import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, type World } from '../support/world';

/**
 * The job endpoints on /v2 and the agent protocol on /v3, driven by hand (no agent process): shapes,
 * scopes, visibility, bad input, dispatch rules.
 */

let world: World;
let registrationToken: string;
beforeAll(async () => {
  world = await startWorld();
  registrationToken = (await world.server.useCases.admin.createAgentToken({ organization: 'acme' })).secret;
});
afterAll(async () => {
  await world?.close();
});

const v3 = async (
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
) => {
  const response = await world.server.fetch(`/v3${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Token ${token}` } : {}),
      ...(body !== undefined && !(body instanceof Uint8Array) ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined
      ? { body: body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body) }
      : {}),
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: the untyped JSON a client sees
  return { status: response.status, body: (text ? JSON.parse(text) : null) as any };
};

const register = async (tags: string[] = [], name?: string) => {
  const response = await v3('POST', '/register', registrationToken, { name, meta_data: tags });
  expect(response.status).toBe(200);
  return response.body.access_token as string;
};

/** Takes the next job the agent is offered through to its end, with `output` as its log. */
async function runOffered(agent: string, output: string, exitStatus = 0) {
  const ping = await v3('GET', '/ping', agent);
  expect(ping.status).toBe(200);
  const job = ping.body.job;
  expect(job).toBeDefined();
  expect((await v3('PUT', `/jobs/${job.id}/accept`, agent)).status).toBe(200);
  expect(
    (await v3('PUT', `/jobs/${job.id}/start`, agent, { started_at: new Date().toISOString() })).status,
  ).toBe(200);
  const chunk = await v3(
    'POST',
    `/jobs/${job.id}/chunks?sequence=0&offset=0`,
    agent,
    new Uint8Array(Buffer.from(output)),
    {
      'Content-Type': 'application/octet-stream',
    },
  );
  expect(chunk.status).toBe(204);
  const finish = await v3('PUT', `/jobs/${job.id}/finish`, agent, { exit_status: String(exitStatus) });
  expect(finish.status).toBe(200);
  return job.id as string;
}

const jobPath = (pipeline: string, number: number, job: string) =>
  `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/jobs/${job}`;

describe('job endpoints on /v2', () => {
  let number: number;
  let jobId: string;
  const output = '~~~ Running commands\n$ make build\nbuilt ✓\n';
  beforeAll(async () => {
    ({ number } = await world.createBuild('web'));
    const agent = await register([], 'builder');
    jobId = await runOffered(agent, output);
  });

  it('deletes the log (204): it reads empty after', async () => {
    await world.createBuild('web');
    const ran = await runOffered(await register([], 'deleter'), 'to be deleted\n');
    // The agent took the oldest job waiting in the organization: find its build.
    const builds = (await world.call('GET', '/v2/organizations/acme/pipelines/web/builds?per_page=100')).body;
    const owner = builds.find((build: { jobs: { id: string }[] }) =>
      build.jobs.some((job) => job.id === ran),
    );
    const path = `${jobPath('web', owner.number, ran)}/log`;
    expect((await world.call('GET', path)).body.content).toBe('to be deleted\n');
    const deleted = await world.call('DELETE', path);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await world.call('GET', path)).body).toMatchObject({ content: '', size: 0, header_times: [] });
  });

  it('answers the log as {url, content, size, header_times}', async () => {
    const response = await world.call('GET', `${jobPath('web', number, jobId)}/log`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      url: `https://api.ci.test${jobPath('web', number, jobId)}/log`,
      content: output,
      size: Buffer.byteLength(output),
      header_times: [expect.any(Number)],
    });
    expect(Math.abs(response.body.header_times[0] / 1e6 - Date.now())).toBeLessThan(60_000);
  });

  it('answers over tRPC the chunks after a sequence, and whether they end a finished job’s log', async () => {
    const job = { organization: 'acme', pipeline: 'web', number: String(number), job: jobId };
    const client = world.trpc(world.tokens.admin);
    const whole = await client.jobs.logAfter.query({ ...job, after_sequence: -1 });
    expect(whole).toEqual({ content: output, last_sequence: 0, finished: true });
    const rest = await client.jobs.logAfter.query({ ...job, after_sequence: 0 });
    expect(rest).toEqual({ content: '', last_sequence: 0, finished: true });
  });

  it('answers the raw log for log.txt and for Accept: text/plain', async () => {
    for (const [suffix, headers] of [
      ['/log.txt', {}],
      ['/log', { Accept: 'text/plain' }],
    ] as const) {
      const response = await world.call('GET', `${jobPath('web', number, jobId)}${suffix}`, { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(response.text).toBe(output);
    }
  });

  it("answers the job's environment with the public agent's variables", async () => {
    const response = await world.call('GET', `${jobPath('web', number, jobId)}/env`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['env']);
    const example = [
      'CI',
      'BUILDKITE',
      'BUILDKITE_TAG',
      'BUILDKITE_REPO',
      'BUILDKITE_BRANCH',
      'BUILDKITE_COMMIT',
      'BUILDKITE_JOB_ID',
      'BUILDKITE_COMMAND',
      'BUILDKITE_MESSAGE',
      'BUILDKITE_BUILD_ID',
      'BUILDKITE_BUILD_URL',
      'BUILDKITE_AGENT_NAME',
      'BUILDKITE_BUILD_NUMBER',
      'BUILDKITE_ORGANIZATION_SLUG',
      'BUILDKITE_PIPELINE_SLUG',
      'BUILDKITE_PULL_REQUEST',
      'BUILDKITE_BUILD_CREATOR',
      'BUILDKITE_ARTIFACT_PATHS',
      'BUILDKITE_PIPELINE_PROVIDER',
      'BUILDKITE_BUILD_CREATOR_EMAIL',
    ];
    for (const key of example) expect(response.body.env).toHaveProperty(key);
    expect(response.body.env).toMatchObject({
      CI: 'true',
      BUILDKITE_JOB_ID: jobId,
      BUILDKITE_COMMAND: 'make build',
      BUILDKITE_BUILD_NUMBER: String(number),
      BUILDKITE_ORGANIZATION_SLUG: 'acme',
      BUILDKITE_PIPELINE_SLUG: 'web',
      BUILDKITE_AGENT_NAME: 'builder',
      BUILDKITE_BUILD_URL: `https://ci.test/acme/web/builds/${number}`,
      BUILDKITE_REPO: 'git@example.com:acme/web.git',
      BUILDKITE_PULL_REQUEST: 'false',
    });
  });

  it("merges the pipeline's env under the build's and the step's in a job's environment", async () => {
    const created = await world.call('POST', '/v2/organizations/acme/pipelines', {
      body: {
        name: 'env-layers',
        repository: 'git@example.com:acme/env-layers.git',
        configuration:
          'env:\n  SHARED: pipeline\n  ONLY_PIPELINE: p\n  BY_BUILD: pipeline\nsteps:\n  - command: make\n    env: { SHARED: step }\n',
      },
    });
    expect(created.status, created.text).toBe(201);
    const build = await world.createBuild('env-layers', { env: { BY_BUILD: 'build', ONLY_BUILD: 'b' } });
    const response = await world.call('GET', `${jobPath('env-layers', build.number, build.jobs[0].id)}/env`);
    expect(response.status).toBe(200);
    expect(response.body.env).toMatchObject({
      SHARED: 'step',
      ONLY_PIPELINE: 'p',
      BY_BUILD: 'build',
      ONLY_BUILD: 'b',
    });
  });

  it('retries a finished job: a new job like the examples, the old one retried', async () => {
    const build = await world.call('GET', `/v2/organizations/acme/pipelines/web/builds/${number}`);
    const response = await world.call('PUT', `${jobPath('web', number, jobId)}/retry`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(Object.keys(build.body.jobs[0]));
    expect(response.body).toMatchObject({
      state: 'scheduled',
      retries_count: 1,
      retry_type: 'manual',
      retry_source: { job_id: jobId, retry_type: 'manual' },
      exit_status: null,
    });
    const latest = await world.call('GET', `/v2/organizations/acme/pipelines/web/builds/${number}`);
    const retry = latest.body.jobs.find((job: { id: string }) => job.id === response.body.id);
    expect(retry.retry_source).toEqual({ job_id: jobId, retry_type: 'manual' });
    const all = await world.call(
      'GET',
      `/v2/organizations/acme/pipelines/web/builds/${number}?include_retried_jobs=true`,
    );
    const old = all.body.jobs.find((job: { id: string }) => job.id === jobId);
    expect(old).toMatchObject({ retried: true, retried_in_job_id: response.body.id, retry_source: null });
    const again = await world.call('PUT', `${jobPath('web', number, jobId)}/retry`);
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ message: 'This job has already been retried' });
  });

  it('refuses to retry a job that has not finished, and to unblock a command job', async () => {
    const { number: fresh, jobs } = await world.createBuild('web');
    const retry = await world.call('PUT', `${jobPath('web', fresh, jobs[0].id)}/retry`);
    expect(retry.status).toBe(422);
    expect(retry.body.message).toBe('This job cannot be retried when it is scheduled');
    const unblock = await world.call('PUT', `${jobPath('web', fresh, jobs[0].id)}/unblock`);
    expect(unblock.status).toBe(422);
    expect(unblock.body.message).toBe('This job cannot be unblocked when it is scheduled');
  });

  it('keeps a block step’s field values as the build’s meta-data, refusing a missing required one', async () => {
    const created = await world.call('POST', '/v2/organizations/acme/pipelines', {
      body: {
        name: 'Gated',
        repository: 'git@example.com:acme/gated.git',
        configuration: `steps:
  - block: Release
    fields:
      - text: Version
        key: version
      - select: Streams
        key: streams
        multiple: true
        default: [beta]
        options: [{ label: Beta, value: beta }, { label: Stable, value: stable }]
      - text: Note
        key: note
        required: false
  - command: echo go
`,
      },
    });
    expect(created.status).toBe(201);
    const { number: gated, jobs } = await world.createBuild('gated');
    const gate = `${jobPath('gated', gated, jobs[0].id)}/unblock`;
    const missing = await world.call('PUT', gate, { body: { fields: { note: 'n' } } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([
      { field: 'version', code: 'missing', message: 'Version is required' },
    ]);
    const stranger = await world.call('PUT', gate, {
      body: { fields: { version: '1.2', streams: 'beta\nnightly' } },
    });
    expect(stranger.status).toBe(422);
    const done = await world.call('PUT', gate, { body: { fields: { version: '1.2', other: 'x' } } });
    expect(done.status).toBe(200);
    const build = await world.call('GET', `/v2/organizations/acme/pipelines/gated/builds/${gated}`);
    // The select's default fills in; the blank optional field and unknown keys are not kept.
    expect(build.body.meta_data).toEqual({ version: '1.2', streams: 'beta' });
  });

  it('keeps neither the unblock nor any field’s meta-data when the build cannot take them all', async () => {
    const created = await world.call('POST', '/v2/organizations/acme/pipelines', {
      body: {
        name: 'Nearly full',
        repository: 'git@example.com:acme/nearly-full.git',
        configuration: `steps:
  - block: Release
    fields:
      - text: Version
        key: version
        required: false
      - text: Note
        key: note
        required: false
  - command: echo go
`,
      },
    });
    expect(created.status).toBe(201);
    const { id, number: full, jobs } = await world.createBuild('nearly-full');
    // One key short of the limit of 1000 (as jobs could have set them): the first field fits, the second not.
    const metaData = Object.fromEntries(Array.from({ length: 999 }, (_, index) => [`key-${index}`, 'x']));
    await world.server.database.sql.query('update builds set meta_data = $2 where id = $1', [
      id,
      JSON.stringify(metaData),
    ]);
    const gate = `${jobPath('nearly-full', full, jobs[0].id)}/unblock`;
    const buildPath = `/v2/organizations/acme/pipelines/nearly-full/builds/${full}`;

    const before = (await world.call('GET', buildPath)).body;
    const refused = await world.call('PUT', gate, { body: { fields: { version: '1.2', note: 'n' } } });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('A build may hold at most 1000 meta-data keys');
    const kept = (await world.call('GET', buildPath)).body;
    expect(kept.jobs[0].state).toBe('blocked');
    expect({ state: kept.state, blocked: kept.blocked }).toEqual({ state: before.state, blocked: true });
    expect(kept.meta_data).toEqual(metaData);

    const done = await world.call('PUT', gate, { body: { fields: { version: '1.2' } } });
    expect(done.status).toBe(200);
    const unblocked = (await world.call('GET', buildPath)).body;
    expect(unblocked.jobs[0].state).toBe('unblocked');
    expect(unblocked.meta_data).toEqual({ ...metaData, version: '1.2' });
  });

  it.each([
    ['log', 'GET', '/log', 'read_build_logs'],
    ['raw log', 'GET', '/log.txt', 'read_build_logs'],
    ['env', 'GET', '/env', 'read_job_env'],
    ['retry', 'PUT', '/retry', 'write_builds'],
    ['unblock', 'PUT', '/unblock', 'write_builds'],
    ['log deletion', 'DELETE', '/log', 'write_build_logs'],
  ] as const)('%s needs the %s scope', async (_name, method, suffix, scope) => {
    const others = (['read_builds', 'write_builds', 'read_build_logs', 'read_job_env'] as const).filter(
      (s) => s !== scope,
    );
    const token = await world.token('admin', { scopes: [...others] });
    const response = await world.call(method, `${jobPath('web', number, jobId)}${suffix}`, { token });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ message: `Your access token doesn't have the ${scope} scope` });
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe(scope);
  });

  it('answers 404 alike for a missing job, a job id that is no id, and a job of another build', async () => {
    const other = await world.createBuild('web');
    for (const id of [
      '00000000-0000-7000-8000-000000000000',
      'not-a-job',
      other.jobs[0].id,
      "'; drop table jobs; --",
    ]) {
      const response = await world.call('GET', `${jobPath('web', number, encodeURIComponent(id))}/log`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: 'No job found' });
    }
    const badBuild = await world.call('GET', `${jobPath('web', Number.NaN, jobId)}/log`);
    expect(badBuild.status).toBe(404);
  });

  it('hides jobs of pipelines the caller cannot see, and lets read-only members read but not retry', async () => {
    const other = await world.call('GET', `${jobPath('web', number, jobId)}/log`, {
      token: world.tokens.otherAdmin,
    });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ message: 'No organization found' });
    const { number: secretBuild, jobs } = await world.createBuild('secret');
    const hidden = await world.call('GET', `${jobPath('secret', secretBuild, jobs[0].id)}/log`, {
      token: world.tokens.member,
    });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: 'No pipeline found' });
    const { number: docsBuild, jobs: docsJobs } = await world.createBuild('docs');
    const read = await world.call('GET', `${jobPath('docs', docsBuild, docsJobs[0].id)}/log`, {
      token: world.tokens.member,
    });
    expect(read.status).toBe(200);
    expect(read.body.content).toBe('');
    const retry = await world.call('PUT', `${jobPath('docs', docsBuild, docsJobs[0].id)}/retry`, {
      token: world.tokens.member,
    });
    expect(retry.status).toBe(403);
  });

  it('answers 401 without a token', async () => {
    const response = await world.call('GET', `${jobPath('web', number, jobId)}/log`, { token: null });
    expect(response.status).toBe(401);
  });
});

describe('the agent protocol on /v3', () => {
  it('registers only with a registration token, and checks tags', async () => {
    expect((await v3('POST', '/register', null, {})).status).toBe(401);
    expect((await v3('POST', '/register', 'bkrt_nope', {})).status).toBe(401);
    // A user's API token is no registration token.
    expect((await v3('POST', '/register', world.tokens.admin, {})).status).toBe(401);
    const bad = await v3('POST', '/register', registrationToken, { meta_data: ['no equals sign'] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/key=value/);
    const malformed = await world.server.fetch('/v3/register', {
      method: 'POST',
      headers: { Authorization: `Token ${registrationToken}`, 'Content-Type': 'application/json' },
      body: '{nope',
    });
    expect(malformed.status).toBe(400);
    const ok = await v3('POST', '/register', registrationToken, {
      name: 'a1',
      meta_data: ['queue=default', 'os=linux'],
    });
    expect(ok.body).toMatchObject({
      name: 'a1',
      endpoint: 'https://api.ci.test/v3',
      meta_data: ['queue=default', 'os=linux'],
      ping_interval: expect.any(Number),
      job_status_interval: expect.any(Number),
      heartbeat_interval: expect.any(Number),
    });
    expect(ok.body.access_token).toMatch(/^bkat_/);
    const connected = await v3('POST', '/connect', ok.body.access_token, {});
    expect(connected.body.connection_state).toBe('connected');
    const heartbeat = await v3('POST', '/heartbeat', ok.body.access_token, {
      sent_at: '2026-01-01T00:00:00Z',
    });
    expect(heartbeat.body).toMatchObject({
      sent_at: '2026-01-01T00:00:00Z',
      received_at: expect.any(String),
    });
    expect((await v3('GET', '/ping', 'bkat_unknown')).status).toBe(401);
    expect((await v3('GET', '/ping', registrationToken)).status).toBe(401);
  });

  it('gives a job only to an agent whose tags satisfy its rules, one job per agent', async () => {
    const elsewhere = await register(['queue=elsewhere']);
    const { jobs } = await world.createBuild('api');
    // Other builds' jobs may wait too; this agent takes none of the default queue.
    expect((await v3('GET', '/ping', elsewhere)).body).toEqual({ action: 'idle' });

    const agent = await register(['queue=default']);
    const first = await v3('GET', '/ping', agent);
    expect(first.body.action).toBe('idle');
    expect(first.body.job).toMatchObject({ state: 'assigned', endpoint: 'https://api.ci.test/v3' });
    // Not accepted yet: offered again, and no second job.
    expect((await v3('GET', '/ping', agent)).body.job.id).toBe(first.body.job.id);
    const accepted = await v3('PUT', `/jobs/${first.body.job.id}/accept`, agent);
    expect(accepted.body).toMatchObject({ id: first.body.job.id, state: 'accepted' });
    expect(accepted.body.env.BUILDKITE_JOB_ID).toBe(first.body.job.id);
    expect((await v3('GET', '/ping', agent)).body).toEqual({ action: 'idle' });
    expect(jobs.length).toBeGreaterThan(0);

    // Another agent cannot touch it, and answers as if it did not exist.
    const intruder = await register();
    const stolen = await v3('PUT', `/jobs/${first.body.job.id}/start`, intruder);
    expect(stolen.status).toBe(404);
    expect(stolen.body).toEqual({ message: 'No job found' });
  });

  /** Finishes every job of the default queue that earlier tests left, so that counts below are exact. */
  async function drainDefaultQueue() {
    const drain = await register();
    for (;;) {
      const ping = await v3('GET', '/ping', drain);
      if (!ping.body.job) break;
      await v3('PUT', `/jobs/${ping.body.job.id}/accept`, drain);
      await v3('PUT', `/jobs/${ping.body.job.id}/finish`, drain, { exit_status: '0' });
    }
  }

  it('offers an agent its job however many older jobs wait for a queue or a tag nobody has', async () => {
    await drainDefaultQueue();
    const crowd = await world.call('POST', '/v2/organizations/acme/pipelines', {
      body: {
        name: 'crowd',
        repository: 'git@example.com:acme/crowd.git',
        // A queue no agent serves, and a tag no agent has: a first batch of candidates, read past.
        configuration: `steps:\n${['queue: nobody', 'os: nowhere'].map((rule) => `  - command: "true"\n    agents: { ${rule} }\n    parallelism: 100\n`).join('')}`,
        cluster_id: null,
      },
    });
    expect(crowd.status).toBe(201);
    expect((await world.createBuild('crowd')).jobs).toHaveLength(200);
    const { number } = await world.createBuild('api');
    const ping = await v3('GET', '/ping', await register(['queue=default']));
    expect(ping.body.job).toBeDefined();
    const offered = await world.call('GET', `/v2/organizations/acme/pipelines/api/builds/${number}`);
    expect(offered.body.jobs.map((job: { id: string }) => job.id)).toContain(ping.body.job.id);
  });

  it('never gives one job to two agents pinging at once', async () => {
    await drainDefaultQueue();
    const pipeline = await world.call('POST', '/v2/organizations/acme/pipelines', {
      body: {
        name: 'race',
        repository: 'git@example.com:acme/race.git',
        configuration: 'steps:\n  - command: "true"\n    parallelism: 5\n',
        cluster_id: null,
      },
    });
    expect(pipeline.status).toBe(201);
    await world.createBuild('race');
    const agents = await Promise.all(Array.from({ length: 12 }, () => register()));
    const pings = await Promise.all(agents.map((agent) => v3('GET', '/ping', agent)));
    const given = pings.map((ping) => ping.body.job?.id).filter(Boolean);
    expect(given).toHaveLength(5);
    expect(new Set(given).size).toBe(5);
  });

  it('refuses bad chunks and finishes, takes gzip chunks, and tells a canceled job to stop', async () => {
    const { number } = await world.createBuild('public');
    const agent = await register();
    let job: { id: string } | undefined;
    for (;;) {
      const ping = await v3('GET', '/ping', agent);
      job = ping.body.job;
      if (!job) throw new Error('no job offered');
      await v3('PUT', `/jobs/${job.id}/accept`, agent);
      const location = await world.server.database.sql.query<{ number: number }>(
        'select b.number from jobs j join builds b on b.id = j.build_id join pipelines p on p.id = b.pipeline_id where j.id = $1 and p.slug = $2',
        [job.id, 'public'],
      );
      if (location[0]?.number === number) break;
      await v3('PUT', `/jobs/${job.id}/finish`, agent, { exit_status: '0' });
    }
    await v3('PUT', `/jobs/${job.id}/start`, agent, {});
    const raw = (query: string, body: Uint8Array, headers: Record<string, string> = {}) =>
      v3('POST', `/jobs/${job?.id}/chunks${query}`, agent, body, {
        'Content-Type': 'application/octet-stream',
        ...headers,
      });
    expect((await raw('?sequence=x&offset=0', new Uint8Array([65]))).status).toBe(400);
    expect((await raw('?offset=0', new Uint8Array([65]))).status).toBe(400);
    expect(
      (await raw('?sequence=0&offset=0', new Uint8Array([1, 2, 3]), { 'Content-Encoding': 'gzip' })).status,
    ).toBe(400);
    expect(
      (
        await raw('?sequence=0&offset=0', new Uint8Array(gzipSync('zipped\n')), {
          'Content-Encoding': 'gzip',
        })
      ).status,
    ).toBe(204);
    // The same sequence again is ignored, not doubled.
    expect((await raw('?sequence=0&offset=0', new Uint8Array(Buffer.from('zipped\n')))).status).toBe(204);
    expect((await raw('?sequence=1&offset=7', new Uint8Array(Buffer.from('plain\n')))).status).toBe(204);

    const running = await world.call('GET', '/v2/organizations/acme/pipelines/public');
    expect(running.body.running_jobs_count).toBeGreaterThanOrEqual(1);

    const cancel = await world.call('PUT', `/v2/organizations/acme/pipelines/public/builds/${number}/cancel`);
    expect(cancel.body.state).toBe('canceled');
    expect((await v3('GET', `/jobs/${job.id}`, agent)).body).toEqual({ state: 'canceling' });
    expect((await v3('PUT', `/jobs/${job.id}/finish`, agent, { exit_status: 'abc' })).status).toBe(400);
    const unstorable = await v3('PUT', `/jobs/${job.id}/finish`, agent, {
      exit_status: '-1',
      signal: 'SIG\u0000',
    });
    expect(unstorable.status).toBe(400);
    expect(unstorable.body).toEqual({
      message: "signal can't contain NUL characters or unpaired surrogates",
    });
    const finish = await v3('PUT', `/jobs/${job.id}/finish`, agent, {
      exit_status: '-1',
      signal: 'SIGTERM',
      signal_reason: 'cancel',
    });
    expect(finish.status).toBe(200);
    expect(finish.body.state).toBe('canceled');
    expect((await raw('?sequence=2&offset=13', new Uint8Array([65]))).status).toBe(422);
    const again = await v3('PUT', `/jobs/${job.id}/finish`, agent, { exit_status: '0' });
    expect(again.status).toBe(422);

    const log = await world.call('GET', `${jobPath('public', number, job.id)}/log.txt`);
    expect(log.text).toBe('zipped\nplain\n');
  });
});
