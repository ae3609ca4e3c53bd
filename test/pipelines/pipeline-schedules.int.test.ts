import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ISO_MS_Z } from '../support/answers';
import { API_URL, type GraphqlWorld, startGraphqlWorld } from '../support/graphql-world';

/**
 * Pipeline schedules through the real HTTP server and PostgreSQL: REST (an extension), GraphQL as the
 * public schema (the Terraform provider's own documents), and the tick that makes their builds, run here
 * by calling the background use case (the server processes' runner is tested in
 * pipeline-schedules-processes.int.test.ts).
 */

type Json = Record<string, unknown>;

let world: GraphqlWorld;
beforeAll(async () => {
  world = await startGraphqlWorld();
});
afterAll(() => world?.close());

const pipelinePath = (slug: string) => `/v2/organizations/acme/pipelines/${slug}`;
const schedulesPath = (pipeline: string) => `${pipelinePath(pipeline)}/schedules`;

async function makeSchedule(pipeline: string, body: Json) {
  const response = await world.call('POST', schedulesPath(pipeline), { body });
  expect(response.status, response.text).toBe(201);
  return response.body as Json & { id: string; graphql_id: string };
}

/** Makes the schedule's next tick a past one, as if its time had come while the server was down. */
async function makeDue(id: string, at = '2020-01-01T00:00:00Z') {
  await world.server.database.sql.query('update pipeline_schedules set next_build_at = $2 where id = $1', [
    id,
    at,
  ]);
}

const buildsOf = async (pipeline: string) =>
  (await world.call('GET', `${pipelinePath(pipeline)}/builds`)).body as Json[];

