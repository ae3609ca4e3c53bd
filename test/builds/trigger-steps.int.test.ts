import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_URL, startWorld, WEB_URL, type World } from '../support/world';

/**
 * Trigger steps, run by the server's trigger pass (called here as each server process calls it on its
 * timer): the build it creates in the target pipeline, `triggered_from` and `triggered_build` over REST
 * and GraphQL, waiting or `async`, who may trigger what (team access or a
 * `pipeline.trigger_build.pipeline` rule), unknown targets, chains that trigger themselves, and two
 * passes at once.
 */

let world: World;
const pass = () => world.server.useCases.runTriggerJobs();

const trigger = (target: string, extra = '') => `steps:
  - trigger: ${target}
    label: ":rocket: ${target}"
${extra}`;

beforeAll(async () => {
  world = await startWorld();
  const admin = world.server.useCases.admin;
  const pipeline = async (name: string, steps: string, team = true) => {
    await admin.createPipeline({
      organization: 'acme',
      name,
      repository: 'git@example.com:acme/x.git',
      steps,
    });
    if (team) {
      await admin.addTeamPipeline({
        organization: 'acme',
        team: 'platform',
        pipeline: name,
        accessLevel: 'build_and_read',
      });
    }
  };
  await pipeline(
    'to-api',
    trigger(
      'api',
      `    build:
      message: "Deploy from upstream"
      branch: release
      env: { STAGE: prod }
      meta_data: { release: "1.4" }
  - wait
  - command: "echo after"
`,
    ),
  );
  await pipeline('to-api-async', trigger('api', '    async: true\n'));
  await pipeline('to-docs', trigger('docs'));
  await pipeline('to-nowhere', trigger('no-such-pipeline'));
  await pipeline('loop', trigger('loop'));
  await pipeline('to-public', trigger('public'));
});
afterAll(async () => world?.close());

const build = async (pipeline: string, number: number) =>
  (await world.call('GET', `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}`)).body;

const buildsOf = async (pipeline: string) =>
  (await world.call('GET', `/v2/organizations/acme/pipelines/${pipeline}/builds`)).body as Array<{
    number: number;
    source: string;
  }>;

const logOf = async (pipeline: string, number: number, jobId: string) =>
  (
    await world.call(
      'GET',
      `/v2/organizations/acme/pipelines/${pipeline}/builds/${number}/jobs/${jobId}/log.txt`,
    )
  ).text;

