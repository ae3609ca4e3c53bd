import { BuildWire } from '@ci/trpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { example, ISO_MS_Z, JSON_TYPE, walkPages } from '../support/answers';
import { API_URL, startWorld, WEB_URL, type World } from '../support/world';

const API = API_URL;
const WEB = WEB_URL;
const SHA = (c: string) => c.repeat(40);

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read as the untyped JSON a client sees
type Json = Record<string, any>;
const keys = (value: unknown) => new Set(Object.keys(value as Json));
const decode = (id: string) => Buffer.from(id, 'base64').toString('utf8');

let world: World;
const path = (pipeline: string, rest = '') => `/v2/organizations/acme/pipelines/${pipeline}/builds${rest}`;
const sql = (text: string, params: unknown[] = []) => world.server.database.sql.query(text, params);

beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world?.close());

describe('create', () => {
  it('answers 201 with a scheduled build numbered from 1, jobs from the pipeline steps and the creator', async () => {
    const response = await world.call('POST', path('web'), {
      body: { commit: SHA('c'), branch: 'main', message: 'First' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    const build = response.body;
    expect(build).toMatchObject({
      number: 1,
      state: 'scheduled',
      blocked: false,
      commit: SHA('c'),
      branch: 'main',
      message: 'First',
      source: 'api',
      env: {},
      meta_data: {},
      pull_request: null,
      author: null,
      blocked_state: '',
      tag: null,
      rebuilt_from: null,
      cancel_reason: null,
      started_at: null,
      finished_at: null,
      url: `${API}/v2/organizations/acme/pipelines/web/builds/1`,
      web_url: `${WEB}/acme/web/builds/1`,
      creator: { id: world.users.admin.id, name: 'Ada Admin', email: 'admin@acme.test' },
    });
    expect(decode(build.graphql_id)).toBe(`Build---${build.id}`);
    expect(build.created_at).toMatch(ISO_MS_Z);
    expect(build.scheduled_at).toBe(build.created_at);
    // build, wait, test × parallelism 2: jobs behind the wait wait for it, as in the public API.
    expect(build.jobs.map((job: Json) => [job.type, job.step_key, job.state])).toEqual([
      ['script', 'build', 'scheduled'],
      ['waiter', null, 'waiting'],
      ['script', 'test', 'waiting'],
      ['script', 'test', 'waiting'],
    ]);
    const [first] = build.jobs;
    expect(decode(first.graphql_id)).toBe(`Job---${first.id}`);
    expect(first).toMatchObject({
      command: 'make build',
      agent_query_rules: ['queue=default'],
      web_url: `${WEB}/acme/web/builds/1#${first.id}`,
      log_url: `${API}/v2/organizations/acme/pipelines/web/builds/1/jobs/${first.id}/log`,
      raw_log_url: `${API}/v2/organizations/acme/pipelines/web/builds/1/jobs/${first.id}/log.txt`,
      agent: null,
      scheduled_at: build.created_at,
    });
    expect(build.jobs[2].parallel_group_index).toBe(0);
    expect(build.jobs[3]).toMatchObject({ parallel_group_index: 1, parallel_group_total: 2 });
    expect(() => BuildWire.parse(build)).not.toThrow();
  });

  it('keeps step ids stable: the same step gives the same step.id in every build', async () => {
    const one = await world.createBuild('api');
    const two = await world.createBuild('api');
    expect(two.number).toBe(one.number + 1);
    expect(two.jobs.map((job: Json) => job.step.id)).toEqual(one.jobs.map((job: Json) => job.step.id));
    expect(two.jobs[0].id).not.toBe(one.jobs[0].id);
  });

  it("keeps or leaves out steps whose if matches the build's message with =~ and !~", async () => {
    const created = await world.call('POST', '/v2/organizations/acme/pipelines', {
      body: {
        name: 'regex-if',
        repository: 'git@example.com:acme/regex-if.git',
        configuration: `steps:
  - label: always
    command: make
  - label: deploy
    command: make deploy
    if: build.message =~ /^deploy\\b/i && build.message !~ /\\[skip deploy\\]/
  - label: docs
    command: make docs
    if: build.message =~ /(a+)+$/
`,
      },
    });
    expect(created.status, created.text).toBe(201);
    const labels = async (message: string) => {
      const build = await world.createBuild('regex-if', { message });
      return build.jobs.map((job: Json) => job.name);
    };
    expect(await labels('Deploy v2 to production')).toEqual(['always', 'deploy']);
    expect(await labels('deploy now [skip deploy]')).toEqual(['always']);
    expect(await labels(`redeploy ${'a'.repeat(9_000)}`)).toEqual(['always', 'docs']);
  });

  it('takes every optional property of the body', async () => {
    const build = await world.createBuild('web', {
      commit: 'v1.2.3',
      branch: 'feature/x',
      message: 'With everything ✨',
      author: { name: 'Grace', email: 'grace@example.com' },
      clean_checkout: true,
      env: { FOO: 'bar' },
      meta_data: { release: 'yes', 'weird key': "'; drop table builds; --" },
      pull_request_id: 42,
      pull_request_base_branch: 'main',
      pull_request_repository: 'git@example.com:fork/web.git',
      ignore_pipeline_branch_filters: false,
    });
    expect(build).toMatchObject({
      commit: 'v1.2.3',
      branch: 'feature/x',
      message: 'With everything ✨',
      env: { FOO: 'bar' },
      meta_data: { release: 'yes', 'weird key': "'; drop table builds; --" },
      pull_request: { id: '42', base: 'main', repository: 'git@example.com:fork/web.git' },
      creator: { email: 'admin@acme.test' },
    });
  });

  it('refuses a branch outside the pipeline branch filter unless told to ignore it', async () => {
    const refused = await world.call('POST', path('releases'), {
      body: { commit: SHA('d'), branch: 'feature/nope' },
    });
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body)).toEqual(['message']);
    expect(refused.body.message).toContain('feature/nope');
    expect((await world.createBuild('releases', { branch: 'release/1.0' })).number).toBe(1);
    const ignored = await world.createBuild('releases', {
      branch: 'feature/nope',
      ignore_pipeline_branch_filters: true,
    });
    expect(ignored.number).toBe(2);
  });

  it('refuses an archived pipeline with 422 {message}', async () => {
    const response = await world.call('POST', path('archived'), {
      body: { commit: SHA('e'), branch: 'main' },
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ message: expect.stringContaining('archived') });
  });

  it('answers 422 Validation Failed with field errors, and creates nothing', async () => {
    const before = await sql(`select count(*)::int as n from builds`);
    const response = await world.call('POST', path('web'), {
      body: { branch: '', env: { A: 1 }, meta_data: 'x' },
    });
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('Validation Failed');
    const fields = response.body.errors.map((error: Json) => [error.field, error.code]);
    expect(fields).toEqual(
      expect.arrayContaining([
        ['commit', 'missing'],
        ['branch', 'missing'],
        ['env', 'invalid'],
        ['meta_data', 'invalid'],
      ]),
    );
    for (const error of response.body.errors)
      expect(keys(error)).toEqual(new Set(['field', 'code', 'message']));
    expect(await sql(`select count(*)::int as n from builds`)).toEqual(before);
  });
});

describe('get', () => {
  it('answers the build with the single-build pipeline form and job_state_counts', async () => {
    const created = await world.createBuild('web', { branch: 'get-me' });
    const response = await world.call('GET', path('web', `/${created.number}`));
    expect(response.status).toBe(200);
    const build = response.body;
    expect(build.id).toBe(created.id);
    expect(build.pipeline.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
    expect(build.pipeline.web_url).toBe(`${WEB}/acme/web`);
    expect(build.pipeline.provider.settings.repository).toBe('git@example.com:acme/web.git');
    expect(build.job_state_counts).toEqual({ total: 4, states: { scheduled: 1, waiting: 3 } });
    for (const job of build.jobs) expect(decode(job.graphql_id)).toBe(`Job---${job.id}`);
    expect(decode(build.pipeline.graphql_id)).toBe(`Pipeline---${world.pipelines.web!.id}`);
    expect(decode(build.creator.graphql_id)).toBe(`User---${world.users.admin.id}`);
  });

  it('answers 404 No build found for a number that does not exist', async () => {
    const response = await world.call('GET', path('web', '/9999'));
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: 'No build found' });
  });

  it('shows retried jobs only with include_retried_jobs=true', async () => {
    const build = await world.createBuild('web', { branch: 'retried' });
    const original = build.jobs[0];
    // The first job ran and was retried: a new run of the same step replaces it.
    await sql(`update jobs set retried = true, state = 'failed' where id = $1`, [original.id]);
    await sql(
      `insert into jobs (id, build_id, step_id, position, type, name, step_key, command, state, agent_query_rules,
         env, created_at, scheduled_at, runnable_at)
       select gen_random_uuid(), build_id, step_id, position, type, name, step_key, command, 'scheduled',
         agent_query_rules, env, now(), now(), now() from jobs where id = $1`,
      [original.id],
    );
    const plain = await world.call('GET', path('web', `/${build.number}`));
    expect(plain.body.jobs).toHaveLength(4);
    expect(plain.body.jobs.map((job: Json) => job.id)).not.toContain(original.id);
    const all = await world.call('GET', path('web', `/${build.number}?include_retried_jobs=true`));
    expect(all.body.jobs).toHaveLength(5);
    expect(all.body.jobs.find((job: Json) => job.id === original.id)).toMatchObject({ retried: true });
  });
});

