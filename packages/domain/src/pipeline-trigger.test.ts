import { describe, expect, it } from 'vitest';
import {
  isPipelineTriggerToken,
  parsePipelineTriggerRequest,
  pipelineTriggerBuildRequest,
  TRIGGER_PAYLOAD_META_DATA_KEY,
} from './pipeline-trigger';

describe('isPipelineTriggerToken', () => {
  it.each([
    [`bktr_${'a'.repeat(40)}`, true],
    [`bktr_${'Ab3'.repeat(13)}x`, true],
    [`bktr_${'a'.repeat(39)}`, false],
    [`bktr_${'a'.repeat(41)}`, false],
    [`bktr_${'-'.repeat(40)}`, false],
    [`bkua_${'a'.repeat(40)}`, false],
    ['', false],
  ])('%s is a trigger token: %s', (token, expected) => {
    expect(isPipelineTriggerToken(token)).toBe(expected);
  });
});

describe('parsePipelineTriggerRequest', () => {
  it('fills a create body with its defaults', () => {
    expect(parsePipelineTriggerRequest({}, false)).toEqual({
      ok: true,
      value: { label: 'Webhook', enabled: true, branch: null, commit: null, message: null },
    });
  });

  it('reads label, enabled and the build fields', () => {
    expect(
      parsePipelineTriggerRequest(
        {
          type: 'webhook',
          label: 'Alerts',
          enabled: false,
          build: { branch: 'main', commit: 'abc', message: 'Hi' },
        },
        false,
      ),
    ).toEqual({
      ok: true,
      value: { label: 'Alerts', enabled: false, branch: 'main', commit: 'abc', message: 'Hi' },
    });
  });

  it('changes only what an update names', () => {
    expect(parsePipelineTriggerRequest({ enabled: false }, true)).toEqual({
      ok: true,
      value: { enabled: false },
    });
    expect(parsePipelineTriggerRequest({ build: { branch: null } }, true)).toEqual({
      ok: true,
      value: { branch: null },
    });
  });

  it('reports every invalid field at once', () => {
    const result = parsePipelineTriggerRequest(
      { type: 'github', label: 5, enabled: 'yes', build: { commit: 'x'.repeat(256) } },
      false,
    );
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.details?.errors.map((error) => [error.field, error.code])).toEqual([
        ['type', 'invalid'],
        ['label', 'invalid'],
        ['enabled', 'invalid'],
        ['build.commit', 'too_long'],
      ]);
    }
  });
});

describe('pipelineTriggerBuildRequest', () => {
  it('builds the default branch at HEAD, keeping the payload as meta-data', () => {
    expect(
      pipelineTriggerBuildRequest(
        { label: 'Alerts', branch: null, commit: null, message: null },
        { defaultBranch: 'trunk' },
        '{"a":1}',
      ),
    ).toMatchObject({
      branch: 'trunk',
      commit: 'HEAD',
      message: 'Triggered by Alerts',
      metaData: { [TRIGGER_PAYLOAD_META_DATA_KEY]: '{"a":1}' },
    });
  });

  it("uses the trigger's own branch, commit and message", () => {
    expect(
      pipelineTriggerBuildRequest(
        { label: 'L', branch: 'dev', commit: 'abc', message: 'M' },
        { defaultBranch: 'main' },
        '{}',
      ),
    ).toMatchObject({ branch: 'dev', commit: 'abc', message: 'M' });
  });
});
