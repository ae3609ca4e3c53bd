import { PipelineWire } from '@ci/trpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { example, ISO_MS_Z, JSON_TYPE, link, linksOf, UUID_V7, walkPages } from '../support/answers';
import {
  API_URL,
  type PipelinesWorld,
  startPipelinesWorld,
  WEB_URL,
  YAML_CONFIGURATION,
} from '../support/pipelines-world';
import { trpcFailure } from '../support/trpc';

/**
 * Pipelines on /v2 through the real HTTP server and PostgreSQL: every operation and status, the wire shape
 * against the public API's examples (pipelines-create.json, pipelines-list.json,
 * real-2022-pipelines-archive.json), YAML and legacy steps, renames, archiving, deletion with builds,
 * counts, pagination and filters, and the same procedures over tRPC.
 */

type Json = Record<string, unknown>;
/** Keys the recorded responses show beside the create example's: `emoji` and `color`, after `tags`. */
const RECORDED_KEYS = ['emoji', 'color'];
const withRecordedKeys = (keys: string[]) =>
  keys.flatMap((key) => (key === 'tags' ? [key, ...RECORDED_KEYS] : [key]));
const CREATE_KEYS = withRecordedKeys(Object.keys(example('pipelines-create.json')));

/**
 * The create example with the forms of the recorded responses where they differ (they win, decisions.md):
 * `''` for no description and a step's unset paths and filters, two more GitHub settings.
 */
function asRecorded(reference: Json): Json {
  const provider = reference.provider as Json;
  return {
    ...reference,
    description: reference.description ?? '',
    emoji: null,
    color: null,
    provider: {
      ...provider,
      settings: {
        ...(provider.settings as Json),
        build_pull_request_base_branch_changed: false,
        build_merge_group_checks_requested: false,
      },
    },
    steps: (reference.steps as Json[]).map((step) => ({
      ...step,
      artifact_paths: step.artifact_paths ?? '',
      branch_configuration: step.branch_configuration ?? '',
    })),
  };
}
/** A pipeline defined by a steps list has no `configuration`, like the real archive recording. */
const STEPS_KEYS = CREATE_KEYS.filter((key) => key !== 'configuration');

let world: PipelinesWorld;
beforeAll(async () => {
  world = await startPipelinesWorld();
});
afterAll(() => world?.close());

/** A response body checked against the wire schema and a key list. */
function expectPipeline(body: unknown, keys: string[] = CREATE_KEYS) {
  expect(Object.keys(body as Json)).toEqual(keys);
  return PipelineWire.parse(body);
}

