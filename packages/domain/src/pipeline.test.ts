import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pipeline } from './entities';
import type { FieldError } from './errors';
import {
  archivedPipeline,
  changedPipeline,
  type DefinedSteps,
  newProvider,
  PROVIDER_SETTING_DEFAULTS,
  parseNewPipelineRequest,
  parsePipelineChangeRequest,
  parsePipelineListFilter,
  pipelineEnv,
  presentableProviderSettings,
  providerFor,
  repositoryWebUrl,
  unarchivedPipeline,
} from './pipeline';
import { pipelineWith } from './pipeline.fixture';

const TEAM_A = '0190f3a0-aaaa-7abc-8def-0123456789ab';
const TEAM_B = '0190f3a0-bbbb-7abc-8def-0123456789ab';
const MINIMAL = {
  name: 'My Pipeline',
  repository: 'git@github.com:acme/app.git',
  configuration: 'steps: [x]',
};

function errorsOf(result: { ok: boolean; error?: { details?: { errors: FieldError[] } } }) {
  return result.ok ? undefined : result.error?.details?.errors;
}

describe('providerFor', () => {
  it.each([
    ['git@github.com:acme-inc/my-pipeline.git', 'github', 'acme-inc/my-pipeline'],
    ['https://github.com/acme/app.git', 'github', 'acme/app'],
    ['https://github.com/acme/app', 'github', 'acme/app'],
    ['https://github.com/acme/app/', 'github', 'acme/app'],
    ['ssh://git@github.com:22/acme/app.git', 'github', 'acme/app'],
    ['https://user:secret@GitHub.com/acme/app.git', 'github', 'acme/app'],
    ['git@gitlab.com:group/sub/app.git', 'gitlab', 'group/sub/app'],
    ['https://bitbucket.org/team/app.git', 'bitbucket', 'team/app'],
    ['git@example.com:acme/app.git', 'git', 'git@example.com:acme/app.git'],
    ['https://notgithub.com/acme/app.git', 'git', 'https://notgithub.com/acme/app.git'],
    ['https://github.com.evil.test/acme/app.git', 'git', 'https://github.com.evil.test/acme/app.git'],
    ['https://github.com/', 'git', 'https://github.com/'],
    ['/srv/git/app.git', 'git', '/srv/git/app.git'],
    ['  git@github.com:acme/app.git  ', 'github', 'acme/app'],
  ])('reads %j as provider %s, repository %j', (url, id, repository) => {
    expect(providerFor(url)).toEqual({ id, repository });
  });
});

describe('newProvider', () => {
  it('gives the public defaults in the order of the create example, the repository last', () => {
    const provider = newProvider('git@github.com:acme-inc/my-pipeline.git', {});
    expect(provider.id).toBe('github');
    expect(provider.settings).toEqual({ ...PROVIDER_SETTING_DEFAULTS, repository: 'acme-inc/my-pipeline' });
    expect(Object.keys(provider.settings).at(-1)).toBe('repository');
  });

  it('merges the requested settings over the defaults; the repository always follows the URL', () => {
    const provider = newProvider('https://github.com/acme/app', {
      build_tags: true,
      trigger_mode: 'deployment',
      filter_condition: 'build.branch == "main"',
      repository: 'somewhere/else',
    });
    expect(provider.settings).toMatchObject({
      build_tags: true,
      trigger_mode: 'deployment',
      filter_condition: 'build.branch == "main"',
      publish_commit_status: true,
      repository: 'acme/app',
    });
  });
});

describe('presentableProviderSettings', () => {
  it('fills defaults for what an older pipeline did not store, keeping the public key order', () => {
    const settings = presentableProviderSettings({ repository: 'acme/app' }, 'git@github.com:acme/app.git');
    expect(Object.keys(settings)).toEqual([...Object.keys(PROVIDER_SETTING_DEFAULTS), 'repository']);
    expect(settings).toEqual({ ...PROVIDER_SETTING_DEFAULTS, repository: 'acme/app' });
  });

  it('shows stored values of the right type, set optional settings before repository, and drops the rest', () => {
    const settings = presentableProviderSettings(
      {
        build_tags: true,
        publish_commit_status: 'yes',
        pull_request_branch_filter_configuration: 'feature/*',
        build_merge_group_checks_requested: false,
        unknown: 1,
      },
      'git@example.com:acme/app.git',
    );
    expect(settings.build_tags).toBe(true);
    expect(settings.publish_commit_status).toBe(true);
    expect(settings).not.toHaveProperty('unknown');
    expect(Object.keys(settings).slice(-3)).toEqual([
      'build_merge_group_checks_requested',
      'pull_request_branch_filter_configuration',
      'repository',
    ]);
    expect(settings.repository).toBe('git@example.com:acme/app.git');
  });
});

