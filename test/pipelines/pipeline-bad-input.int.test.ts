import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../support/answers';
import { type PipelinesWorld, startPipelinesWorld } from '../support/pipelines-world';
import { expectSafeRefusal } from '../support/refusal';

/**
 * Bad input on the pipelines endpoints: malformed bodies, parameters and paths answer a 4xx `{message}`
 * (422 `Validation Failed` with field errors for bodies, as error-422-validation-failed.json), never a
 * 500, and write nothing; taken names are refused race-free by the organization's unique slug key.
 */

type Json = Record<string, unknown>;
const VALID = {
  name: 'Valid Name',
  repository: 'git@github.com:acme/valid.git',
  configuration: 'steps: [make]',
};
const TEAM = '0190f3a0-aaaa-7abc-8def-0123456789ab';

let world: PipelinesWorld;
beforeAll(async () => {
  world = await startPipelinesWorld();
});
afterAll(() => world?.close());

/** A 4xx with a `{message}` body (and field errors for 422s), nothing internal in it. */
function expectRefusal(response: Reply, status: number) {
  expect(response.status, response.text).toBe(status);
  expectSafeRefusal(response, [/postgres|stack/i]);
  if (status === 422 && response.body.message === 'Validation Failed') {
    expect(response.body.errors.length).toBeGreaterThan(0);
    for (const error of response.body.errors as Json[]) {
      expect(Object.keys(error)).toEqual(['field', 'code', 'message']);
      expect(['missing', 'invalid', 'too_long', 'taken']).toContain(error.code);
    }
  }
}

