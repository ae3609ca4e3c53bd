import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CommandStep, StepDefinition } from './entities';
import type { FieldError } from './errors';
import { textBlockField } from './job.fixture';
import { testPatterns } from './step-condition.fixture';
import { parsePipelineFile, parseStepDefinitions } from './steps';

/** Step ids in order of allocation, so expectations can name them. */
function stepIds() {
  let n = 0;
  return () => `step-${++n}`;
}

function parse(doc: unknown) {
  return parseStepDefinitions(doc, stepIds(), testPatterns);
}

function parsedOne(step: unknown): StepDefinition | undefined {
  const result = parse([step]);
  return result.ok ? result.value[0] : undefined;
}

function errorsOf(doc: unknown): FieldError[] | undefined {
  const result = parse(doc);
  return result.ok ? undefined : result.error.details?.errors;
}

const command = (fields: Partial<CommandStep>): CommandStep => ({
  type: 'command',
  id: 'step-1',
  key: null,
  label: null,
  command: 'make test',
  env: {},
  agentQueryRules: [],
  softFail: false,
  parallelism: null,
  retry: null,
  artifactPaths: null,
  ...fields,
});

const PARALLELISM = 'parallelism must be a positive integer up to 100';

describe('parseStepDefinitions', () => {
  it('reads a pipeline document with a steps list', () => {
    const result = parse({
      env: { IGNORED: 'top-level' },
      steps: [
        { label: ':test_tube: Tests', key: 'tests', command: 'make test' },
        'wait',
        { block: 'Release?' },
        'make deploy',
      ],
    });
    expect(result).toEqual({
      ok: true,
      value: [
        command({ id: 'step-1', label: ':test_tube: Tests', key: 'tests' }),
        { type: 'wait', id: 'step-2', key: null, continueOnFailure: false },
        { type: 'block', id: 'step-3', key: null, label: 'Release?' },
        command({ id: 'step-4', command: 'make deploy' }),
      ],
    });
  });

  it('reads a bare list of steps', () => {
    expect(parse(['echo hi'])).toEqual({ ok: true, value: [command({ command: 'echo hi' })] });
  });

  it.each<[string, unknown, Partial<CommandStep>]>([
    ['name as the label', { name: 'Lint', command: 'lint' }, { label: 'Lint', command: 'lint' }],
    ['identifier as the key', { identifier: 'lint', command: 'lint' }, { key: 'lint', command: 'lint' }],
    ['a list of commands', { commands: ['npm ci', 'npm test'] }, { command: 'npm ci\nnpm test' }],
    ['command as a list', { command: ['a', 'b'] }, { command: 'a\nb' }],
    ['an explicit command type', { type: 'command', command: 'x' }, { command: 'x' }],
    [
      'env values of any scalar type',
      { command: 'x', env: { A: 'a', N: 1, B: true } },
      { command: 'x', env: { A: 'a', N: '1', B: 'true' } },
    ],
    [
      'agents as a map',
      { command: 'x', agents: { queue: 'deploy', docker: true } },
      { command: 'x', agentQueryRules: ['queue=deploy', 'docker=true'] },
    ],
    [
      'agents as a list',
      { command: 'x', agents: ['queue=deploy'] },
      { command: 'x', agentQueryRules: ['queue=deploy'] },
    ],
    ['soft_fail true', { command: 'x', soft_fail: true }, { command: 'x', softFail: true }],
    [
      'soft_fail as exit statuses',
      { command: 'x', soft_fail: [{ exit_status: 1 }, { exit_status: '*' }] },
      { command: 'x', softFail: true },
    ],
    ['soft_fail as an empty list', { command: 'x', soft_fail: [] }, { command: 'x', softFail: false }],
    ['parallelism', { command: 'x', parallelism: 4 }, { command: 'x', parallelism: 4 }],
    ['parallelism at its limit', { command: 'x', parallelism: 100 }, { command: 'x', parallelism: 100 }],
    [
      'agent_query_rules, the legacy name of agents',
      { type: 'script', command: 'x', agent_query_rules: ['aws=true'] },
      { command: 'x', agentQueryRules: ['aws=true'] },
    ],
    [
      'retry automatic true',
      { command: 'x', retry: { automatic: true } },
      { command: 'x', retry: { automatic: 2 } },
    ],
    [
      'retry automatic false',
      { command: 'x', retry: { automatic: false } },
      { command: 'x', retry: { automatic: null } },
    ],
    [
      'retry automatic as a limit',
      { command: 'x', retry: { automatic: 3 } },
      { command: 'x', retry: { automatic: 3 } },
    ],
    [
      'retry automatic with a limit',
      { command: 'x', retry: { automatic: { limit: 5 } } },
      { command: 'x', retry: { automatic: 5 } },
    ],
    [
      'retry automatic without a limit',
      { command: 'x', retry: { automatic: { exit_status: -1 } } },
      { command: 'x', retry: { automatic: 2 } },
    ],
    [
      'retry automatic as a list of rules',
      {
        command: 'x',
        retry: {
          automatic: [
            { exit_status: -1, limit: 1 },
            { exit_status: 255, limit: 4 },
          ],
        },
      },
      { command: 'x', retry: { automatic: 4 } },
    ],
    [
      'retry with only manual settings',
      { command: 'x', retry: { manual: false } },
      { command: 'x', retry: { automatic: null } },
    ],
    [
      'artifact_paths as a string',
      { command: 'x', artifact_paths: 'log/**/*' },
      { command: 'x', artifactPaths: 'log/**/*' },
    ],
    [
      'artifact_paths as a list',
      { command: 'x', artifact_paths: ['a/*', 'b/*'] },
      { command: 'x', artifactPaths: 'a/*;b/*' },
    ],
    [
      'null optional fields',
      { command: 'x', label: null, env: null, agents: null, retry: null },
      { command: 'x' },
    ],
    [
      'fields this service does not run',
      { command: 'x', plugins: [{ docker: {} }], depends_on: 'a' },
      { command: 'x' },
    ],
    [
      'branches as a string or a list, and an if',
      { command: 'x', branches: ['main', 'release/*'], if: 'build.tag == null' },
      { command: 'x', branches: 'main release/*', condition: 'build.tag == null' },
    ],
    ['a timeout', { command: 'x', timeout_in_minutes: 15 }, { command: 'x', timeoutInMinutes: 15 }],
    [
      'a matrix',
      { command: 'test {{matrix}}', matrix: ['a', 'b'] },
      { command: 'test {{matrix}}', matrix: { setup: { '': ['a', 'b'] }, adjustments: [] } },
    ],
  ])('reads a command step with %s', (_case, step, expected) => {
    expect(parsedOne(step)).toEqual(command(expected));
  });

  it.each<[string, unknown, StepDefinition]>([
    ['the string wait', 'wait', { type: 'wait', id: 'step-1', key: null, continueOnFailure: false }],
    ['a wait key', { wait: null }, { type: 'wait', id: 'step-1', key: null, continueOnFailure: false }],
    [
      'a wait that continues on failure',
      { wait: '~', continue_on_failure: true, key: 'gate' },
      { type: 'wait', id: 'step-1', key: 'gate', continueOnFailure: true },
    ],
    [
      'an explicit wait type',
      { type: 'wait' },
      { type: 'wait', id: 'step-1', key: null, continueOnFailure: false },
    ],
    [
      'a block label',
      { block: ':rocket: Release' },
      { type: 'block', id: 'step-1', key: null, label: ':rocket: Release' },
    ],
    [
      'an explicit block type',
      { type: 'block', label: 'Go?', key: 'go' },
      { type: 'block', id: 'step-1', key: 'go', label: 'Go?' },
    ],
    ['a block without a label', { type: 'block' }, { type: 'block', id: 'step-1', key: null, label: null }],
    [
      'a block with fields',
      { block: 'Release', fields: [{ text: 'Version', key: 'version' }] },
      {
        type: 'block',
        id: 'step-1',
        key: null,
        label: 'Release',
        fields: [textBlockField()],
      },
    ],
  ])('reads %s', (_case, step, expected) => {
    expect(parsedOne(step)).toEqual(expected);
  });

  it.each<[string, unknown, string]>([
    ['no steps key', { env: {} }, 'steps must be given'],
    ['null', null, 'steps must be given'],
    ['a string document', 'steps', 'steps must be a list'],
    ['steps as an object', { steps: { command: 'x' } }, 'steps must be a list'],
    ['an empty list', { steps: [] }, 'steps must contain at least one step'],
  ])('refuses %s', (_case, doc, message) => {
    expect(errorsOf(doc)?.map((e) => e.message)).toEqual([message]);
  });

  it.each<[string, unknown, string]>([
    ['a number', 42, 'Step 1: expected a command, wait, block, trigger or group step'],
    ['a block’s fields not a list', { block: 'Go', fields: 'x' }, 'Step 1: fields must be a list'],
    ['an empty string', '  ', 'Step 1: a step cannot be an empty string'],
    [
      'an unknown step kind',
      { deploy: 'x' },
      'Step 1: expected a command, wait, block, trigger or group step',
    ],
    [
      'an unknown type',
      { type: 'input', command: 'x' },
      'Step 1: expected a command, wait, block, trigger or group step',
    ],
    [
      'a trigger without a pipeline',
      { type: 'trigger', command: 'x' },
      "Step 1: trigger must be a pipeline's slug",
    ],
    ['a trigger of a bad slug', { trigger: 'a b' }, "Step 1: trigger must be a pipeline's slug"],
    [
      'a trigger with async as text',
      { trigger: 'deploy', async: 'yes' },
      'Step 1: async must be true or false',
    ],
    ['a trigger with build as a list', { trigger: 'deploy', build: [] }, 'Step 1: build must be an object'],
    [
      'a trigger with a numeric commit',
      { trigger: 'deploy', build: { commit: 5 } },
      'Step 1: build.commit must be a non-empty string',
    ],
    [
      'a trigger with meta_data as a list',
      { trigger: 'deploy', build: { meta_data: ['a'] } },
      'Step 1: build.meta_data must map names to strings',
    ],
    ['a bad if', { command: 'x', if: 'build.branch == ' }, 'Step 1: if: the expression ends too early'],
    [
      'an if with an unsupported regular expression flag',
      { command: 'x', if: 'build.branch =~ /x/g' },
      'Step 1: if: unsupported regular expression flag "g" in /x/g (only "i" is supported)',
    ],
    [
      'an if with a pattern that does not compile',
      { command: 'x', if: 'build.message =~ /(x/' },
      'Step 1: if: invalid regular expression /(x/: Invalid regular expression: /(x/: Unterminated group',
    ],
    [
      'a timeout of no minutes',
      { command: 'x', timeout_in_minutes: 0 },
      'Step 1: timeout_in_minutes must be a whole number of minutes from 1 to 10080',
    ],
    [
      'a fractional timeout',
      { command: 'x', timeout_in_minutes: 1.5 },
      'Step 1: timeout_in_minutes must be a whole number of minutes from 1 to 10080',
    ],
    [
      'a bad branches',
      { command: 'x', branches: 3 },
      'Step 1: branches must be a string or a list of strings',
    ],
    [
      'a bad matrix',
      { command: 'x', matrix: 'a' },
      'Step 1: matrix must be a list or { setup, adjustments }',
    ],
    ['an empty group', { group: 'g', steps: [] }, 'Step 1: a group must have a non-empty list of steps'],
    [
      'a group in a group',
      { group: 'g', steps: [{ group: 'h', steps: ['x'] }] },
      'Step 1: group step 1: a group cannot hold another group',
    ],
    [
      'a command step without a command',
      { type: 'command', label: 'x' },
      'Step 1: command must be a non-empty string or list of strings',
    ],
    ['an empty command', { command: '' }, 'Step 1: command must be a non-empty string or list of strings'],
    [
      'a command list with a number',
      { commands: ['a', 1] },
      'Step 1: command must be a non-empty string or list of strings',
    ],
    ['a numeric label', { command: 'x', label: 5 }, 'Step 1: label must be a string'],
    ['an empty key', { command: 'x', key: '' }, 'Step 1: key must be a non-empty string'],
    ['nested env values', { command: 'x', env: { A: { B: 'c' } } }, 'Step 1: env must map names to strings'],
    [
      'agents as a string',
      { command: 'x', agents: 'queue=deploy' },
      'Step 1: agents must be a map of tags or a list of "tag=value" strings',
    ],
    [
      'soft_fail as a string',
      { command: 'x', soft_fail: 'yes' },
      'Step 1: soft_fail must be true, false or a list of { exit_status }',
    ],
    [
      'soft_fail with a bad exit status',
      { command: 'x', soft_fail: [{ exit_status: 'one' }] },
      'Step 1: soft_fail must be true, false or a list of { exit_status }',
    ],
    ['parallelism 0', { command: 'x', parallelism: 0 }, `Step 1: ${PARALLELISM}`],
    ['parallelism 1.5', { command: 'x', parallelism: 1.5 }, `Step 1: ${PARALLELISM}`],
    ['parallelism 101', { command: 'x', parallelism: 101 }, `Step 1: ${PARALLELISM}`],
    ['retry as a number', { command: 'x', retry: 3 }, 'Step 1: retry must be an object'],
    [
      'a retry limit over 10',
      { command: 'x', retry: { automatic: { limit: 11 } } },
      'Step 1: retry.automatic must be true, false, a limit up to 10 or { limit }',
    ],
    [
      'a negative retry limit',
      { command: 'x', retry: { automatic: -1 } },
      'Step 1: retry.automatic must be true, false, a limit up to 10 or { limit }',
    ],
    [
      'artifact_paths as a number',
      { command: 'x', artifact_paths: 1 },
      'Step 1: artifact_paths must be a string or a list of strings',
    ],
    [
      'a non-boolean continue_on_failure',
      { wait: null, continue_on_failure: 'yes' },
      'Step 1: continue_on_failure must be true or false',
    ],
    ['a numeric block label', { block: 5 }, 'Step 1: label must be a string'],
  ])('refuses %s', (_case, step, message) => {
    expect(errorsOf([step])).toEqual([{ field: 'steps', code: 'invalid', message }]);
  });

  it('names every wrong step, and every problem of each', () => {
    const errors = errorsOf(['echo ok', { command: '', parallelism: -1 }, 'wait', 7]);
    expect(errors?.map((e) => e.message)).toEqual([
      `Step 2: command must be a non-empty string or list of strings; ${PARALLELISM}`,
      'Step 4: expected a command, wait, block, trigger or group step',
    ]);
  });

  it('refuses a key used by two steps', () => {
    const errors = errorsOf([
      { command: 'a', key: 'build' },
      { block: 'ok?', key: 'build' },
    ]);
    expect(errors?.map((e) => e.message)).toEqual(['Step 2: key "build" is already used by another step']);
  });

  it.each<[string, unknown[], boolean]>([
    [
      '1000 jobs from parallel copies',
      Array.from({ length: 10 }, () => ({ command: 'x', parallelism: 100 })),
      true,
    ],
    ['1000 jobs with waits', [...Array.from({ length: 999 }, () => 'x'), 'wait'], true],
    ['1001 jobs', [...Array.from({ length: 10 }, () => ({ command: 'x', parallelism: 100 })), 'wait'], false],
  ])('allows at most 1000 jobs per build: %s', (_case, doc, allowed) => {
    const errors = errorsOf(doc);
    if (allowed) expect(errors).toBeUndefined();
    else
      expect(errors).toEqual([
        { field: 'steps', code: 'too_long', message: 'steps give 1001 jobs per build (maximum is 1000)' },
      ]);
  });

  it('gives every step its own id', () => {
    const result = parseStepDefinitions(['a', 'wait', 'b'], stepIds(), testPatterns);
    expect(result.ok && result.value.map((step) => step.id)).toEqual(['step-1', 'step-2', 'step-3']);
  });

  it('never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.array(fc.jsonValue())), (doc) => {
        const result = parse(doc);
        expect(typeof result.ok).toBe('boolean');
      }),
    );
  });
});