describe('parseNewPipelineRequest', () => {
  it('reads a minimal YAML body with the public defaults', () => {
    const result = parseNewPipelineRequest(MINIMAL);
    expect(result).toEqual({
      ok: true,
      value: {
        name: 'My Pipeline',
        slug: 'my-pipeline',
        repository: 'git@github.com:acme/app.git',
        definition: { kind: 'configuration', source: 'steps: [x]' },
        defaultBranch: 'main',
        branchConfiguration: null,
        description: null,
        env: {},
        providerSettings: {},
        skipQueuedBranchBuilds: false,
        skipQueuedBranchBuildsFilter: null,
        cancelRunningBranchBuilds: false,
        cancelRunningBranchBuildsFilter: null,
        allowRebuilds: true,
        color: null,
        emoji: null,
        defaultTimeoutInMinutes: null,
        maximumTimeoutInMinutes: null,
        pipelineTemplateId: null,
        visibility: 'private',
        tags: null,
        clusterId: null,
        teams: [],
      },
    });
  });

  it('reads every field the public API documents', () => {
    const result = parseNewPipelineRequest({
      name: '  Deploy   Everything ',
      repository: ' https://github.com/acme/app.git ',
      steps: [{ type: 'script', command: 'x' }],
      default_branch: 'trunk',
      branch_configuration: 'main release/*',
      description: ':rocket: deploys',
      env: { A: 'b' },
      provider_settings: { build_tags: true, trigger_mode: 'none', unknown: 'ignored' },
      skip_queued_branch_builds: true,
      skip_queued_branch_builds_filter: '!main',
      cancel_running_branch_builds: true,
      cancel_running_branch_builds_filter: 'feature/*',
      allow_rebuilds: false,
      visibility: 'public',
      tags: [':terraform:', ' testing '],
      cluster_id: '018E5A22-D14C-7085-BB28-DB0F83F43A1C',
      team_uuids: [TEAM_A, TEAM_B.toUpperCase()],
      teams: { [TEAM_B]: 'read_only' },
      color: ' #FF0000 ',
      emoji: ':rocket:',
      default_timeout_in_minutes: 30,
      maximum_timeout_in_minutes: 60,
      unknown_field: true,
    });
    expect(result.ok && result.value).toEqual({
      name: 'Deploy   Everything',
      slug: 'deploy-everything',
      repository: 'https://github.com/acme/app.git',
      definition: { kind: 'steps', steps: [{ type: 'script', command: 'x' }] },
      defaultBranch: 'trunk',
      branchConfiguration: 'main release/*',
      description: ':rocket: deploys',
      env: { A: 'b' },
      providerSettings: { build_tags: true, trigger_mode: 'none' },
      skipQueuedBranchBuilds: true,
      skipQueuedBranchBuildsFilter: '!main',
      cancelRunningBranchBuilds: true,
      cancelRunningBranchBuildsFilter: 'feature/*',
      allowRebuilds: false,
      visibility: 'public',
      tags: [':terraform:', 'testing'],
      clusterId: '018e5a22-d14c-7085-bb28-db0f83f43a1c',
      color: '#FF0000',
      emoji: ':rocket:',
      defaultTimeoutInMinutes: 30,
      maximumTimeoutInMinutes: 60,
      pipelineTemplateId: null,
      teams: [
        { teamId: TEAM_A, accessLevel: 'manage_build_and_read', field: 'team_uuids' },
        { teamId: TEAM_B, accessLevel: 'read_only', field: 'teams' },
      ],
    });
  });

  it.each<[string, Record<string, unknown>, FieldError[]]>([
    [
      'an empty body',
      {},
      [
        { field: 'name', code: 'missing', message: "name can't be blank" },
        { field: 'repository', code: 'missing', message: "repository can't be blank" },
        {
          field: 'configuration',
          code: 'missing',
          message: 'Step configuration is missing: give configuration (YAML) or steps',
        },
      ],
    ],
    [
      'a name without letters or digits',
      { ...MINIMAL, name: '!!!' },
      [{ field: 'name', code: 'invalid', message: 'name must contain at least one letter or digit' }],
    ],
    [
      'a name of 101 characters',
      { ...MINIMAL, name: 'n'.repeat(101) },
      [{ field: 'name', code: 'too_long', message: 'name is too long (maximum is 100 characters)' }],
    ],
    [
      'a numeric name',
      { ...MINIMAL, name: 7 },
      [{ field: 'name', code: 'invalid', message: 'name must be a string' }],
    ],
    [
      'a NUL in the repository',
      { ...MINIMAL, repository: 'a\u0000b' },
      [
        {
          field: 'repository',
          code: 'invalid',
          message: "repository can't contain NUL characters or unpaired surrogates",
        },
      ],
    ],
    [
      'both configuration and steps',
      { ...MINIMAL, steps: ['x'] },
      [{ field: 'steps', code: 'invalid', message: 'give either configuration (YAML) or steps, not both' }],
    ],
    [
      'steps that are not a list',
      { name: 'a', repository: 'b', steps: { command: 'x' } },
      [{ field: 'steps', code: 'invalid', message: 'steps must be a list of steps' }],
    ],
    [
      'a numeric configuration',
      { name: 'a', repository: 'b', configuration: 5 },
      [{ field: 'configuration', code: 'invalid', message: 'configuration must be a string' }],
    ],
    [
      'a string flag',
      { ...MINIMAL, allow_rebuilds: 'yes' },
      [{ field: 'allow_rebuilds', code: 'invalid', message: 'allow_rebuilds must be true or false' }],
    ],
    [
      'an unknown visibility',
      { ...MINIMAL, visibility: 'secret' },
      [{ field: 'visibility', code: 'invalid', message: 'visibility must be one of private, public' }],
    ],
    [
      'env with a number',
      { ...MINIMAL, env: { A: 1 } },
      [{ field: 'env', code: 'invalid', message: 'env.A must be a string' }],
    ],
    [
      'env as a list',
      { ...MINIMAL, env: ['A=1'] },
      [{ field: 'env', code: 'invalid', message: 'env must be an object of strings' }],
    ],
    [
      'provider settings of the wrong types',
      { ...MINIMAL, provider_settings: { build_tags: 'true', trigger_mode: 'push', filter_condition: 1 } },
      [
        {
          field: 'provider_settings.build_tags',
          code: 'invalid',
          message: 'provider_settings.build_tags must be true or false',
        },
        {
          field: 'provider_settings.trigger_mode',
          code: 'invalid',
          message: 'provider_settings.trigger_mode must be one of code, deployment, fork, none',
        },
        {
          field: 'provider_settings.filter_condition',
          code: 'invalid',
          message: 'provider_settings.filter_condition must be a string',
        },
      ],
    ],
    [
      'tags that are not strings',
      { ...MINIMAL, tags: ['ok', 3] },
      [{ field: 'tags', code: 'invalid', message: 'tags must be a list of non-blank strings' }],
    ],
    [
      'a cluster id that is not a UUID',
      { ...MINIMAL, cluster_id: 'xxx' },
      [{ field: 'cluster_id', code: 'invalid', message: 'cluster_id must be a UUID' }],
    ],
    [
      'team_uuids with a non-UUID',
      { ...MINIMAL, team_uuids: ['platform'] },
      [{ field: 'team_uuids', code: 'invalid', message: 'team_uuids must be a list of team UUIDs' }],
    ],
    [
      'teams with an unknown access level',
      { ...MINIMAL, teams: { [TEAM_A]: 'read' } },
      [
        {
          field: 'teams',
          code: 'invalid',
          message: 'teams access levels must be read_only, build_and_read or manage_build_and_read',
        },
      ],
    ],
    [
      'teams as a list',
      { ...MINIMAL, teams: [TEAM_A] },
      [{ field: 'teams', code: 'invalid', message: 'teams must map team UUIDs to access levels' }],
    ],
  ])('refuses %s, naming every field', (_case, body, errors) => {
    expect(errorsOf(parseNewPipelineRequest(body))).toEqual(errors);
  });

  it.each([null, 'text', 42, ['name']])('treats a body of %j as one without fields', (body) => {
    expect(errorsOf(parseNewPipelineRequest(body))?.map((error) => error.field)).toEqual([
      'name',
      'repository',
      'configuration',
    ]);
  });

  it('never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        expect(typeof parseNewPipelineRequest(body).ok).toBe('boolean');
        expect(typeof parsePipelineChangeRequest(body).ok).toBe('boolean');
      }),
    );
  });
});

