import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCESS_LEVELS } from './access';
import { isDomainError } from './errors';
import {
  parseNewTeamPipeline,
  parseTeamPipelineChange,
  teamPipelineLastTeam,
  teamPipelineMissingPipeline,
  teamPipelineTaken,
  teamPipelineUnknownPipeline,
} from './team-pipeline';

const PIPELINE = '0190f3a1-1111-7abc-8def-0123456789ab';

const failure = (result: { ok: boolean; error?: unknown }) => {
  expect(result.ok).toBe(false);
  const error = (result as { error: unknown }).error;
  expect(isDomainError(error)).toBe(true);
  return error as { kind: string; code: string; message: string };
};

describe('parseNewTeamPipeline', () => {
  it.each(ACCESS_LEVELS)('accepts a pipeline UUID with access level %s', (accessLevel) => {
    expect(parseNewTeamPipeline({ pipeline_id: PIPELINE, access_level: accessLevel })).toEqual({
      ok: true,
      value: { pipelineId: PIPELINE, accessLevel },
    });
  });

  it('lowercases the pipeline UUID and ignores unknown fields', () => {
    expect(
      parseNewTeamPipeline({ pipeline_id: PIPELINE.toUpperCase(), access_level: 'read_only', extra: 1 }),
    ).toEqual({ ok: true, value: { pipelineId: PIPELINE, accessLevel: 'read_only' } });
  });

  it.each<[string, unknown, string]>([
    ['an empty body', {}, "Pipeline can't be blank, Access level can't be blank"],
    ['no body at all', undefined, "Pipeline can't be blank, Access level can't be blank"],
    ['a body that is an array', [PIPELINE], "Pipeline can't be blank, Access level can't be blank"],
    ['no pipeline_id', { access_level: 'read_only' }, "Pipeline can't be blank"],
    ['a null pipeline_id', { pipeline_id: null, access_level: 'read_only' }, "Pipeline can't be blank"],
    ['an empty pipeline_id', { pipeline_id: '', access_level: 'read_only' }, "Pipeline can't be blank"],
    ['a blank pipeline_id', { pipeline_id: '   ', access_level: 'read_only' }, "Pipeline can't be blank"],
    ['a slug as pipeline_id', { pipeline_id: 'web', access_level: 'read_only' }, 'Pipeline is invalid'],
    ['a numeric pipeline_id', { pipeline_id: 42, access_level: 'read_only' }, 'Pipeline is invalid'],
    [
      'an object as pipeline_id',
      { pipeline_id: { id: PIPELINE }, access_level: 'read_only' },
      'Pipeline is invalid',
    ],
    ['a list as pipeline_id', { pipeline_id: [PIPELINE], access_level: 'read_only' }, 'Pipeline is invalid'],
    [
      'a UUID with spaces around',
      { pipeline_id: ` ${PIPELINE} `, access_level: 'read_only' },
      'Pipeline is invalid',
    ],
    [
      'a UUID without dashes',
      { pipeline_id: PIPELINE.replaceAll('-', ''), access_level: 'read_only' },
      'Pipeline is invalid',
    ],
    [
      'a UUID with a NUL byte',
      { pipeline_id: `${PIPELINE}\u0000`, access_level: 'read_only' },
      'Pipeline is invalid',
    ],
    [
      'a huge pipeline_id',
      { pipeline_id: 'a'.repeat(100_000), access_level: 'read_only' },
      'Pipeline is invalid',
    ],
    ['no access_level', { pipeline_id: PIPELINE }, "Access level can't be blank"],
    ['a null access_level', { pipeline_id: PIPELINE, access_level: null }, "Access level can't be blank"],
    ['an empty access_level', { pipeline_id: PIPELINE, access_level: '' }, "Access level can't be blank"],
    [
      'an unknown access_level',
      { pipeline_id: PIPELINE, access_level: 'admin' },
      'Access level is not included in the list',
    ],
    [
      'the example\'s "read"',
      { pipeline_id: PIPELINE, access_level: 'read' },
      'Access level is not included in the list',
    ],
    [
      'an upper-case access_level',
      { pipeline_id: PIPELINE, access_level: 'READ_ONLY' },
      'Access level is not included in the list',
    ],
    [
      'a numeric access_level',
      { pipeline_id: PIPELINE, access_level: 1 },
      'Access level is not included in the list',
    ],
    [
      'a list as access_level',
      { pipeline_id: PIPELINE, access_level: ['read_only'] },
      'Access level is not included in the list',
    ],
    [
      'both wrong',
      { pipeline_id: 'web', access_level: 'write' },
      'Pipeline is invalid, Access level is not included in the list',
    ],
  ])('refuses %s with 422 "Validation failed: %s"', (_name, body, reasons) => {
    const error = failure(parseNewTeamPipeline(body));
    expect(error).toMatchObject({
      kind: 'unprocessable',
      code: 'invalid_team_pipeline',
      message: `Validation failed: ${reasons}`,
    });
  });

  it('accepts exactly the UUID-and-access-level bodies (property)', () => {
    const level = fc.oneof(fc.constantFrom(...ACCESS_LEVELS), fc.string(), fc.anything());
    const id = fc.oneof(fc.uuid(), fc.string(), fc.anything());
    fc.assert(
      fc.property(id, level, (pipelineId, accessLevel) => {
        const result = parseNewTeamPipeline({ pipeline_id: pipelineId, access_level: accessLevel });
        const valid =
          typeof pipelineId === 'string' &&
          /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(pipelineId) &&
          (ACCESS_LEVELS as readonly unknown[]).includes(accessLevel);
        expect(result.ok).toBe(valid);
        if (!result.ok) expect(result.error.message).toMatch(/^Validation failed: \S/);
      }),
    );
  });
});

describe('parseTeamPipelineChange', () => {
  it.each(ACCESS_LEVELS)('accepts access level %s', (accessLevel) => {
    expect(parseTeamPipelineChange({ access_level: accessLevel })).toEqual({
      ok: true,
      value: { accessLevel },
    });
  });

  it('ignores a pipeline_id in the body, even a malformed one', () => {
    expect(parseTeamPipelineChange({ access_level: 'read_only', pipeline_id: 'nope' })).toEqual({
      ok: true,
      value: { accessLevel: 'read_only' },
    });
  });

  it.each<[string, unknown, string]>([
    ['an empty body', {}, "Access level can't be blank"],
    ['no body at all', undefined, "Access level can't be blank"],
    ['a null access_level', { access_level: null }, "Access level can't be blank"],
    ['an unknown access_level', { access_level: 'manage' }, 'Access level is not included in the list'],
    ['a boolean access_level', { access_level: true }, 'Access level is not included in the list'],
    [
      'a huge access_level',
      { access_level: 'x'.repeat(100_000) },
      'Access level is not included in the list',
    ],
  ])('refuses %s with 422 "Validation failed: %s"', (_name, body, reasons) => {
    expect(failure(parseTeamPipelineChange(body))).toMatchObject({
      kind: 'unprocessable',
      message: `Validation failed: ${reasons}`,
    });
  });
});

describe('the refusals the caller decides', () => {
  it.each([
    [teamPipelineUnknownPipeline, 'Validation failed: Pipeline must exist'],
    [teamPipelineTaken, 'Validation failed: Pipeline has already been taken'],
    [teamPipelineMissingPipeline, "Validation failed: Pipeline can't be blank"],
    [teamPipelineLastTeam, 'The pipeline must belong to at least one team'],
  ])('%o answers 422 "%s"', (make, message) => {
    expect(make()).toMatchObject({ kind: 'unprocessable', message });
  });
});