describe('POST /v2/organizations/{org}/pipelines', () => {
  it('creates a YAML pipeline: 201 in the shape and with the values of the create example', async () => {
    const before = Date.now();
    const response = await world.call('POST', world.pipelinesPath(), {
      body: {
        name: 'My Pipeline X',
        repository: 'git@github.com:acme-inc/my-pipeline.git',
        configuration:
          'env:\n "FOO": "bar"\nsteps:\n - command: "script/release.sh"\n   "name": "Build :package:"',
      },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('write_pipelines');
    const pipeline = expectPipeline(response.body);
    const reference = example('pipelines-create.json');
    const addressless = ({
      id,
      graphql_id,
      url,
      web_url,
      builds_url,
      badge_url,
      created_by,
      created_at,
      configuration,
      provider,
      ...rest
    }: Json) => ({
      ...rest,
      provider: { ...(provider as Json), webhook_url: undefined },
    });
    expect(addressless(response.body)).toEqual(addressless(asRecorded(reference)));
    expect(pipeline.id).toMatch(UUID_V7);
    expect(Buffer.from(pipeline.graphql_id, 'base64').toString('utf8')).toBe(`Pipeline---${pipeline.id}`);
    expect(pipeline).toMatchObject({
      url: `${API_URL}/v2/organizations/acme/pipelines/my-pipeline-x`,
      web_url: `${WEB_URL}/acme/my-pipeline-x`,
      builds_url: `${API_URL}/v2/organizations/acme/pipelines/my-pipeline-x/builds`,
      configuration:
        'env:\n "FOO": "bar"\nsteps:\n - command: "script/release.sh"\n   "name": "Build :package:"',
      created_by: {
        id: world.users.admin.id,
        graphql_id: Buffer.from(`User---${world.users.admin.id}`).toString('base64'),
        name: 'Ada Admin',
        email: 'admin@acme.test',
      },
    });
    expect(Object.keys(pipeline.created_by ?? {})).toEqual(Object.keys(reference.created_by as Json));
    expect(pipeline.created_at).toMatch(ISO_MS_Z);
    expect(Date.parse(pipeline.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(pipeline.provider.webhook_url).toMatch(new RegExp(`^${API_URL}/webhooks/deliver/[0-9a-f]{50}$`));
    expect(pipeline.badge_url).toBe(`${API_URL}/badges/${pipeline.id}.svg`);

    const got = await world.call('GET', world.pipelinePath('my-pipeline-x'));
    expect(got.status).toBe(200);
    expect(got.body).toEqual(response.body);
  });

  it('creates from the legacy steps list: script, waiter and manual steps in the shape of the visual step example', async () => {
    const response = await world.call('POST', world.pipelinesPath(), {
      body: {
        name: 'Visual Steps',
        repository: 'git@github.com:acme-inc/my-pipeline.git',
        steps: [
          { type: 'script', name: 'Build :package:', command: 'script/release.sh' },
          { type: 'waiter' },
          { type: 'script', name: 'Test :wrench:', command: 'script/release.sh', artifact_paths: 'log/*' },
          { type: 'manual', label: 'Deploy' },
          {
            type: 'script',
            name: 'Release :rocket:',
            command: 'script/release.sh',
            branch_configuration: 'main',
            env: { AMAZON_S3_BUCKET_NAME: 'my-pipeline-releases' },
            timeout_in_minutes: 10,
            agent_query_rules: ['aws=true'],
          },
        ],
      },
    });
    expect(response.status, response.text).toBe(201);
    const pipeline = expectPipeline(response.body, STEPS_KEYS);
    const script = (fields: Json) => ({
      type: 'script',
      artifact_paths: '',
      branch_configuration: '',
      env: {},
      timeout_in_minutes: null,
      agent_query_rules: [],
      concurrency: null,
      parallelism: null,
      ...fields,
    });
    expect(pipeline.steps).toEqual([
      script({ name: 'Build :package:', command: 'script/release.sh' }),
      { type: 'waiter' },
      script({ name: 'Test :wrench:', command: 'script/release.sh', artifact_paths: 'log/*' }),
      { type: 'manual', label: 'Deploy' },
      script({
        name: 'Release :rocket:',
        command: 'script/release.sh',
        env: { AMAZON_S3_BUCKET_NAME: 'my-pipeline-releases' },
        agent_query_rules: ['aws=true'],
        // The example's step timeout, kept since step timeouts are run.
        timeout_in_minutes: 10,
      }),
    ]);
    for (const [step, reference] of [
      [pipeline.steps[0], (example('pipelines-create.json').steps as Json[])[0]],
    ] as const) {
      expect(Object.keys(step as Json)).toEqual(Object.keys(reference as Json));
    }
  });

  it('reads the YAML pipeline file: labels, commands, agents, parallelism, env, waits and blocks', async () => {
    const pipeline = expectPipeline(
      await world.createPipeline({ name: 'Full YAML', configuration: YAML_CONFIGURATION }),
    );
    expect(pipeline.env).toEqual({ FOO: 'bar' });
    expect(pipeline.configuration).toBe(YAML_CONFIGURATION);
    expect(pipeline.steps).toEqual([
      expect.objectContaining({
        type: 'script',
        name: ':hammer: Build',
        command: 'make build',
        agent_query_rules: ['queue=linux'],
      }),
      { type: 'waiter' },
      { type: 'manual', label: 'Release?' },
      expect.objectContaining({
        type: 'script',
        name: null,
        command: 'make test\nmake lint',
        parallelism: 2,
        artifact_paths: 'results/*',
        env: { CI: 'true' },
      }),
    ]);
  });

  it('takes every optional field of the public API', async () => {
    const cluster = await world.call('POST', '/v2/organizations/acme/clusters', {
      body: { name: 'Everything' },
    });
    expect(cluster.status, cluster.text).toBe(201);
    const body = {
      name: 'Everything Set',
      repository: 'https://gitlab.com/acme/everything.git',
      configuration: 'env:\n  FROM_YAML: "1"\n  SHARED: yaml\nsteps:\n  - command: make\n',
      description: ':package: everything',
      default_branch: 'trunk',
      branch_configuration: 'trunk release/*',
      env: { SHARED: 'request' },
      provider_settings: {
        build_tags: true,
        trigger_mode: 'deployment',
        filter_condition: 'build.branch == "trunk"',
      },
      skip_queued_branch_builds: true,
      skip_queued_branch_builds_filter: '!trunk',
      cancel_running_branch_builds: true,
      cancel_running_branch_builds_filter: 'feature/*',
      allow_rebuilds: false,
      visibility: 'public',
      tags: [':terraform:', 'testing'],
      cluster_id: cluster.body.id,
    };
    const pipeline = expectPipeline(await world.createPipeline(body));
    expect(pipeline).toMatchObject({
      description: ':package: everything',
      default_branch: 'trunk',
      branch_configuration: 'trunk release/*',
      env: { FROM_YAML: '1', SHARED: 'request' },
      skip_queued_branch_builds: true,
      skip_queued_branch_builds_filter: '!trunk',
      cancel_running_branch_builds: true,
      cancel_running_branch_builds_filter: 'feature/*',
      allow_rebuilds: false,
      visibility: 'public',
      tags: [':terraform:', 'testing'],
      cluster_id: cluster.body.id,
      pipeline_template_uuid: null,
      provider: {
        id: 'gitlab',
        settings: expect.objectContaining({
          build_tags: true,
          trigger_mode: 'deployment',
          filter_condition: 'build.branch == "trunk"',
          publish_commit_status: true,
          repository: 'acme/everything',
        }),
      },
    });
    expect(Object.keys(pipeline.provider.settings).at(-1)).toBe('repository');
  });

  it('gives the pipeline to the teams named, with their access levels', async () => {
    const pipeline = await world.createPipeline({
      name: 'Team Owned',
      teams: { [world.teams.platform!]: 'read_only' },
      team_uuids: [world.teams.hidden!.toUpperCase()],
    });
    const rows = await world.server.database.sql.query<{ team_id: string; access_level: string }>(
      'select team_id, access_level from team_pipelines where pipeline_id = $1 order by access_level',
      [pipeline.id],
    );
    expect(rows).toEqual([
      { team_id: world.teams.hidden, access_level: 'manage_build_and_read' },
      { team_id: world.teams.platform, access_level: 'read_only' },
    ]);
    const association = await world.call(
      'GET',
      `/v2/organizations/acme/teams/${world.teams.platform}/pipelines/${pipeline.id}`,
    );
    expect(association.body).toMatchObject({ access_level: 'read_only', pipeline_id: pipeline.id });
  });
});

describe('GET /v2/organizations/{org}/pipelines (list, pagination, filters)', () => {
  const ORGANIZATION = 'paged-pipelines';
  const NAMES = ['Zeta', 'Alpha Web', 'Mid', 'Beta Web', 'Gamma', 'Delta', 'Omega Api'];
  let created: Json[];

  beforeAll(async () => {
    const admin = world.server.useCases.admin;
    await admin.createOrganization({ name: 'Paged', slug: ORGANIZATION });
    await admin.addMember({ organization: ORGANIZATION, email: world.users.admin.email, role: 'admin' });
    created = [];
    for (const [index, name] of NAMES.entries()) {
      created.push(
        await world.createPipeline(
          { name, repository: `git@github.com:paged/${index % 2 ? 'even' : 'odd'}-${index}.git` },
          { organization: ORGANIZATION },
        ),
      );
    }
  });

  const list = (query = '') => world.call('GET', `${world.pipelinesPath(ORGANIZATION)}${query}`);

  it('answers every pipeline oldest first, each as the get answers it, without Link on one page', async () => {
    const response = await list();
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toBe(JSON_TYPE);
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('read_pipelines');
    expect(response.headers.get('link')).toBeNull();
    expect(response.body).toEqual(created);
    for (const item of response.body as Json[]) {
      expectPipeline(item);
      for (const key of Object.keys(example('pipelines-list.json'))) expect(item).toHaveProperty(key);
      expect((await world.call('GET', world.pipelinePath(String(item.slug), ORGANIZATION))).body).toEqual(
        item,
      );
    }
  });

  it('walks the pages through Link: every pipeline once, in order, with first, prev, next and last', async () => {
    const { pages, items, rels } = await walkPages(
      (path) => world.call('GET', path),
      `${world.pipelinesPath(ORGANIZATION)}?per_page=3`,
    );
    for (const page of pages) {
      const last = link(page, 'last');
      if (last) expect(last).toBe(`${API_URL}${world.pipelinesPath(ORGANIZATION)}?page=3&per_page=3`);
    }
    expect(items).toEqual(created);
    expect(rels).toEqual([
      ['next', 'last'],
      ['first', 'prev', 'next', 'last'],
      ['first', 'prev'],
    ]);
  });

  it('answers [] past the last page, with first and prev', async () => {
    const response = await list('?page=9&per_page=3');
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
    expect(Object.keys(linksOf(response.headers.get('link')))).toEqual(['first', 'prev']);
  });

  it.each<[string, (pipeline: Json) => boolean]>([
    ['?name=web', (p) => String(p.name).toLowerCase().includes('web')],
    ['?name=WEB', (p) => String(p.name).toLowerCase().includes('web')],
    ['?repository=EVEN', (p) => String(p.repository).includes('even')],
    ['?name=a&repository=odd', (p) => String(p.name).includes('a') && String(p.repository).includes('odd')],
    ['?name=%25', () => false],
    ['?name=_', () => false],
    ['?name=', () => true],
  ])('filters with %s, and pages and counts what it keeps', async (query, keep) => {
    const response = await list(query);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual(created.filter(keep));
  });

  it('keeps the filters in the Link URLs', async () => {
    const response = await list('?name=a&per_page=1');
    expect(linksOf(response.headers.get('link')).next).toBe(
      `${API_URL}${world.pipelinesPath(ORGANIZATION)}?name=a&page=2&per_page=1`,
    );
  });
});

describe('PATCH /v2/organizations/{org}/pipelines/{slug}', () => {
  it('renames: the slug and the addresses follow (as in the public API), the old slug answers 404, builds stay', async () => {
    const created = await world.createPipeline({ name: 'Before Rename' });
    const build = await world.createBuild('before-rename');
    const response = await world.call('PATCH', world.pipelinePath('before-rename'), {
      body: { name: 'After Rename' },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('write_pipelines');
    const renamed = expectPipeline(response.body);
    expect(renamed).toEqual({
      ...created,
      name: 'After Rename',
      slug: 'after-rename',
      url: `${API_URL}/v2/organizations/acme/pipelines/after-rename`,
      web_url: `${WEB_URL}/acme/after-rename`,
      builds_url: `${API_URL}/v2/organizations/acme/pipelines/after-rename/builds`,
      scheduled_builds_count: 1,
      scheduled_jobs_count: 1,
    });
    expect((await world.call('GET', world.pipelinePath('before-rename'))).body).toEqual({
      message: 'No pipeline found',
    });
    const builds = await world.call('GET', `${world.pipelinePath('after-rename')}/builds`);
    expect(builds.body.map((b: Json) => b.id)).toEqual([build.id]);
  });

  it('changes the steps, the env from the YAML, the provider with the repository, and merges provider settings', async () => {
    await world.createPipeline({ name: 'Changing', provider_settings: { build_tags: true } });
    const response = await world.call('PATCH', world.pipelinePath('changing'), {
      body: {
        repository: 'git@bitbucket.org:acme/changed.git',
        configuration: 'env:\n  NEW: "yes"\nsteps:\n  - command: "new.sh"\n    agents:\n    - "myqueue=true"',
        provider_settings: { publish_commit_status: false },
        tags: ['one'],
        description: 'now described',
      },
    });
    expect(response.status, response.text).toBe(200);
    const pipeline = expectPipeline(response.body);
    expect(pipeline).toMatchObject({
      repository: 'git@bitbucket.org:acme/changed.git',
      env: { NEW: 'yes' },
      tags: ['one'],
      description: 'now described',
      provider: {
        id: 'bitbucket',
        settings: expect.objectContaining({
          build_tags: true,
          publish_commit_status: false,
          repository: 'acme/changed',
        }),
      },
      steps: [
        {
          type: 'script',
          name: null,
          command: 'new.sh',
          artifact_paths: '',
          branch_configuration: '',
          env: {},
          timeout_in_minutes: null,
          agent_query_rules: ['myqueue=true'],
          concurrency: null,
          parallelism: null,
        },
      ],
    });
    // Builds made from now on run the new steps.
    const build = await world.createBuild('changing');
    expect(build.jobs.map((job: Json) => job.command)).toEqual(['new.sh']);
  });

  it('switches a YAML pipeline to a steps list (and configuration disappears), and back', async () => {
    await world.createPipeline({ name: 'Switching' });
    const toSteps = await world.call('PATCH', world.pipelinePath('switching'), {
      body: { steps: [{ type: 'waiter' }, 'echo'] },
    });
    expect(toSteps.status, toSteps.text).toBe(200);
    expectPipeline(toSteps.body, STEPS_KEYS);
    const toYaml = await world.call('PATCH', world.pipelinePath('switching'), {
      body: { configuration: 'steps: [echo]' },
    });
    expectPipeline(toYaml.body);
    expect(toYaml.body.configuration).toBe('steps: [echo]');
  });

  it('changes nothing with an empty body, a blank one, or unknown fields and teams', async () => {
    const created = await world.createPipeline({ name: 'Unchanged' });
    for (const request of [
      { body: {} },
      { rawBody: '' },
      {},
      { body: { x: 1, teams: { [world.teams.hidden!]: 'read_only' } } },
    ]) {
      const response = await world.call('PATCH', world.pipelinePath('unchanged'), request);
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual(created);
    }
    const teams = await world.server.database.sql.query(
      'select 1 from team_pipelines where pipeline_id = $1',
      [created.id],
    );
    expect(teams).toEqual([]);
  });

  it('accepts a new spelling of its own name, whose slug is its own', async () => {
    await world.createPipeline({ name: 'case change' });
    const response = await world.call('PATCH', world.pipelinePath('case-change'), {
      body: { name: 'Case Change!' },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ name: 'Case Change!', slug: 'case-change' });
  });
});

describe('archiving', () => {
  it('archives (200 with the pipeline), refuses builds and changes, and unarchives', async () => {
    const created = await world.createPipeline({ name: 'To Archive' });
    const archived = await world.call('POST', `${world.pipelinePath('to-archive')}/archive`);
    expect(archived.status, archived.text).toBe(200);
    expect(archived.headers.get('x-accepted-oauth-scopes')).toBe('write_pipelines');
    const pipeline = expectPipeline(archived.body);
    expect(pipeline.archived_at).toMatch(ISO_MS_Z);
    expect(pipeline).toEqual({ ...created, archived_at: pipeline.archived_at });

    const build = await world.call('POST', `${world.pipelinePath('to-archive')}/builds`, {
      body: { commit: 'a'.repeat(40), branch: 'main' },
    });
    expect(build.status).toBe(422);
    expect(build.body).toEqual({ message: 'Builds cannot be created for an archived pipeline' });
    const patch = await world.call('PATCH', world.pipelinePath('to-archive'), { body: { name: 'Renamed' } });
    expect(patch.status).toBe(422);
    expect(patch.body).toEqual({
      message: 'Archived pipelines cannot be changed: unarchive the pipeline first',
    });
    const again = await world.call('POST', `${world.pipelinePath('to-archive')}/archive`);
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ message: 'Pipeline could not be archived.' });
    expect((await world.call('GET', world.pipelinePath('to-archive'))).body.archived_at).toBe(
      pipeline.archived_at,
    );

    const unarchived = await world.call('POST', `${world.pipelinePath('to-archive')}/unarchive`);
    expect(unarchived.status, unarchived.text).toBe(200);
    expect(unarchived.body).toEqual(created);
    expect((await world.createBuild('to-archive')).number).toBe(1);
    const twice = await world.call('POST', `${world.pipelinePath('to-archive')}/unarchive`);
    expect(twice.status).toBe(422);
    expect(twice.body).toEqual({ message: 'Pipeline could not be unarchived.' });
  });

  it('answers an archived steps-defined pipeline with the keys of the real archive recording', async () => {
    await world.createPipeline({
      name: 'Recorded',
      configuration: undefined,
      steps: [{ type: 'script', command: 'x' }],
    });
    const response = await world.call('POST', `${world.pipelinePath('recorded')}/archive`);
    expect(response.status).toBe(200);
    // The 2022 recording predates pipeline templates; every other key is there, in its order.
    const keys = Object.keys(response.body).filter((key) => key !== 'pipeline_template_uuid');
    expect(keys).toEqual(withRecordedKeys(Object.keys(example('real-2022-pipelines-archive.json'))));
  });
});

describe('DELETE /v2/organizations/{org}/pipelines/{slug}', () => {
  it('answers 204 with an empty body; the pipeline, its builds, jobs and team associations are gone', async () => {
    const created = await world.createPipeline({
      name: 'Doomed',
      teams: { [world.teams.platform!]: 'read_only' },
    });
    const builds = [await world.createBuild('doomed'), await world.createBuild('doomed')];
    await world.createBuild('web');
    const count = async (table: string, column: string, ids: string[]) =>
      (
        await world.server.database.sql.query<{ n: number }>(
          `select count(*)::int as n from ${table} where ${column} = any($1::uuid[])`,
          [ids],
        )
      )[0]!.n;
    expect(
      await count(
        'jobs',
        'build_id',
        builds.map((b) => b.id),
      ),
    ).toBeGreaterThan(0);
    const webBuilds = await count('builds', 'pipeline_id', [world.pipelines.web!.id]);

    const response = await world.call('DELETE', world.pipelinePath('doomed'));
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(response.headers.get('content-type')).toBeNull();
    expect(response.headers.get('x-accepted-oauth-scopes')).toBe('write_pipelines');

    expect(await count('pipelines', 'id', [created.id])).toBe(0);
    expect(
      await count(
        'builds',
        'id',
        builds.map((b) => b.id),
      ),
    ).toBe(0);
    expect(
      await count(
        'jobs',
        'build_id',
        builds.map((b) => b.id),
      ),
    ).toBe(0);
    expect(await count('team_pipelines', 'pipeline_id', [created.id])).toBe(0);
    expect(await count('builds', 'pipeline_id', [world.pipelines.web!.id])).toBe(webBuilds);
    for (const path of [world.pipelinePath('doomed'), `${world.pipelinePath('doomed')}/builds/1`]) {
      const after = await world.call('GET', path);
      expect(after.status).toBe(404);
      expect(after.body).toEqual({ message: 'No pipeline found' });
    }
    const again = await world.call('DELETE', world.pipelinePath('doomed'));
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'No pipeline found' });
  });

  it('frees the name for a new pipeline', async () => {
    const first = await world.createPipeline({ name: 'Reborn' });
    expect((await world.call('DELETE', world.pipelinePath('reborn'))).status).toBe(204);
    expect((await world.createPipeline({ name: 'Reborn' })).id).not.toBe(first.id);
  });
});

describe('what a pipeline shows of its builds', () => {
  it('counts builds and jobs as the builds endpoints count them', async () => {
    await world.createPipeline({
      name: 'Counted',
      configuration: 'steps:\n  - command: a\n  - wait\n  - command: b\n',
    });
    await world.createBuild('counted');
    await world.createBuild('counted');
    const pipeline = (await world.call('GET', world.pipelinePath('counted'))).body;
    expect(pipeline).toMatchObject({
      scheduled_builds_count: 2,
      running_builds_count: 0,
      scheduled_jobs_count: 2,
      running_jobs_count: 0,
      waiting_jobs_count: 4,
    });
    const builds = (await world.call('GET', `${world.pipelinePath('counted')}/builds`)).body as Json[];
    const embedded = builds[0]!.pipeline as Json;
    for (const key of [
      'scheduled_builds_count',
      'running_builds_count',
      'scheduled_jobs_count',
      'running_jobs_count',
      'waiting_jobs_count',
    ]) {
      expect(pipeline[key]).toBe(embedded[key]);
    }
    // The embedded pipeline is the same shape, without the YAML.
    expect(Object.keys(embedded)).toEqual(Object.keys(pipeline).filter((key) => key !== 'configuration'));
  });

  it('refuses rebuilds when allow_rebuilds is false', async () => {
    await world.createPipeline({ name: 'No Rebuilds', allow_rebuilds: false });
    const build = await world.createBuild('no-rebuilds');
    const response = await world.call(
      'PUT',
      `${world.pipelinePath('no-rebuilds')}/builds/${build.number}/rebuild`,
    );
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      message: 'Rebuilds are disabled for this pipeline (allow_rebuilds is false)',
    });
  });
});