const BODIES: Array<[string, Json, string]> = [
  ['no name', { ...VALID, name: undefined }, 'name'],
  ['a numeric name', { ...VALID, name: 42 }, 'name'],
  ['a list as name', { ...VALID, name: ['a'] }, 'name'],
  ['an object as name', { ...VALID, name: { a: 1 } }, 'name'],
  ['a boolean name', { ...VALID, name: true }, 'name'],
  ['a blank name', { ...VALID, name: '   ' }, 'name'],
  ['a name without letters or digits', { ...VALID, name: '!!! ---' }, 'name'],
  ['a name of 101 characters', { ...VALID, name: 'n'.repeat(101) }, 'name'],
  ['a NUL in the name', { ...VALID, name: 'a\u0000b' }, 'name'],
  ['an unpaired surrogate in the name', { ...VALID, name: 'a \ud800' }, 'name'],
  ['no repository', { ...VALID, repository: undefined }, 'repository'],
  ['a numeric repository', { ...VALID, repository: 5 }, 'repository'],
  ['a blank repository', { ...VALID, repository: '' }, 'repository'],
  ['a repository of 1025 characters', { ...VALID, repository: 'r'.repeat(1025) }, 'repository'],
  ['a NUL in the repository', { ...VALID, repository: 'git@x:\u0000' }, 'repository'],
  ['no configuration and no steps', { ...VALID, configuration: undefined }, 'configuration'],
  ['a blank configuration', { ...VALID, configuration: '  ' }, 'configuration'],
  ['a numeric configuration', { ...VALID, configuration: 5 }, 'configuration'],
  ['an object as configuration', { ...VALID, configuration: { steps: ['x'] } }, 'configuration'],
  ['configuration that is not YAML', { ...VALID, configuration: 'steps: [' }, 'configuration'],
  ['YAML with a duplicate key', { ...VALID, configuration: 'steps: [a]\nsteps: [b]' }, 'configuration'],
  ['YAML without steps', { ...VALID, configuration: 'env:\n  A: b\n' }, 'configuration'],
  ['YAML steps that are not a list', { ...VALID, configuration: 'steps: {a: 1}' }, 'configuration'],
  ['YAML with no steps in the list', { ...VALID, configuration: 'steps: []' }, 'configuration'],
  ['YAML with a numeric step', { ...VALID, configuration: '- 42' }, 'configuration'],
  ['YAML with an empty command', { ...VALID, configuration: 'steps:\n  - command: ""' }, 'configuration'],
  [
    'YAML with a trigger step of no pipeline',
    { ...VALID, configuration: 'steps:\n  - trigger: ""' },
    'configuration',
  ],
  [
    'YAML with 5,000 steps',
    { ...VALID, configuration: `steps:\n${'  - echo step\n'.repeat(5000)}` },
    'configuration',
  ],
  [
    'YAML with a matrix of 10,000 combinations',
    {
      ...VALID,
      configuration: `steps:\n  - command: x\n    matrix:\n      setup:\n${['a', 'b', 'c', 'd']
        .map((name) => `        ${name}: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n`)
        .join('')}`,
    },
    'configuration',
  ],
  [
    'YAML with an if whose pattern does not compile',
    { ...VALID, configuration: 'steps:\n  - command: x\n    if: build.message =~ /(x/' },
    'configuration',
  ],
  [
    'YAML with an if whose pattern has an unsupported flag',
    { ...VALID, configuration: 'steps:\n  - command: x\n    if: build.message =~ /x/g' },
    'configuration',
  ],
  ['YAML with a nested env', { ...VALID, configuration: 'env: [A=b]\nsteps: [x]' }, 'configuration'],
  [
    'YAML asking for 1000 parallel jobs',
    { ...VALID, configuration: 'steps:\n  - command: x\n    parallelism: 1000' },
    'configuration',
  ],
  [
    'YAML aliases that multiply',
    {
      ...VALID,
      configuration: `a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [${Array(10).fill('*a').join(', ')}]\nc: &c [${Array(10).fill('*b').join(', ')}]\nsteps: [*c]`,
    },
    'configuration',
  ],
  ['a NUL in the configuration', { ...VALID, configuration: 'steps: [a\u0000]' }, 'configuration'],
  ['steps as a string', { ...VALID, configuration: undefined, steps: 'make' }, 'steps'],
  ['steps as an object', { ...VALID, configuration: undefined, steps: { type: 'script' } }, 'steps'],
  ['an empty steps list', { ...VALID, configuration: undefined, steps: [] }, 'steps'],
  ['a numeric step', { ...VALID, configuration: undefined, steps: [42] }, 'steps'],
  [
    'a script step without a command',
    { ...VALID, configuration: undefined, steps: [{ type: 'script' }] },
    'steps',
  ],
  [
    'a trigger step of a slug no pipeline can have',
    { ...VALID, configuration: undefined, steps: [{ type: 'trigger', trigger_project_slug: 'a b' }] },
    'steps',
  ],
  ['both configuration and steps', { ...VALID, steps: [{ type: 'waiter' }] }, 'steps'],
  ['env as a string', { ...VALID, env: 'A=b' }, 'env'],
  ['env as a list', { ...VALID, env: ['A=b'] }, 'env'],
  ['env with a number', { ...VALID, env: { A: 1 } }, 'env'],
  ['env with a blank key', { ...VALID, env: { '': 'x' } }, 'env'],
  ['env with a NUL', { ...VALID, env: { A: '\u0000' } }, 'env'],
  [
    'env with 101 keys',
    { ...VALID, env: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`K${i}`, 'v'])) },
    'env',
  ],
  ['provider_settings as a string', { ...VALID, provider_settings: 'x' }, 'provider_settings'],
  ['provider_settings as a list', { ...VALID, provider_settings: [] }, 'provider_settings'],
  [
    'a string provider flag',
    { ...VALID, provider_settings: { build_tags: 'yes' } },
    'provider_settings.build_tags',
  ],
  [
    'an unknown trigger mode',
    { ...VALID, provider_settings: { trigger_mode: 'push' } },
    'provider_settings.trigger_mode',
  ],
  ['a string flag', { ...VALID, skip_queued_branch_builds: 'true' }, 'skip_queued_branch_builds'],
  ['a numeric flag', { ...VALID, allow_rebuilds: 1 }, 'allow_rebuilds'],
  ['an unknown visibility', { ...VALID, visibility: 'secret' }, 'visibility'],
  ['a numeric visibility', { ...VALID, visibility: 5 }, 'visibility'],
  ['tags as a string', { ...VALID, tags: 'a,b' }, 'tags'],
  ['a numeric tag', { ...VALID, tags: [1] }, 'tags'],
  ['a blank tag', { ...VALID, tags: [''] }, 'tags'],
  ['51 tags', { ...VALID, tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'tags'],
  ['a tag of 256 characters', { ...VALID, tags: ['t'.repeat(256)] }, 'tags'],
  ['a cluster id that is not a UUID', { ...VALID, cluster_id: 'xxx' }, 'cluster_id'],
  ['a numeric cluster id', { ...VALID, cluster_id: 5 }, 'cluster_id'],
  ['teams as a list', { ...VALID, teams: [TEAM] }, 'teams'],
  ['teams as a string', { ...VALID, teams: TEAM }, 'teams'],
  ['a team key that is not a UUID', { ...VALID, teams: { platform: 'read_only' } }, 'teams'],
  ['an unknown access level', { ...VALID, teams: { [TEAM]: 'read' } }, 'teams'],
  ['a numeric access level', { ...VALID, teams: { [TEAM]: 5 } }, 'teams'],
  ['team_uuids as a string', { ...VALID, team_uuids: TEAM }, 'team_uuids'],
  ['team_uuids with a number', { ...VALID, team_uuids: [5] }, 'team_uuids'],
  ['team_uuids with a slug', { ...VALID, team_uuids: ['platform'] }, 'team_uuids'],
  ['a team that does not exist', { ...VALID, team_uuids: [TEAM] }, 'team_uuids'],
  ['a numeric default branch', { ...VALID, default_branch: 5 }, 'default_branch'],
  ['a default branch of 256 characters', { ...VALID, default_branch: 'b'.repeat(256) }, 'default_branch'],
  ['a list as branch filter', { ...VALID, branch_configuration: ['main'] }, 'branch_configuration'],
  ['an object as description', { ...VALID, description: { a: 1 } }, 'description'],
  ['a description of 10001 characters', { ...VALID, description: 'd'.repeat(10_001) }, 'description'],
];