describe('REST /v2/organizations/{org}/pipelines/{pipeline}/schedules', () => {
  it('makes, reads, changes and deletes a schedule', async () => {
    const made = await makeSchedule('web', {
      label: 'Nightly',
      cronline: '0 2 * * * Europe/London',
      branch: 'main',
      env: { DEPLOY: 'no' },
    });
    expect(made).toEqual({
      id: expect.any(String),
      graphql_id: expect.any(String),
      url: `${API_URL}/v2/organizations/acme/pipelines/web/schedules/${made.id}`,
      label: 'Nightly',
      cronline: '0 2 * * * Europe/London',
      branch: 'main',
      commit: null,
      message: null,
      env: { DEPLOY: 'no' },
      enabled: true,
      next_build_at: expect.stringMatching(ISO_MS_Z),
      failed_at: null,
      failed_message: null,
      created_at: expect.stringMatching(ISO_MS_Z),
    });
    expect(new Date(made.next_build_at as string).getTime()).toBeGreaterThan(Date.now());
    expect((await world.call('GET', `${schedulesPath('web')}/${made.id}`)).body).toEqual(made);
    expect((await world.call('GET', schedulesPath('web'))).body).toContainEqual(made);

    const disabled = await world.call('PATCH', `${schedulesPath('web')}/${made.id}`, {
      body: { enabled: false, message: 'Night build' },
    });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body).toMatchObject({
      enabled: false,
      next_build_at: null,
      message: 'Night build',
      branch: 'main',
    });
    const enabled = await world.call('PATCH', `${schedulesPath('web')}/${made.id}`, {
      body: { enabled: true, cronline: '@hourly' },
    });
    expect(enabled.body).toMatchObject({ enabled: true, cronline: '@hourly' });
    expect(new Date(enabled.body.next_build_at).getUTCMinutes()).toBe(0);

    expect((await world.call('DELETE', `${schedulesPath('web')}/${made.id}`)).status).toBe(204);
    expect((await world.call('GET', `${schedulesPath('web')}/${made.id}`)).status).toBe(404);
  });

  it('answers 422 naming an invalid cron expression, and refuses env that is not an object of strings', async () => {
    const invalid = await world.call('POST', schedulesPath('web'), {
      body: { label: 'Bad', cronline: '61 * * * *' },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.message).toContain('cronline "61 * * * *" is not a valid cron expression');
    const env = await world.call('POST', schedulesPath('web'), {
      body: { label: 'Bad', cronline: '@daily', env: { A: 1 } },
    });
    expect(env.status).toBe(422);
    expect(env.body.message).toContain('env.A must be a string');
    const blank = await world.call('POST', schedulesPath('web'), { body: {} });
    expect(blank.status).toBe(422);
    expect(blank.body.message).toBe("Validation Failed: label can't be blank; cronline can't be blank");
    expect((await world.call('GET', schedulesPath('web'))).body).toEqual([]);
  });

  it('answers 404 for an unknown pipeline or schedule, and 403/404 as pipelines do', async () => {
    expect((await world.call('GET', schedulesPath('nope'))).status).toBe(404);
    const unknown = await world.call('GET', `${schedulesPath('web')}/0190a0a0-0000-7000-8000-000000000000`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Pipeline schedule not found' });
    // `api` is build_and_read for the member: readable, not editable.
    expect((await world.call('GET', schedulesPath('api'), { token: world.tokens.member })).status).toBe(200);
    const refused = await world.call('POST', schedulesPath('api'), {
      token: world.tokens.member,
      body: { label: 'x', cronline: '@daily' },
    });
    expect(refused.status).toBe(403);
    expect((await world.call('GET', schedulesPath('secret'), { token: world.tokens.member })).status).toBe(
      404,
    );
    // `web` is manage_build_and_read for the member: they may manage its schedules.
    const managed = await world.call('POST', schedulesPath('web'), {
      token: world.tokens.member,
      body: { label: 'Member', cronline: '@weekly' },
    });
    expect(managed.status, managed.text).toBe(201);
    await world.call('DELETE', `${schedulesPath('web')}/${managed.body.id}`);
  });
});

describe('the tick', () => {
  it('makes one build for a due schedule, source schedule, and moves to the next tick after now', async () => {
    const schedule = await makeSchedule('docs', {
      label: 'Every minute',
      cronline: '* * * * *',
      commit: 'abc123',
      message: 'Tick',
      env: { FROM: 'schedule' },
    });
    await makeDue(schedule.id);
    const before = (await buildsOf('docs')).length;
    expect(await world.server.useCases.background.runDueSchedules(10)).toBe(1);
    // Missed ticks after downtime make one catch-up build, not one per tick: nothing is due now.
    expect(await world.server.useCases.background.runDueSchedules(10)).toBe(0);
    const builds = await buildsOf('docs');
    expect(builds.length).toBe(before + 1);
    expect(builds[0]).toMatchObject({
      source: 'schedule',
      creator: null,
      commit: 'abc123',
      message: 'Tick',
      env: { FROM: 'schedule' },
    });
    const after = await world.call('GET', `${schedulesPath('docs')}/${schedule.id}`);
    expect(new Date(after.body.next_build_at).getTime()).toBeGreaterThan(Date.now() - 1000);
    expect(after.body.failed_at).toBeNull();

    const graphql = await world.gql(
      `query ($slug: ID!) { build(slug: $slug) { source { name ... on BuildSourceSchedule { pipelineSchedule { uuid label } } } } }`,
      { slug: `acme/docs/${builds[0]?.number}` },
    );
    expect(graphql.body).toEqual({
      data: {
        build: {
          source: { name: 'schedule', pipelineSchedule: { uuid: schedule.id, label: 'Every minute' } },
        },
      },
    });
    const made = await world.gql(
      `query ($slug: ID!) { pipelineSchedule(slug: $slug) { builds(first: 5) { count edges { node { number } } } } }`,
      { slug: `acme/docs/${schedule.id}` },
    );
    expect(made.body).toEqual({
      data: {
        pipelineSchedule: { builds: { count: 1, edges: [{ node: { number: builds[0]?.number } }] } },
      },
    });
    await world.call('DELETE', `${schedulesPath('docs')}/${schedule.id}`);
  });

  it('records why a tick made no build (an archived pipeline) and still moves on', async () => {
    const schedule = await makeSchedule('web', { label: 'On archived', cronline: '@daily' });
    await world.server.database.sql.query(
      `update pipelines set archived_at = now() where slug = 'web'
       and organization_id = (select id from organizations where slug = 'acme')`,
    );
    try {
      await makeDue(schedule.id);
      expect(await world.server.useCases.background.runDueSchedules(10)).toBe(1);
      const after = await world.call('GET', `${schedulesPath('web')}/${schedule.id}`);
      expect(after.body.failed_at).toEqual(expect.stringMatching(ISO_MS_Z));
      expect(after.body.failed_message).toEqual(expect.any(String));
      expect(new Date(after.body.next_build_at).getTime()).toBeGreaterThan(Date.now());
    } finally {
      await world.server.database.sql.query(
        `update pipelines set archived_at = null where slug = 'web'
         and organization_id = (select id from organizations where slug = 'acme')`,
      );
      await world.call('DELETE', `${schedulesPath('web')}/${schedule.id}`);
    }
  });

  it('claims each due schedule once when ticks run side by side', async () => {
    const schedules = await Promise.all(
      [1, 2, 3].map((n) => makeSchedule('releases', { label: `Side ${n}`, cronline: '0 0 1 1 *' })),
    );
    for (const schedule of schedules) await makeDue(schedule.id);
    const before = (await buildsOf('releases')).length;
    const ran = await Promise.all(
      Array.from({ length: 4 }, () => world.server.useCases.background.runDueSchedules(10)),
    );
    expect(ran.reduce((sum, count) => sum + count, 0)).toBe(3);
    expect((await buildsOf('releases')).length).toBe(before + 3);
    const [row] = await world.server.database.sql.query<{ made: number; schedules: number }>(
      `select count(*)::int as made, count(distinct pipeline_schedule_id)::int as schedules
       from pipeline_schedule_builds where pipeline_schedule_id = any($1::uuid[])`,
      [schedules.map((schedule) => schedule.id)],
    );
    expect(row).toEqual({ made: 3, schedules: 3 });
    for (const schedule of schedules)
      await world.call('DELETE', `${schedulesPath('releases')}/${schedule.id}`);
  });

  it('leaves disabled schedules alone', async () => {
    const schedule = await makeSchedule('web', { label: 'Off', cronline: '* * * * *', enabled: false });
    await makeDue(schedule.id);
    expect(await world.server.useCases.background.runDueSchedules(10)).toBe(0);
    await world.call('DELETE', `${schedulesPath('web')}/${schedule.id}`);
  });
});

// The Terraform provider's documents (buildkite/terraform-provider-buildkite, pipeline_schedule.graphql).
const FRAGMENT = `fragment PipelineScheduleValues on PipelineSchedule {
    id
    uuid
    label
    cronline
    message
    commit
    branch
    env
    enabled
    pipeline { id }
}`;
const GET = `query getPipelineSchedule($id: ID!) {
    node(id: $id) { ... on PipelineSchedule { ...PipelineScheduleValues } }
}
${FRAGMENT}`;
const GET_BY_SLUG = `query getPipelineScheduleBySlug($slug: ID!) {
    pipelineSchedule(slug: $slug) { ...PipelineScheduleValues }
}
${FRAGMENT}`;
const CREATE = `mutation createPipelineSchedule(
    $pipelineId: ID!, $label: String, $cronline: String, $message: String, $commit: String,
    $branch: String, $env: String, $enabled: Boolean
) {
    pipelineScheduleCreate(input: {
        pipelineID: $pipelineId, label: $label, cronline: $cronline, message: $message,
        commit: $commit, branch: $branch, env: $env, enabled: $enabled
    }) {
        pipeline { id }
        pipelineScheduleEdge { node { ...PipelineScheduleValues } }
    }
}
${FRAGMENT}`;
const UPDATE = `mutation updatePipelineSchedule($input: PipelineScheduleUpdateInput!) {
    pipelineScheduleUpdate(input: $input) { pipelineSchedule { ...PipelineScheduleValues } }
}
${FRAGMENT}`;
const DELETE = `mutation deletePipelineSchedule($id: ID!) {
    pipelineScheduleDelete(input: { id: $id }) { deletedPipelineScheduleID }
}`;

describe('GraphQL, with the Terraform provider documents', () => {
  it('creates, reads by id and slug, updates and deletes a schedule', async () => {
    const pipeline = await world.call('GET', pipelinePath('web'));
    const pipelineId = pipeline.body.graphql_id as string;
    const created = await world.gql(CREATE, {
      pipelineId,
      label: 'Nightly',
      cronline: '@midnight',
      message: 'Night',
      commit: 'HEAD',
      branch: 'main',
      env: 'A=1\nB=two=2',
      enabled: true,
    });
    expect(created.body.errors, created.text).toBeUndefined();
    const node = created.body.data.pipelineScheduleCreate.pipelineScheduleEdge.node;
    expect(created.body.data.pipelineScheduleCreate.pipeline).toEqual({ id: pipelineId });
    expect(node).toEqual({
      id: expect.any(String),
      uuid: expect.any(String),
      label: 'Nightly',
      cronline: '@midnight',
      message: 'Night',
      commit: 'HEAD',
      branch: 'main',
      env: ['A=1', 'B=two=2'],
      enabled: true,
      pipeline: { id: pipelineId },
    });
    const rest = await world.call('GET', `${schedulesPath('web')}/${node.uuid}`);
    expect(rest.body).toMatchObject({ graphql_id: node.id, env: { A: '1', B: 'two=2' } });

    const byId = await world.gql(GET, { id: node.id });
    expect(byId.body).toEqual({ data: { node } });
    const bySlug = await world.gql(GET_BY_SLUG, { slug: `acme/web/${node.uuid}` });
    expect(bySlug.body).toEqual({ data: { pipelineSchedule: node } });

    const updated = await world.gql(UPDATE, {
      input: {
        id: node.id,
        label: 'Nightly!',
        cronline: '0 3 * * *',
        message: null,
        commit: 'HEAD',
        branch: 'main',
        env: '',
        enabled: false,
      },
    });
    expect(updated.body.errors, updated.text).toBeUndefined();
    expect(updated.body.data.pipelineScheduleUpdate.pipelineSchedule).toEqual({
      ...node,
      label: 'Nightly!',
      cronline: '0 3 * * *',
      message: null,
      env: [],
      enabled: false,
    });

    const listed = await world.gql(
      `query { pipeline(slug: "acme/web") { permissions { pipelineScheduleCreate { allowed } }
         schedules(first: 10) { count edges { node { uuid nextBuildAt permissions { pipelineScheduleUpdate { allowed } } } } } } }`,
    );
    expect(listed.body.data.pipeline.permissions).toEqual({ pipelineScheduleCreate: { allowed: true } });
    expect(listed.body.data.pipeline.schedules.edges).toContainEqual({
      node: {
        uuid: node.uuid,
        nextBuildAt: null,
        permissions: { pipelineScheduleUpdate: { allowed: true } },
      },
    });

    const deleted = await world.gql(DELETE, { id: node.id });
    expect(deleted.body).toEqual({
      data: { pipelineScheduleDelete: { deletedPipelineScheduleID: node.id } },
    });
    expect((await world.gql(GET, { id: node.id })).body).toEqual({ data: { node: null } });
  });

  it('answers an invalid cronline with an error naming it, and creates nothing', async () => {
    const pipeline = await world.call('GET', pipelinePath('web'));
    const refused = await world.gql(CREATE, {
      pipelineId: pipeline.body.graphql_id,
      label: 'Bad',
      cronline: 'every day',
      message: null,
      commit: null,
      branch: null,
      env: null,
      enabled: true,
    });
    expect(refused.body.data?.pipelineScheduleCreate ?? null).toBeNull();
    expect(JSON.stringify(refused.body.errors)).toContain(
      'cronline \\"every day\\" is not a valid cron expression',
    );
    expect((await world.call('GET', schedulesPath('web'))).body).toEqual([]);
  });
});