describe('concurrency', () => {
  it('reads concurrency with its group', () => {
    expect(parsedOne({ command: 'deploy', concurrency: 1, concurrency_group: ' app/deploy ' })).toMatchObject(
      {
        concurrency: { limit: 1, group: 'app/deploy' },
      },
    );
    expect(parsedOne({ command: 'x' })).not.toHaveProperty('concurrency');
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a limit without a group', { concurrency: 2 }, 'concurrency_group must be a non-empty string'],
    [
      'a group without a limit',
      { concurrency_group: 'g' },
      'concurrency must be a whole number from 1 to 1000',
    ],
    ['a limit of 0', { concurrency: 0, concurrency_group: 'g' }, 'concurrency must be a whole number'],
    ['a limit as text', { concurrency: '1', concurrency_group: 'g' }, 'concurrency must be a whole number'],
    [
      'a blank group',
      { concurrency: 1, concurrency_group: ' ' },
      'concurrency_group must be a non-empty string',
    ],
  ])('refuses %s', (_case, fields, message) => {
    expect(errorsOf([{ command: 'x', ...fields }])?.[0]?.message).toContain(message);
  });
});

describe('trigger steps', () => {
  it('reads the target, label, async, build fields and filters', () => {
    expect(
      parsedOne({
        trigger: 'deploy-app',
        label: ':rocket: deploy',
        key: 'deploy',
        async: true,
        branches: 'main',
        if: 'build.message != "skip"',
        build: {
          message: 'Deploy',
          commit: 'abc123',
          branch: 'release',
          meta_data: { release: 1 },
          env: { STAGE: 'prod' },
        },
      }),
    ).toEqual({
      type: 'trigger',
      id: 'step-1',
      key: 'deploy',
      label: ':rocket: deploy',
      pipeline: 'deploy-app',
      async: true,
      branches: 'main',
      condition: 'build.message != "skip"',
      build: {
        message: 'Deploy',
        commit: 'abc123',
        branch: 'release',
        metaData: { release: '1' },
        env: { STAGE: 'prod' },
      },
    });
  });

  it('waits for its build, and leaves every build field to the defaults, when it says nothing', () => {
    expect(parsedOne({ type: 'trigger', trigger: 'deploy' })).toEqual({
      type: 'trigger',
      id: 'step-1',
      key: null,
      label: null,
      pipeline: 'deploy',
      async: false,
      build: { message: null, commit: null, branch: null, metaData: {}, env: {} },
    });
  });

  it("reads the API's legacy trigger step, as pipelines show their steps", () => {
    expect(
      parsedOne({
        type: 'trigger',
        label: 'Deploy',
        trigger_project_slug: 'deploy',
        trigger_commit: 'abc',
        trigger_branch: null,
        trigger_async: true,
      }),
    ).toMatchObject({
      type: 'trigger',
      pipeline: 'deploy',
      async: true,
      build: { commit: 'abc', branch: null, message: null },
    });
  });

  it('counts as one job of a build', () => {
    const steps = Array.from({ length: 1000 }, () => ({ trigger: 'deploy' }));
    expect(parse(steps).ok).toBe(true);
    expect(errorsOf([...steps, { trigger: 'deploy' }])?.[0]?.code).toBe('too_long');
  });
});