describe('POST /v2/organizations/{org}/pipelines with a bad body', () => {
  it.each(BODIES)('answers 422 for %s, naming the field, and writes nothing', async (_case, body, field) => {
    const before = await world.pipelineRows();
    const response = await world.call('POST', world.pipelinesPath(), { body });
    expectRefusal(response, 422);
    expect(response.body.message).toBe('Validation Failed');
    expect((response.body.errors as Json[]).map((error) => error.field)).toContain(field);
    expect(await world.pipelineRows()).toEqual(before);
  });

  it.each<[string, { body?: unknown; rawBody?: string; headers?: Record<string, string> }, number]>([
    ['a JSON list', { rawBody: '[]' }, 400],
    ['a JSON string', { rawBody: '"text"' }, 400],
    ['a JSON number', { rawBody: '42' }, 400],
    ['malformed JSON', { rawBody: '{"name": ' }, 400],
    ['JSON with a trailing comma', { rawBody: '{"name": "x",}' }, 400],
    ['a prototype-poisoning body', { rawBody: '{"__proto__": {"admin": true}, "name": "x"}' }, 400],
    ['an empty body', { rawBody: '' }, 422],
    ['JSON null', { rawBody: 'null' }, 422],
    ['a body over 1 MiB', { body: { ...VALID, description: 'd'.repeat(1_100_000) } }, 413],
  ])('answers %s with %i and writes nothing', async (_case, request, status) => {
    const before = await world.pipelineRows();
    const response = await world.call('POST', world.pipelinesPath(), {
      ...request,
      headers: { 'Content-Type': 'application/json', ...request.headers },
    });
    expectRefusal(response, status);
    expect(await world.pipelineRows()).toEqual(before);
  });
});