describe('cancel', () => {
  it('cancels a scheduled build and its unfinished jobs, then refuses a second cancel', async () => {
    const build = await world.createBuild('web', { branch: 'cancel-me' });
    const response = await world.call('PUT', path('web', `/${build.number}/cancel`));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: build.id, state: 'canceled' });
    expect(response.body.finished_at).toMatch(ISO_MS_Z);
    for (const job of response.body.jobs) expect(job.state).toBe('canceled');
    const again = await world.call('PUT', path('web', `/${build.number}/cancel`));
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ message: expect.stringMatching(/already/) });
  });

  it.each([
    ['running', 200],
    ['failing', 200],
    ['passed', 422],
    ['failed', 422],
    ['canceling', 422],
    ['skipped', 422],
    ['not_run', 422],
  ])('from %s answers %i', async (state, status) => {
    const build = await world.createBuild('web', { branch: `cancel-from-${state}` });
    await sql(`update builds set state = $2 where id = $1`, [build.id, state]);
    const response = await world.call('PUT', path('web', `/${build.number}/cancel`));
    expect(response.status).toBe(status);
    const [row] = await sql(`select state from builds where id = $1`, [build.id]);
    expect(row?.state).toBe(status === 200 ? 'canceled' : state);
    if (status === 422) expect(Object.keys(response.body)).toEqual(['message']);
  });
});