describe('pipelines over tRPC', () => {
  it('creates, gets, lists, updates, archives and deletes with the same bodies as REST', async () => {
    const client = world.trpc(world.tokens.admin);
    const created = await client.pipelines.create.mutate({
      organization: 'acme',
      name: 'Over tRPC',
      repository: 'git@github.com:acme/trpc.git',
      configuration: 'steps: [make]',
    });
    expect(PipelineWire.parse(created)).toEqual(created);
    const rest = await world.call('GET', world.pipelinePath('over-trpc'));
    expect(await client.pipelines.get.query({ organization: 'acme', pipeline: 'over-trpc' })).toEqual(
      rest.body,
    );
    const listed = await client.pipelines.list.query({
      organization: 'acme',
      name: 'over-trpc',
      per_page: 5,
    });
    expect(listed).toEqual([]);
    expect(await client.pipelines.list.query({ organization: 'acme', name: 'Over tRPC' })).toEqual([
      rest.body,
    ]);
    const updated = await client.pipelines.update.mutate({
      organization: 'acme',
      pipeline: 'over-trpc',
      description: 'typed',
    });
    expect(updated.description).toBe('typed');
    const archived = await client.pipelines.archive.mutate({ organization: 'acme', pipeline: 'over-trpc' });
    expect(archived.archived_at).toMatch(ISO_MS_Z);
    await client.pipelines.unarchive.mutate({ organization: 'acme', pipeline: 'over-trpc' });
    await client.pipelines.delete.mutate({ organization: 'acme', pipeline: 'over-trpc' });
    expect((await world.call('GET', world.pipelinePath('over-trpc'))).status).toBe(404);
  });

  it('fails with the REST message and status', async () => {
    const error = await trpcFailure(
      world.trpc(world.tokens.admin).pipelines.create.mutate({
        organization: 'acme',
        name: '',
        repository: 'x',
        configuration: 'steps: [a]',
      }),
    );
    expect(error.message).toBe('Validation Failed');
    expect(error.data?.httpStatus).toBe(422);
    expect((error.data as { errors?: unknown } | undefined)?.errors).toEqual([
      { field: 'name', code: 'missing', message: "name can't be blank" },
    ]);
  });
});