describe('PATCH /v2/organizations/{org}/pipelines/{slug} with a bad body', () => {
  it.each<[string, Json, string]>([
    ['a null name', { name: null }, 'name'],
    ['a blank name', { name: '' }, 'name'],
    ['a numeric name', { name: 5 }, 'name'],
    ['the name of another pipeline', { name: 'API' }, 'name'],
    ['a blank repository', { repository: ' ' }, 'repository'],
    ['a null configuration', { configuration: null }, 'configuration'],
    ['configuration that is not YAML', { configuration: 'steps: [' }, 'configuration'],
    ['YAML without steps', { configuration: 'env: {}' }, 'configuration'],
    ['steps as a string', { steps: 'x' }, 'steps'],
    ['both configuration and steps', { configuration: 'steps: [a]', steps: ['a'] }, 'steps'],
    ['env as a list', { env: [] }, 'env'],
    ['provider_settings as a string', { provider_settings: 'x' }, 'provider_settings'],
    ['tags as a string', { tags: 'x' }, 'tags'],
    ['an unknown visibility', { visibility: 'x' }, 'visibility'],
    ['a string flag', { allow_rebuilds: 'no' }, 'allow_rebuilds'],
    ['a cluster id that is not a UUID', { cluster_id: 'x' }, 'cluster_id'],
    ['a numeric description', { description: 5 }, 'description'],
  ])('answers 422 for %s and changes nothing', async (_case, body, field) => {
    const before = await world.pipelineRows();
    const response = await world.call('PATCH', world.pipelinePath('web'), { body });
    expectRefusal(response, 422);
    expect((response.body.errors as Json[]).map((error) => error.field)).toContain(field);
    expect(await world.pipelineRows()).toEqual(before);
  });

  it.each<[string, string, number]>([
    ['a JSON list', '[]', 400],
    ['malformed JSON', '{', 400],
  ])('answers %s with %i', async (_case, rawBody, status) => {
    const before = await world.pipelineRows();
    expectRefusal(
      await world.call('PATCH', world.pipelinePath('web'), {
        rawBody,
        headers: { 'Content-Type': 'application/json' },
      }),
      status,
    );
    expect(await world.pipelineRows()).toEqual(before);
  });
});

describe('bad parameters and paths', () => {
  it.each([
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['page=-1', 'page'],
    ['per_page=x', 'per_page'],
    ['per_page=1e3', 'per_page'],
    ['page=1%00', 'page'],
    ['name=a%00b', 'name'],
    ['repository=%00', 'repository'],
  ])('answers 400 naming the parameter for %s', async (query, name) => {
    const response = await world.call('GET', `${world.pipelinesPath()}?${query}`);
    expectRefusal(response, 400);
    expect(response.body.message).toMatch(new RegExp(`\\b${name}\\b`));
  });

  it('clamps per_page to 100 and reads page 0 as page 1', async () => {
    const response = await world.call('GET', `${world.pipelinesPath()}?page=0&per_page=1000`);
    expect(response.status).toBe(200);
    expect((response.body as Json[]).length).toBeGreaterThan(0);
  });

  const SEGMENTS = [
    ['SQL metacharacters', encodeURIComponent("'; drop table pipelines; --")],
    ['an emoji', encodeURIComponent('🚀')],
    ['a NUL character', '%00'],
    ['an encoded slash', 'web%2F..%2Fapi'],
    ['upper case', 'WEB'],
    ['a segment of 2000 characters', 'w'.repeat(2000)],
  ];

  it.each(SEGMENTS)('answers 404 for a pipeline slug with %s, on every operation', async (_case, slug) => {
    const before = await world.pipelineRows();
    for (const [method, suffix] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/archive'],
      ['POST', '/unarchive'],
    ] as const) {
      const response = await world.call(
        method,
        `${world.pipelinePath(slug)}${suffix}`,
        method === 'PATCH' ? { body: { description: 'x' } } : {},
      );
      expectRefusal(response, 404);
      expect(response.body).toEqual({ message: 'No pipeline found' });
    }
    expect(await world.pipelineRows()).toEqual(before);
  });

  it.each(SEGMENTS)('answers 404 for an organization slug with %s', async (_case, organization) => {
    for (const method of ['GET', 'POST'] as const) {
      const response = await world.call(
        method,
        world.pipelinesPath(organization),
        method === 'POST' ? { body: VALID } : {},
      );
      expectRefusal(response, 404);
      expect(response.body).toEqual({ message: 'No organization found' });
    }
  });

  it('answers an unknown action on a pipeline with the route 404', async () => {
    const response = await world.call('POST', `${world.pipelinePath('web')}/explode`);
    expectRefusal(response, 404);
    expect(response.body.message).toMatch(/^No route matches POST /);
  });
});

