import { describe, expect, it } from 'vitest';
import {
  type CronCheck,
  envFromLines,
  isTimeZone,
  parsePipelineScheduleRequest,
  parsePipelineScheduleSlug,
  parseScheduleEnv,
  pipelineScheduleBuildRequest,
  splitCronline,
} from './pipeline-schedule';

const anyCron: CronCheck = () => null;

describe('splitCronline', () => {
  it.each([
    ['* * * * *', { expression: '* * * * *', timezone: 'UTC' }],
    ['  0   9 * * 1-5  ', { expression: '0 9 * * 1-5', timezone: 'UTC' }],
    ['30 2 * * * Europe/London', { expression: '30 2 * * *', timezone: 'Europe/London' }],
    ['@daily', { expression: '@daily', timezone: 'UTC' }],
    ['@MIDNIGHT America/New_York', { expression: '@midnight', timezone: 'America/New_York' }],
    ['@hourly UTC', { expression: '@hourly', timezone: 'UTC' }],
  ])('reads %j', (text, expected) => {
    expect(splitCronline(text)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['', "can't be blank"],
    ['   ', "can't be blank"],
    ['* * * *', 'needs 5 fields, has 4'],
    ['0 * * * * * *', 'has 7 fields; at most 6'],
    ['0 0 * * * *', '* is not a known time zone'],
    ['0 0 * * * Mars/Olympus', 'Mars/Olympus is not a known time zone'],
    ['@fortnightly', '@fortnightly is not one of'],
    ['@daily UTC extra', 'has 3 fields; at most 2'],
  ])('refuses %j', (text, problem) => {
    const split = splitCronline(text);
    expect(split.ok).toBe(false);
    if (!split.ok) expect(split.error).toContain(problem);
  });
});

describe('isTimeZone', () => {
  it.each([
    ['UTC', true],
    ['Europe/Berlin', true],
    ['Etc/GMT+5', true],
    ['Nowhere/Land', false],
    ['', false],
    ['../etc/passwd', false],
  ])('%j is a time zone: %s', (name, expected) => expect(isTimeZone(name)).toBe(expected));
});

describe('parsePipelineScheduleRequest', () => {
  it('fills a create body with its defaults', () => {
    expect(
      parsePipelineScheduleRequest(
        { label: 'Nightly', cronline: '0 0 * * *' },
        { partial: false, checkCron: anyCron },
      ),
    ).toEqual({
      ok: true,
      value: {
        label: 'Nightly',
        cronline: '0 0 * * *',
        branch: null,
        commit: null,
        message: null,
        env: {},
        enabled: true,
      },
    });
  });

  it('reads every field and tidies the cronline spaces', () => {
    const parsed = parsePipelineScheduleRequest(
      {
        label: 'Nightly',
        cronline: ' 0  0 * * * Europe/Paris',
        branch: 'main',
        commit: 'abc',
        message: 'Night',
        env: { A: '1' },
        enabled: false,
      },
      { partial: false, checkCron: anyCron },
    );
    expect(parsed).toEqual({
      ok: true,
      value: {
        label: 'Nightly',
        cronline: '0 0 * * * Europe/Paris',
        branch: 'main',
        commit: 'abc',
        message: 'Night',
        env: { A: '1' },
        enabled: false,
      },
    });
  });

  it('takes only what an update names', () => {
    expect(parsePipelineScheduleRequest({ enabled: false }, { partial: true, checkCron: anyCron })).toEqual({
      ok: true,
      value: { enabled: false },
    });
  });

  it('clears the build fields with null or empty text', () => {
    expect(
      parsePipelineScheduleRequest({ branch: '', commit: null }, { partial: true, checkCron: anyCron }),
    ).toEqual({ ok: true, value: { branch: null, commit: null } });
  });

  it('requires a label and a cronline to create, and refuses to blank them', () => {
    for (const [body, partial] of [
      [{}, false],
      [{ label: '', cronline: null }, true],
    ] as const) {
      const parsed = parsePipelineScheduleRequest(body, { partial, checkCron: anyCron });
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(parsed.error.kind).toBe('unprocessable');
        expect(parsed.error.message).toBe("Validation Failed: label can't be blank; cronline can't be blank");
      }
    }
  });

  it('names the cronline and the parser problem in the message', () => {
    const parsed = parsePipelineScheduleRequest(
      { label: 'x', cronline: '61 * * * *' },
      { partial: false, checkCron: ({ expression }) => `${expression}: minute out of range` },
    );
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.error.message).toBe(
        'Validation Failed: cronline "61 * * * *" is not a valid cron expression: 61 * * * *: minute out of range',
      );
    }
  });

  it('does not ask the parser about a cronline of the wrong shape', () => {
    let asked = false;
    const parsed = parsePipelineScheduleRequest(
      { label: 'x', cronline: 'every day' },
      {
        partial: false,
        checkCron: () => {
          asked = true;
          return null;
        },
      },
    );
    expect(parsed.ok).toBe(false);
    expect(asked).toBe(false);
  });

  it.each([
    [{ label: 5 }, 'label must be a string'],
    [{ label: 'x'.repeat(256) }, 'label is too long (maximum is 255 characters)'],
    [{ message: 'a\u0000b' }, 'message can'],
    [{ env: 'A=1' }, 'env must be an object of strings'],
    [{ env: { A: 1 } }, 'env.A must be a string'],
    [{ enabled: 'yes' }, 'enabled must be true or false'],
  ])('refuses %j', (body, message) => {
    const parsed = parsePipelineScheduleRequest(body, { partial: true, checkCron: anyCron });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.message).toContain(message);
  });

  it('reports every invalid field at once', () => {
    const parsed = parsePipelineScheduleRequest(
      { label: 1, cronline: '* *', enabled: 1 },
      { partial: true, checkCron: anyCron },
    );
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(
        ((parsed.error.details?.errors ?? []) as { field: string }[]).map((error) => error.field),
      ).toEqual(['label', 'cronline', 'enabled']);
    }
  });

  it('reads a body that is not an object as an empty one', () => {
    expect(parsePipelineScheduleRequest('text', { partial: true, checkCron: anyCron })).toEqual({
      ok: true,
      value: {},
    });
  });
});