describe('parsePipelineChangeRequest', () => {
  it('reads only what the body names; a new name gives a new slug', () => {
    expect(parsePipelineChangeRequest({ name: 'New Name', allow_rebuilds: false })).toEqual({
      ok: true,
      value: { name: 'New Name', slug: 'new-name', allowRebuilds: false },
    });
  });

  it('changes nothing for an empty body, and ignores teams', () => {
    expect(parsePipelineChangeRequest({})).toEqual({ ok: true, value: {} });
    expect(parsePipelineChangeRequest({ teams: { [TEAM_A]: 'read_only' }, team_uuids: ['x'] })).toEqual({
      ok: true,
      value: {},
    });
  });

  it('clears the nullable fields with null or blank', () => {
    const result = parsePipelineChangeRequest({
      description: null,
      branch_configuration: '',
      default_branch: null,
      tags: null,
      cluster_id: null,
      skip_queued_branch_builds_filter: null,
    });
    expect(result.ok && result.value).toEqual({
      description: null,
      branchConfiguration: null,
      defaultBranch: null,
      tags: null,
      clusterId: null,
      skipQueuedBranchBuildsFilter: null,
    });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a null name', { name: null }, 'name'],
    ['a blank repository', { repository: '  ' }, 'repository'],
    ['a null configuration', { configuration: null }, 'configuration'],
    ['a blank configuration', { configuration: '' }, 'configuration'],
    ['steps that are not a list', { steps: 'x' }, 'steps'],
    ['a numeric description', { description: 1 }, 'description'],
  ])('refuses %s', (_case, body, field) => {
    expect(errorsOf(parsePipelineChangeRequest(body))?.map((error) => error.field)).toEqual([field]);
  });
});