describe('taken names, also under concurrency', () => {
  it('refuses a name whose slug another pipeline has, however it is spelled', async () => {
    await world.createPipeline({ name: 'Taken Name' });
    for (const name of ['Taken Name', 'taken name', 'TAKEN   name!!']) {
      const before = await world.pipelineRows();
      const response = await world.call('POST', world.pipelinesPath(), { body: { ...VALID, name } });
      expectRefusal(response, 422);
      expect(response.body).toEqual({
        message: 'Validation Failed',
        errors: [{ field: 'name', code: 'taken', message: 'name has already been taken' }],
      });
      expect(await world.pipelineRows()).toEqual(before);
    }
  });

  it('lets another organization use the same name', async () => {
    const made = await world.createPipeline(
      { name: 'Taken Name' },
      { token: world.tokens.outsider, organization: 'other' },
    );
    expect(made.url).toBe('https://api.ci.test/v2/organizations/other/pipelines/taken-name');
  });

  it('makes exactly one of 8 concurrent creates of one name; the others answer 422 and leave no trace', async () => {
    const name = 'Raced Name';
    const teams = { [world.teams.platform!]: 'read_only' };
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        world.call('POST', world.pipelinesPath(), { body: { ...VALID, name, teams } }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 422, 422, 422, 422, 422, 422, 422]);
    for (const response of responses.filter((r) => r.status === 422)) {
      expect(response.body.errors).toEqual([
        { field: 'name', code: 'taken', message: 'name has already been taken' },
      ]);
    }
    const rows = (await world.pipelineRows()).filter((row) => row.slug === 'raced-name');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.teams).toEqual([`${world.teams.platform}:read_only`]);
    const associations = await world.server.database.sql.query(
      `select tp.* from team_pipelines tp left join pipelines p on p.id = tp.pipeline_id where p.id is null`,
    );
    expect(associations).toEqual([]);
  });

  it('lets exactly one of 6 concurrent renames to one name win', async () => {
    const slugs: string[] = [];
    for (let i = 0; i < 6; i++)
      slugs.push((await world.createPipeline({ name: `rename source ${i}` })).slug as string);
    const responses = await Promise.all(
      slugs.map((slug) => world.call('PATCH', world.pipelinePath(slug), { body: { name: 'Rename Target' } })),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 422, 422, 422, 422, 422]);
    expect((await world.pipelineRows()).filter((row) => row.slug === 'rename-target')).toHaveLength(1);
  });

  it('deletes a pipeline while builds are being created: each build is made or answers 404, never 500', async () => {
    const slug = (await world.createPipeline({ name: 'Deleted While Building' })).slug as string;
    const builds = Array.from({ length: 10 }, () =>
      world.call('POST', `${world.pipelinePath(slug)}/builds`, {
        body: { commit: 'a'.repeat(40), branch: 'main' },
      }),
    );
    const deleted = world.call('DELETE', world.pipelinePath(slug));
    const responses = await Promise.all([...builds, deleted]);
    expect(responses.at(-1)!.status).toBe(204);
    for (const response of responses.slice(0, -1)) {
      expect([201, 404], response.text).toContain(response.status);
      // Gone before the build was made, or between making it and reading it back.
      if (response.status === 404)
        expect(['No pipeline found', 'No build found']).toContain(response.body.message);
    }
    const orphans = await world.server.database.sql.query(
      'select b.id from builds b left join pipelines p on p.id = b.pipeline_id where p.id is null',
    );
    expect(orphans).toEqual([]);
  });

  it('archives once under 6 concurrent archives; the others answer 422', async () => {
    const slug = (await world.createPipeline({ name: 'Raced Archive' })).slug as string;
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => world.call('POST', `${world.pipelinePath(slug)}/archive`)),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 422, 422, 422, 422, 422]);
    const archivedAt = responses.find((response) => response.status === 200)!.body.archived_at;
    expect((await world.call('GET', world.pipelinePath(slug))).body.archived_at).toBe(archivedAt);
  });
});