describe('group steps and filters', () => {
  it("puts a group's steps in its place, with the group's filters and their own", () => {
    const result = parse([
      'echo before',
      {
        group: 'Tests',
        key: 'tests',
        branches: 'main',
        if: 'build.source == "api"',
        steps: [{ command: 'unit', if: 'build.tag == null' }, 'wait', { block: 'ok?', branches: '!wip' }],
      },
      { wait: null, if: 'build.branch != "x"' },
    ]);
    expect(result.ok && result.value).toEqual([
      command({ id: 'step-1', command: 'echo before' }),
      command({
        id: 'step-2',
        command: 'unit',
        branches: 'main',
        condition: '(build.source == "api") && (build.tag == null)',
        groupKey: 'tests',
      }),
      {
        type: 'wait',
        id: 'step-3',
        key: null,
        continueOnFailure: false,
        branches: 'main',
        condition: 'build.source == "api"',
        groupKey: 'tests',
      },
      {
        type: 'block',
        id: 'step-4',
        key: null,
        label: 'ok?',
        groupKey: 'tests',
        branches: 'main !wip',
        condition: 'build.source == "api"',
      },
      { type: 'wait', id: 'step-5', key: null, continueOnFailure: false, condition: 'build.branch != "x"' },
    ]);
  });

  it('names a key-less group by a step id of its own on each of its steps', () => {
    const result = parse([{ group: 'Lint', steps: ['eslint', 'tsc'] }, 'echo after']);
    const steps = result.ok ? result.value : [];
    const [first, second, after] = steps;
    expect(first?.groupKey).toMatch(/^step-/);
    expect(second?.groupKey).toBe(first?.groupKey);
    expect(steps.map((step) => step.id)).not.toContain(first?.groupKey);
    expect(after?.groupKey).toBeUndefined();
  });

  it('refuses keys used twice across groups', () => {
    expect(
      errorsOf([
        { group: 'a', steps: [{ command: 'x', key: 'k' }] },
        { command: 'y', key: 'k' },
      ]),
    ).toEqual([
      { field: 'steps', code: 'invalid', message: 'Step 2: key "k" is already used by another step' },
    ]);
  });

  it("counts a matrix's combinations against the jobs a build may have", () => {
    const setup = { a: Array.from({ length: 20 }, (_, i) => i), b: Array.from({ length: 20 }, (_, i) => i) };
    expect(parse([{ command: 'x', matrix: { setup } }]).ok).toBe(true);
    const errors = errorsOf([{ command: 'x', matrix: { setup }, parallelism: 3 }]);
    expect(errors).toEqual([
      { field: 'steps', code: 'too_long', message: 'steps give 1200 jobs per build (maximum is 1000)' },
    ]);
    const huge = {
      setup: {
        a: Array.from({ length: 20 }, (_, i) => i),
        b: Array.from({ length: 20 }, (_, i) => i),
        c: Array.from({ length: 20 }, (_, i) => i),
      },
    };
    expect(errorsOf([{ command: 'x', matrix: huge }])?.[0]?.message).toBe(
      'steps give 8000 jobs per build (maximum is 1000)',
    );
  });
});