const pipeline: Pipeline = pipelineWith({
  id: 'p',
  organizationId: 'o',
  slug: 'app',
  name: 'App',
  repository: 'git@github.com:acme/app.git',
  provider: {
    id: 'github',
    settings: { ...PROVIDER_SETTING_DEFAULTS, build_tags: true, repository: 'acme/app' },
  },
  webhookToken: 't',
  nextBuildNumber: 7,
  createdAt: new Date(0),
  env: { OLD: '1' },
  configuration: 'steps: [x]',
});

const yaml = (env: Record<string, string>): DefinedSteps => ({
  steps: [{ type: 'wait', id: 's', key: null, continueOnFailure: false }],
  configuration: 'steps: [wait]',
  env,
});

describe('pipeline templates', () => {
  const uuid = '018E5A22-D14C-7085-BB28-DB0F83F43A1C';
  const body = { name: 'x', repository: 'r' };
  const error = (message: string) => [{ field: 'pipeline_template_uuid', code: 'invalid', message }];

  it('give the steps instead of configuration or steps, on create', () => {
    expect(parseNewPipelineRequest({ ...body, pipeline_template_uuid: uuid })).toMatchObject({
      ok: true,
      value: {
        definition: { kind: 'template', templateId: uuid.toLowerCase() },
        pipelineTemplateId: uuid.toLowerCase(),
      },
    });
    expect(
      parseNewPipelineRequest({ ...body, configuration: 'steps: [wait]', pipeline_template_uuid: null }),
    ).toMatchObject({
      ok: true,
      value: { pipelineTemplateId: null },
    });
  });

  it('are refused beside configuration or steps, and when not a UUID', () => {
    for (const own of [{ configuration: 'steps: [wait]' }, { steps: [] }]) {
      expect(errorsOf(parseNewPipelineRequest({ ...body, ...own, pipeline_template_uuid: uuid }))).toEqual(
        error('give either pipeline_template_uuid or configuration (YAML) or steps, not more than one'),
      );
      expect(errorsOf(parsePipelineChangeRequest({ ...own, pipeline_template_uuid: uuid }))).toEqual(
        error('give either pipeline_template_uuid or configuration (YAML) or steps, not more than one'),
      );
    }
    expect(errorsOf(parseNewPipelineRequest({ ...body, pipeline_template_uuid: 'nope' }))).toEqual(
      error('pipeline_template_uuid names no pipeline template'),
    );
  });

  it('on update: a template sets it, own steps or null leave it, anything else keeps it', () => {
    expect(parsePipelineChangeRequest({ pipeline_template_uuid: uuid })).toEqual({
      ok: true,
      value: {
        definition: { kind: 'template', templateId: uuid.toLowerCase() },
        pipelineTemplateId: uuid.toLowerCase(),
      },
    });
    expect(parsePipelineChangeRequest({ configuration: 'steps: [wait]' })).toMatchObject({
      ok: true,
      value: { pipelineTemplateId: null },
    });
    expect(parsePipelineChangeRequest({ pipeline_template_uuid: null })).toEqual({
      ok: true,
      value: { pipelineTemplateId: null },
    });
    const kept = parsePipelineChangeRequest({ name: 'y' });
    expect(kept.ok && !('pipelineTemplateId' in kept.value)).toBe(true);
  });
});