describe('parseScheduleEnv', () => {
  it.each([
    [null, {}],
    [{}, {}],
    [
      { A: '1', _B2: '' },
      { A: '1', _B2: '' },
    ],
  ])('reads %j', (value, expected) => expect(parseScheduleEnv(value)).toEqual({ ok: true, value: expected }));

  it.each([
    [[], 'env must be an object of strings'],
    ['A=1', 'env must be an object of strings'],
    [{ A: true }, 'env.A must be a string'],
    [{ '1A': 'x' }, 'env name "1A"'],
    [{ 'A-B': 'x' }, 'env name "A-B"'],
    [{ A: 'x'.repeat(10_001) }, 'env.A is too long'],
    [Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`V${i}`, 'x'])), 'more than 100'],
  ])('refuses %j', (value, problem) => {
    const parsed = parseScheduleEnv(value);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain(problem);
  });
});

describe('env lines', () => {
  it('reads KEY=value lines, skipping blank ones, splitting at the first =', () => {
    expect(envFromLines('A=1\n\nB=x=y\r\nC=')).toEqual({ ok: true, value: { A: '1', B: 'x=y', C: '' } });
  });

  it('refuses a line without a name or an =', () => {
    expect(envFromLines('A')).toEqual({ ok: false, error: 'env line "A" is not KEY=value' });
    expect(envFromLines('=1').ok).toBe(false);
  });

  it('keeps a variable named __proto__ as a variable', () => {
    const read = parseScheduleEnv(JSON.parse('{"__proto__": "x", "A": "1"}'));
    expect(read.ok && Object.entries(read.value)).toEqual([
      ['__proto__', 'x'],
      ['A', '1'],
    ]);
    const lines = envFromLines('__proto__=y');
    expect(lines.ok && Object.entries(lines.value)).toEqual([['__proto__', 'y']]);
  });

  it('reads back the lines the public GraphQL shows', () => {
    const env = { A: '1', B: 'x=y' };
    expect(envFromLines(['A=1', 'B=x=y'].join('\n'))).toEqual({ ok: true, value: env });
  });
});

describe('pipelineScheduleBuildRequest', () => {
  it("uses the schedule's fields", () => {
    expect(
      pipelineScheduleBuildRequest(
        { branch: 'release', commit: 'abc', message: 'Nightly', env: { A: '1' } },
        { defaultBranch: 'main' },
      ),
    ).toMatchObject({ branch: 'release', commit: 'abc', message: 'Nightly', env: { A: '1' }, metaData: {} });
  });

  it("falls back to the pipeline's default branch, HEAD and Scheduled build", () => {
    expect(
      pipelineScheduleBuildRequest(
        { branch: null, commit: null, message: null, env: {} },
        { defaultBranch: 'trunk' },
      ),
    ).toMatchObject({ branch: 'trunk', commit: 'HEAD', message: 'Scheduled build' });
    expect(
      pipelineScheduleBuildRequest(
        { branch: null, commit: null, message: null, env: {} },
        { defaultBranch: null },
      ),
    ).toMatchObject({ branch: 'main' });
  });
});

describe('parsePipelineScheduleSlug', () => {
  it.each([
    [
      'acme/app/0190a1b2-0000-7000-8000-000000000000',
      { organization: 'acme', pipeline: 'app', schedule: '0190a1b2-0000-7000-8000-000000000000' },
    ],
    ['acme/app', null],
    ['acme//x', null],
    ['a/b/c/d', null],
  ])('%j', (slug, expected) => expect(parsePipelineScheduleSlug(slug)).toEqual(expected));
});