describe('a trigger step', () => {
  it('creates a build of its target with triggered_from, and waits for it to end as it did', async () => {
    const before = (await buildsOf('api')).length;
    const { number } = await world.createBuild('to-api', {}, { token: world.tokens.member });
    const [job] = (await build('to-api', number)).jobs;
    expect(job).toMatchObject({ type: 'trigger', state: 'scheduled', async: false, triggered_build: null });

    expect(await pass()).toBe(1);
    const parent = await build('to-api', number);
    const triggerJob = parent.jobs[0];
    expect(triggerJob.state).toBe('running');
    expect(parent.state).toBe('running');
    const child = (await buildsOf('api'))[0]!;
    expect((await buildsOf('api')).length).toBe(before + 1);
    expect(triggerJob.triggered_build).toEqual({
      id: expect.any(String),
      number: child.number,
      url: `${API_URL}/v2/organizations/acme/pipelines/api/builds/${child.number}`,
      web_url: `${WEB_URL}/acme/api/builds/${child.number}`,
    });
    const triggered = await build('api', child.number);
    expect(triggered).toMatchObject({
      id: triggerJob.triggered_build.id,
      source: 'trigger_job',
      message: 'Deploy from upstream',
      commit: 'HEAD',
      branch: 'release',
      env: { STAGE: 'prod' },
      meta_data: { release: '1.4' },
      creator: { name: 'Max Member' },
      triggered_from: { build_id: parent.id, build_number: number, build_pipeline_slug: 'to-api' },
    });
    // Other builds say they were not triggered.
    expect(parent.triggered_from).toBeNull();

    // Nothing more to do while the triggered build runs.
    expect(await pass()).toBe(0);
    const cancel = await world.call(
      'PUT',
      `/v2/organizations/acme/pipelines/api/builds/${child.number}/cancel`,
    );
    expect(cancel.status).toBe(200);
    expect(await pass()).toBe(1);
    const ended = await build('to-api', number);
    expect(ended.jobs.map((j: { state: string }) => j.state)).toEqual([
      'canceled',
      'waiting_failed',
      'broken',
    ]);
    expect(ended.state).toBe('failed');
  });

  it("shows in its pipeline's steps in the legacy shape, which a create takes back", async () => {
    const pipeline = (await world.call('GET', '/v2/organizations/acme/pipelines/to-api')).body;
    expect(pipeline.steps[0]).toEqual({
      type: 'trigger',
      label: ':rocket: api',
      trigger_project_slug: 'api',
      trigger_commit: null,
      trigger_branch: 'release',
      trigger_async: false,
    });
    const copy = await world.call('POST', '/v2/organizations/acme/pipelines', {
      body: { name: 'to-api copy', repository: 'git@example.com:acme/x.git', steps: pipeline.steps },
    });
    expect(copy.status, copy.text).toBe(201);
    expect(copy.body.steps).toEqual(pipeline.steps);
  });

  it('shows the trigger job and triggeredFrom over GraphQL', async () => {
    const { number } = await world.createBuild('to-api', {});
    await pass();
    const child = (await buildsOf('api'))[0]!;
    const response = await world.call('POST', '/graphql', {
      body: {
        query: `query ($child: ID!, $parent: ID!) {
          child: build(slug: $child) {
            source { __typename }
            triggeredFrom { uuid label state async build { number pipeline { slug } } triggered { number } }
          }
          parent: build(slug: $parent) {
            triggeredFrom { uuid }
            jobs(first: 5) { edges { node { __typename ... on JobTypeTrigger { async state step { uuid } triggered { number } } } } }
          }
        }`,
        variables: { child: `acme/api/${child.number}`, parent: `acme/to-api/${number}` },
      },
    });
    expect(response.body.errors, response.text).toBeUndefined();
    const { child: triggered, parent } = response.body.data;
    const triggerJob = (await build('to-api', number)).jobs[0];
    expect(triggered).toEqual({
      source: { __typename: 'BuildSourceTriggerJob' },
      triggeredFrom: {
        uuid: triggerJob.id,
        label: ':rocket: api',
        state: 'RUNNING',
        async: false,
        build: { number, pipeline: { slug: 'to-api' } },
        triggered: { number: child.number },
      },
    });
    expect(parent.triggeredFrom).toBeNull();
    expect(parent.jobs.edges[0].node).toMatchObject({
      __typename: 'JobTypeTrigger',
      async: false,
      state: 'RUNNING',
      triggered: { number: child.number },
    });
  });

  it('passes at once when async, while its build is still scheduled', async () => {
    const { number } = await world.createBuild('to-api-async', {});
    expect(await pass()).toBe(1);
    const parent = await build('to-api-async', number);
    expect(parent.jobs[0]).toMatchObject({ state: 'passed', async: true });
    expect(parent.state).toBe('passed');
    const child = await build('api', parent.jobs[0].triggered_build.number);
    expect(child.state).toBe('scheduled');
    expect(child.message).toBe(':rocket: api');
  });

  it('fails, creating nothing, when the creator may not build the target and no rule allows it; a rule lets it', async () => {
    const before = (await buildsOf('docs')).length;
    const refused = await world.createBuild('to-docs', {}, { token: world.tokens.member });
    await pass();
    const failed = await build('to-docs', refused.number);
    expect(failed.state).toBe('failed');
    expect(failed.jobs[0]).toMatchObject({ state: 'failed', triggered_build: null });
    expect(await logOf('to-docs', refused.number, failed.jobs[0].id)).toContain(
      'Not allowed to trigger a build of "docs"',
    );
    expect((await buildsOf('docs')).length).toBe(before);

    const organizationId = (
      await world.call('POST', '/graphql', { body: { query: '{ organization(slug: "acme") { id } }' } })
    ).body.data.organization.id;
    const rule = await world.call('POST', '/graphql', {
      body: {
        query: `mutation ($organizationId: ID!, $value: JSON!) {
          ruleCreate(input: { organizationId: $organizationId, type: "pipeline.trigger_build.pipeline", value: $value }) { rule { uuid } }
        }`,
        variables: {
          organizationId,
          value: JSON.stringify({ source_pipeline: 'to-docs', target_pipeline: 'docs' }),
        },
      },
    });
    expect(rule.body.errors, rule.text).toBeUndefined();
    const allowed = await world.createBuild('to-docs', {}, { token: world.tokens.member });
    await pass();
    expect((await build('to-docs', allowed.number)).jobs[0].state).toBe('running');
    expect((await buildsOf('docs')).length).toBe(before + 1);
  });

  it('fails with a message when its target pipeline does not exist', async () => {
    const { number } = await world.createBuild('to-nowhere', {});
    await pass();
    const failed = await build('to-nowhere', number);
    expect(failed.jobs[0].state).toBe('failed');
    expect(await logOf('to-nowhere', number, failed.jobs[0].id)).toBe(
      'No pipeline "no-such-pipeline" in this organization: nothing was triggered\n',
    );
  });

  it('stops a pipeline that triggers itself after ten builds in the chain', async () => {
    await world.createBuild('loop', {});
    for (let i = 0; i < 12; i++) await pass();
    const builds = await buildsOf('loop');
    expect(builds.length).toBe(10);
    const last = await build('loop', Math.max(...builds.map((b) => b.number)));
    expect(last.jobs[0].state).toBe('failed');
    expect(await logOf('loop', last.number, last.jobs[0].id)).toContain('Trigger steps nest too deep');
    // The failure goes up the chain, one pass a build.
    for (let i = 0; i < 12; i++) await pass();
    const first = await build('loop', Math.min(...builds.map((b) => b.number)));
    expect(first.state).toBe('failed');
    expect(first.jobs[0].state).toBe('failed');
  });

  it('makes one build, whatever the number of passes at once', async () => {
    const before = (await buildsOf('public')).length;
    const { number } = await world.createBuild('to-public', {});
    await Promise.all([pass(), pass(), pass(), pass()]);
    expect((await buildsOf('public')).length).toBe(before + 1);
    expect((await build('to-public', number)).jobs[0].state).toBe('running');
  });

  it('writes the build it chose when a pass stopped between choosing and writing it', async () => {
    const before = (await buildsOf('public')).length;
    const { number } = await world.createBuild('to-public', {});
    const parent = await build('to-public', number);
    const chosen = '0195f000-0000-7000-8000-000000000001';
    // As a pass leaves it when its process stops right after the job's change.
    await world.server.database.sql.query(
      `update jobs set state = 'running', started_at = now(), triggered_build_id = $2 where id = $1`,
      [parent.jobs[0].id, chosen],
    );
    // Read while the build is not written yet.
    expect((await build('to-public', number)).jobs[0].triggered_build).toBeNull();
    await Promise.all([pass(), pass()]);
    const builds = await buildsOf('public');
    expect(builds.length).toBe(before + 1);
    expect((await build('public', builds[0]!.number)).id).toBe(chosen);
    // The triggering build's answer shows the build now.
    expect((await build('to-public', number)).jobs[0].triggered_build).toMatchObject({
      id: chosen,
      number: builds[0]!.number,
    });
  });
});