describe('pipeline timeouts', () => {
  const body = { name: 'x', repository: 'r', configuration: 'steps: [wait]' };

  it.each([
    ['zero', 0],
    ['a fraction', 1.5],
    ['text', '30'],
    ['more than a year', 525_601],
  ])('refuses %s minutes', (_case, minutes) => {
    for (const field of ['default_timeout_in_minutes', 'maximum_timeout_in_minutes']) {
      expect(errorsOf(parseNewPipelineRequest({ ...body, [field]: minutes }))).toEqual([
        { field, code: 'invalid', message: `${field} must be a whole number of minutes from 1 to 525600` },
      ]);
    }
  });

  it('refuses a default timeout past the maximum, on create and on update', () => {
    const refusal = [
      {
        field: 'default_timeout_in_minutes',
        code: 'invalid',
        message: 'default_timeout_in_minutes must not be more than maximum_timeout_in_minutes',
      },
    ];
    expect(
      errorsOf(
        parseNewPipelineRequest({ ...body, default_timeout_in_minutes: 61, maximum_timeout_in_minutes: 60 }),
      ),
    ).toEqual(refusal);
    const limited = { ...pipeline, maximumTimeoutInMinutes: 60 };
    const changed = changedPipeline(limited, { defaultTimeoutInMinutes: 61 }, null);
    expect(errorsOf(changed)).toEqual(refusal);
    expect(changedPipeline(limited, { defaultTimeoutInMinutes: 60 }, null)).toMatchObject({ ok: true });
    expect(
      changedPipeline(limited, { defaultTimeoutInMinutes: 61, maximumTimeoutInMinutes: null }, null),
    ).toMatchObject({ ok: true, value: { defaultTimeoutInMinutes: 61, maximumTimeoutInMinutes: null } });
  });

  it('clears a timeout, a color and an emoji on update with null', () => {
    expect(parsePipelineChangeRequest({ default_timeout_in_minutes: null, color: null, emoji: '' })).toEqual({
      ok: true,
      value: { defaultTimeoutInMinutes: null, color: null, emoji: null },
    });
  });
});