describe('rebuild', () => {
  it('creates a new scheduled build copying the original, with rebuilt_from pointing back', async () => {
    const original = await world.createBuild('web', {
      commit: SHA('f'),
      branch: 'rebuild-me',
      message: 'Original',
      env: { A: 'b' },
      meta_data: { k: 'v' },
      pull_request_id: 7,
    });
    await world.call('PUT', path('web', `/${original.number}/cancel`));
    const response = await world.call('PUT', path('web', `/${original.number}/rebuild`));
    expect(response.status).toBe(200);
    const rebuilt = response.body;
    expect(rebuilt.number).toBeGreaterThan(original.number);
    expect(rebuilt).toMatchObject({
      state: 'scheduled',
      commit: SHA('f'),
      branch: 'rebuild-me',
      message: 'Original',
      env: { A: 'b' },
      meta_data: { k: 'v' },
      pull_request: { id: '7' },
      source: 'api',
      rebuilt_from: { id: original.id, number: original.number, url: original.url },
    });
    const got = await world.call('GET', path('web', `/${rebuilt.number}`));
    expect(got.body.rebuilt_from).toEqual(rebuilt.rebuilt_from);
  });
});

describe('lists and filters', () => {
  const pipeline = 'public';
  const made: Json[] = [];
  beforeAll(async () => {
    // Eight builds with distinct branches, commits, creators, meta-data and states.
    const memberToken = world.tokens.member;
    for (let i = 0; i < 8; i++) {
      made.push(
        await world.createBuild(
          pipeline,
          {
            commit: SHA(String(i)),
            branch: i % 2 ? 'main' : `feature/${i}`,
            meta_data: { parity: i % 2 ? 'odd' : 'even', index: String(i) },
          },
          { token: i < 6 ? world.tokens.admin : memberToken },
        ),
      );
    }
    const states = ['passed', 'failed', 'running', 'canceled', 'failing', 'skipped', 'scheduled', 'not_run'];
    for (const [i, build] of made.entries()) {
      const finished = ['passed', 'failed', 'canceled', 'skipped', 'not_run'].includes(states[i]!);
      await sql(
        `update builds set state = $2, finished_at = case when $3 then created_at + interval '1 minute' end where id = $1`,
        [build.id, states[i], finished],
      );
    }
    // Build #1 is blocked after passing (rule B1).
    await sql(`update builds set state = 'blocked', blocked_state = 'passed' where id = $1`, [made[0]!.id]);
  });

  const numbers = async (query: string) => {
    const response = await world.call('GET', `${path(pipeline)}?${query}`);
    expect(response.status, response.text).toBe(200);
    return response.body.map((build: Json) => build.number);
  };

  it('lists newest first', async () => {
    expect(await numbers('')).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it('filters by branch, one or several, and with a * wildcard', async () => {
    expect(await numbers('branch=main')).toEqual([8, 6, 4, 2]);
    expect(await numbers('branch[]=feature/0&branch[]=feature/2')).toEqual([3, 1]);
    expect(await numbers('branch=feature/*')).toEqual([7, 5, 3, 1]);
  });

  it('filters by full commit SHA only; a shortened SHA matches nothing', async () => {
    expect(await numbers(`commit=${SHA('3')}`)).toEqual([4]);
    expect(await numbers(`commit=${SHA('3').slice(0, 7)}`)).toEqual([]);
  });

  it('filters by state in every array encoding, finished being passed, failed, blocked and canceled', async () => {
    expect(await numbers('state=failed')).toEqual([2]);
    expect(await numbers('state=running&state=failing')).toEqual([5, 3]);
    expect(await numbers('state[]=running&state[]=failing')).toEqual([5, 3]);
    expect(await numbers('state[0]=running&state[1]=failing')).toEqual([5, 3]);
    expect(await numbers('state%5B%5D=running&state%5B%5D=failing')).toEqual([5, 3]);
    expect(await numbers('state=finished')).toEqual([4, 2, 1]);
    expect(await numbers('state=blocked')).toEqual([1]);
  });

  it('shows a blocked build with its last state and blocked: true (rule B1)', async () => {
    const response = await world.call('GET', `${path(pipeline)}?state=blocked`);
    expect(response.body[0]).toMatchObject({ number: 1, state: 'passed', blocked: true });
    const single = await world.call('GET', path(pipeline, '/1'));
    expect(single.body).toMatchObject({ state: 'passed', blocked: true });
  });

  it('filters by creator', async () => {
    expect(await numbers(`creator=${world.users.member.id}`)).toEqual([8, 7]);
  });

  it('filters by meta_data, several keys AND-ed', async () => {
    expect(await numbers('meta_data[parity]=odd')).toEqual([8, 6, 4, 2]);
    expect(await numbers('meta_data[parity]=odd&meta_data%5Bindex%5D=3')).toEqual([4]);
  });

  it('filters by created_from (inclusive) and created_to (exclusive)', async () => {
    const [row] = await sql(
      `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at from builds where id = $1`,
      [made[3]!.id],
    );
    const at = encodeURIComponent(row!.at as string);
    expect(await numbers(`created_from=${at}`)).toEqual([8, 7, 6, 5, 4]);
    expect(await numbers(`created_to=${at}`)).toEqual([3, 2, 1]);
  });

  it('filters by finished_from', async () => {
    const [row] = await sql(
      `select to_char(finished_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at from builds where id = $1`,
      [made[3]!.id],
    );
    expect(await numbers(`finished_from=${encodeURIComponent(row!.at as string)}`)).toEqual([8, 6, 4]);
  });

  it('drops jobs and the pipeline on request', async () => {
    const response = await world.call('GET', `${path(pipeline)}?exclude_jobs=true&exclude_pipeline=true`);
    for (const build of response.body) {
      expect(build).not.toHaveProperty('jobs');
      expect(build).not.toHaveProperty('pipeline');
    }
  });

  it('walks every page by following Link next to the end', async () => {
    const { pages, items } = await walkPages(
      (next) => world.call('GET', next),
      `${path(pipeline)}?per_page=3&branch[]=main&branch[]=feature/*`,
    );
    const link = pages[0]?.headers.get('link') ?? '';
    expect(link).toContain(`${API}${path(pipeline)}?branch%5B%5D=main`);
    expect(link).toContain('page=3&per_page=3>; rel="last"');
    expect(link).not.toContain('rel="first"');
    expect(pages).toHaveLength(3);
    expect(items.map((build) => (build as Json).number)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it('answers [] past the last page, and no Link when one page holds everything', async () => {
    const past = await world.call('GET', `${path(pipeline)}?page=9&per_page=5`);
    expect(past.body).toEqual([]);
    expect(past.headers.get('link')).toContain('rel="prev"');
    const one = await world.call('GET', `${path(pipeline)}?per_page=100`);
    expect(one.body).toHaveLength(8);
    expect(one.headers.get('link')).toBeNull();
  });

  it('lists for the organization and for everything, with the list form of the pipeline', async () => {
    const organization = await world.call('GET', '/v2/organizations/acme/builds?per_page=100');
    expect(organization.status).toBe(200);
    const all = await world.call('GET', '/v2/builds?per_page=100');
    expect(all.body.map((build: Json) => build.id)).toEqual(organization.body.map((build: Json) => build.id));
    const [first] = all.body;
    expect(first.pipeline.created_at).toMatch(ISO_MS_Z);
    expect(first.pipeline.steps).toBeInstanceOf(Array);
    const numbered = organization.body.filter((build: Json) => build.pipeline.slug === pipeline);
    expect(numbered.map((build: Json) => build.number)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it('shows the pipeline list form in a pipeline list: settings, web_url, branch configuration', async () => {
    const response = await world.call('GET', path('releases'));
    const [build] = response.body;
    expect(build.pipeline).toMatchObject({
      web_url: `${WEB}/acme/releases`,
      branch_configuration: 'main release/*',
      provider: { settings: { trigger_mode: 'code' } },
    });
  });

  it("shows each build's pipeline creator as the pipeline's own GET does, in every list", async () => {
    await sql(
      `update pipelines set created_by_id = (select id from users where email = 'admin@acme.test')
       where slug = $1`,
      [pipeline],
    );
    const organization = await world.call('GET', '/v2/organizations/acme/builds?per_page=100');
    const creators = [];
    for (const slug of [pipeline, 'releases']) {
      const own = await world.call('GET', `/v2/organizations/acme/pipelines/${slug}`);
      creators.push(own.body.created_by);
      const listed = await world.call('GET', path(slug));
      const ofOrganization = organization.body.filter((build: Json) => build.pipeline.slug === slug);
      expect(listed.body.length, slug).toBeGreaterThan(0);
      expect(ofOrganization.length, slug).toBeGreaterThan(0);
      for (const build of [...listed.body, ...ofOrganization]) {
        expect(build.pipeline.created_by).toEqual(own.body.created_by);
      }
    }
    // One pipeline made by a user, one with no creator.
    expect(creators).toEqual([expect.objectContaining({ email: expect.any(String) }), null]);
  });
});

describe('rule B2 and key sets', () => {
  it('shows webhook_url to admins and manage_build_and_read members only', async () => {
    const build = await world.createBuild('web', { branch: 'b2' });
    const asAdmin = await world.call('GET', path('web', `/${build.number}`));
    expect(asAdmin.body.pipeline.provider.webhook_url).toMatch(
      /^https:\/\/api\.ci\.test\/webhooks\/deliver\//,
    );
    const asManager = await world.call('GET', path('web', `/${build.number}`), {
      token: world.tokens.member,
    });
    expect(asManager.body.pipeline.provider.webhook_url).toBe(asAdmin.body.pipeline.provider.webhook_url);
    const apiBuild = await world.createBuild('api', { branch: 'b2' });
    const asBuilder = await world.call('GET', path('api', `/${apiBuild.number}`), {
      token: world.tokens.member,
    });
    expect(asBuilder.body.pipeline.provider.webhook_url).toBe('');
  });

  it.each([
    ['create', 'builds-create.json'],
    ['get', 'builds-get.json'],
    ['list', 'builds-list.json'],
    ['cancel', 'builds-cancel.json'],
    ['rebuild', 'builds-rebuild.json'],
  ])('%s has every key of %s', async (operation, file) => {
    const created = await world.createBuild('web', { branch: `keys-${operation}` });
    const responses: Record<string, () => Promise<Json>> = {
      create: async () => created,
      get: async () => (await world.call('GET', path('web', `/${created.number}`))).body,
      list: async () => (await world.call('GET', `${path('web')}?branch=keys-list`)).body[0],
      cancel: async () => (await world.call('PUT', path('web', `/${created.number}/cancel`))).body,
      rebuild: async () => (await world.call('PUT', path('web', `/${created.number}/rebuild`))).body,
    };
    const ours = await responses[operation]!();
    const reference = example(file) as Json;
    // Responses are a superset of every source (decisions.md): more keys are fine, none may lack.
    const same = (actual: unknown, expected: unknown) => {
      const missing = [...keys(expected)].filter((key) => !keys(actual).has(key));
      expect(missing).toEqual([]);
    };
    same(ours, reference);
    same(ours.jobs[0], reference.jobs[0]);
    same(ours.creator, reference.creator);
    same(ours.pipeline, reference.pipeline);
    same(ours.pipeline.provider, reference.pipeline.provider);
    expect(() => BuildWire.parse(ours)).not.toThrow();
  });
});

describe('archived pipelines', () => {
  it('refuse a rebuild with 422 {message}, like a create', async () => {
    await sql(`update pipelines set archived_at = null where slug = 'archived'`);
    const build = await world.createBuild('archived', { branch: 'before-archiving' });
    await sql(`update pipelines set archived_at = now() where slug = 'archived'`);
    const response = await world.call('PUT', path('archived', `/${build.number}/rebuild`));
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ message: expect.stringContaining('archived') });
    // Its builds stay readable and cancelable.
    expect((await world.call('GET', path('archived', `/${build.number}`))).status).toBe(200);
    expect((await world.call('PUT', path('archived', `/${build.number}/cancel`))).status).toBe(200);
  });
});