describe('parsePipelineFile', () => {
  const file = (doc: unknown) => parsePipelineFile(doc, stepIds(), testPatterns);

  it('reads the steps and the top-level env, scalars written as text', () => {
    expect(file({ env: { FOO: 'bar', N: 1 }, steps: [{ command: 'x' }] })).toEqual({
      ok: true,
      value: { steps: [command({ command: 'x' })], env: { FOO: 'bar', N: '1' } },
    });
  });

  it.each([{ steps: ['x'] }, ['x'], { env: null, steps: ['x'] }])('gives an empty env to %j', (doc) => {
    const result = file(doc);
    expect(result.ok && result.value.env).toEqual({});
  });

  it('reports every problem on configuration', () => {
    const result = file({ env: ['FOO=bar'], steps: [{ command: '' }] });
    expect(result.ok ? undefined : result.error.details?.errors).toEqual([
      {
        field: 'configuration',
        code: 'invalid',
        message: 'Step 1: command must be a non-empty string or list of strings',
      },
      { field: 'configuration', code: 'invalid', message: 'env must map names to strings' },
    ]);
  });

  it('refuses a file without steps, as missing', () => {
    const result = file({ env: { A: 'b' } });
    expect(result.ok ? undefined : result.error.details?.errors).toEqual([
      { field: 'configuration', code: 'missing', message: 'steps must be given' },
    ]);
  });
});