describe('changedPipeline', () => {
  it('keeps everything an update does not name', () => {
    expect(changedPipeline(pipeline, {}, null)).toEqual({ ok: true, value: pipeline });
  });

  it('moves the provider with the repository and keeps its other settings', () => {
    const result = changedPipeline(pipeline, { repository: 'git@gitlab.com:acme/app.git' }, null);
    expect(result.ok && result.value.provider).toEqual({
      id: 'gitlab',
      settings: { ...PROVIDER_SETTING_DEFAULTS, build_tags: true, repository: 'acme/app' },
    });
  });

  it('merges provider_settings over the stored settings', () => {
    const result = changedPipeline(pipeline, { providerSettings: { publish_commit_status: false } }, null);
    expect(result.ok && result.value.provider.settings).toMatchObject({
      build_tags: true,
      publish_commit_status: false,
      repository: 'acme/app',
    });
  });

  it.each<[string, Parameters<typeof changedPipeline>[1], DefinedSteps | null, Record<string, string>]>([
    ['neither env nor YAML: the env stays', { name: 'x' }, null, { OLD: '1' }],
    ['env alone replaces it', { env: { NEW: '2' } }, null, { NEW: '2' }],
    ["new YAML gives the YAML's env", {}, yaml({ FOO: 'bar' }), { FOO: 'bar' }],
    [
      "new YAML and env: env over the YAML's",
      { env: { FOO: 'mine' } },
      yaml({ FOO: 'bar', B: 'c' }),
      { FOO: 'mine', B: 'c' },
    ],
    ['a steps list keeps the env', {}, { steps: [], configuration: null, env: null }, { OLD: '1' }],
  ])('env: %s', (_case, changes, defined, env) => {
    const result = changedPipeline(pipeline, changes, defined);
    expect(result.ok && result.value.env).toEqual(env);
  });

  it('takes the new steps and where they came from', () => {
    const result = changedPipeline(pipeline, {}, { steps: [], configuration: null, env: null });
    expect(result.ok && [result.value.steps, result.value.configuration]).toEqual([[], null]);
  });

  it('refuses to change an archived pipeline', () => {
    const result = changedPipeline({ ...pipeline, archivedAt: new Date(1) }, { name: 'x' }, null);
    expect(result.ok ? undefined : [result.error.kind, result.error.code]).toEqual([
      'unprocessable',
      'pipeline_archived',
    ]);
  });
});

describe('pipelineEnv', () => {
  it("puts the request's env over the YAML's", () => {
    expect(pipelineEnv({ env: { A: '1', B: '2' } }, { B: '3' })).toEqual({ A: '1', B: '3' });
    expect(pipelineEnv(null, undefined)).toEqual({});
  });
});

describe('archiving', () => {
  const at = new Date('2026-11-21T10:00:00.000Z');

  it.each<[string, Date | null, 'archive' | 'unarchive', Date | null | string]>([
    ['archives a pipeline', null, 'archive', at],
    ['refuses to archive an archived one', new Date(5), 'archive', 'Pipeline could not be archived.'],
    ['unarchives an archived one', new Date(5), 'unarchive', null],
    ['refuses to unarchive one that is not', null, 'unarchive', 'Pipeline could not be unarchived.'],
  ])('%s', (_case, archivedAt, action, expected) => {
    const current = { ...pipeline, archivedAt };
    const result = action === 'archive' ? archivedPipeline(current, at) : unarchivedPipeline(current);
    if (typeof expected === 'string') {
      expect(result.ok ? undefined : [result.error.kind, result.error.message]).toEqual([
        'unprocessable',
        expected,
      ]);
    } else expect(result.ok && result.value.archivedAt).toEqual(expected);
  });
});

describe('parsePipelineListFilter', () => {
  it('reads the name and repository filters; empty ones filter nothing', () => {
    expect(parsePipelineListFilter({ name: 'Web', repository: '' })).toEqual({
      ok: true,
      value: { name: 'Web', repository: null, archived: null },
    });
  });

  it.each([true, false])('keeps archived: %s, which only GraphQL asks for', (archived) => {
    expect(parsePipelineListFilter({ archived })).toEqual({
      ok: true,
      value: { name: null, repository: null, archived },
    });
  });

  it('answers 400 for a filter the database could not compare', () => {
    const result = parsePipelineListFilter({ name: 'a\u0000' });
    expect(result.ok ? undefined : [result.error.kind, result.error.message]).toEqual([
      'bad_request',
      "name can't contain NUL characters or unpaired surrogates",
    ]);
  });
});

describe('repositoryWebUrl', () => {
  it.each([
    ['git@github.com:acme/app.git', 'https://github.com/acme/app'],
    ['https://gitlab.com/acme/group/app.git', 'https://gitlab.com/acme/group/app'],
    ['ssh://git@bitbucket.org/acme/app.git', 'https://bitbucket.org/acme/app'],
    ['git@example.com:acme/app.git', null],
  ])('gives %s the page %s', (repository, page) => {
    expect(repositoryWebUrl(newProvider(repository, {}))).toBe(page);
  });
});
