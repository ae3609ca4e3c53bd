import { describe, expect, it } from 'vitest';
import {
  badRequest,
  DomainError,
  type ErrorKind,
  forbidden,
  isDomainError,
  missingScope,
  type NotFoundResource,
  notFound,
  unauthenticated,
  unprocessable,
  validationFailed,
} from './errors';

describe('error constructors', () => {
  it.each<[string, DomainError, ErrorKind, string, string]>([
    [
      'unauthenticated',
      unauthenticated(),
      'unauthenticated',
      'unauthenticated',
      'Authentication required. Please supply a valid API Access Token: https://buildkite.com/docs/apis/rest-api#authentication',
    ],
    [
      'missingScope',
      missingScope('read_builds'),
      'forbidden',
      'missing_scope',
      "Your access token doesn't have the read_builds scope",
    ],
    ['forbidden', forbidden(), 'forbidden', 'forbidden', 'Forbidden'],
    [
      'badRequest',
      badRequest('invalid_page', 'page must be an integer'),
      'bad_request',
      'invalid_page',
      'page must be an integer',
    ],
    [
      'unprocessable',
      unprocessable('pipeline_archived', 'This pipeline is archived'),
      'unprocessable',
      'pipeline_archived',
      'This pipeline is archived',
    ],
  ])('%s gives the agreed kind, code and message', (_name, error, kind, code, message) => {
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toBeInstanceOf(Error);
    expect({ kind: error.kind, code: error.code, message: error.message }).toEqual({ kind, code, message });
    expect(error.details).toBeUndefined();
  });

  it.each<[NotFoundResource, string, string]>([
    ['organization', 'organization_not_found', 'No organization found'],
    ['pipeline', 'pipeline_not_found', 'No pipeline found'],
    ['build', 'build_not_found', 'No build found'],
    ['team', 'team_not_found', 'No team found'],
    ['registry', 'registry_not_found', 'No registry found'],
    ['user', 'user_not_found', 'No user found'],
    ['job', 'job_not_found', 'No job found'],
    ['agent', 'agent_not_found', 'No agent found'],
    ['team_pipeline', 'team_pipeline_not_found', 'No team pipeline found'],
    ['access_token', 'access_token_not_found', 'No access token found'],
  ])('notFound(%s) answers code %s with "%s"', (resource, code, message) => {
    const error = notFound(resource);
    expect({ kind: error.kind, code: error.code, message: error.message }).toEqual({
      kind: 'not_found',
      code,
      message,
    });
  });

  it('carries every field error of a failed validation', () => {
    const errors = [
      { field: 'commit', code: 'missing', message: "commit can't be blank" },
      { field: 'env', code: 'invalid', message: 'env must be an object of strings' },
    ] as const;
    const error = validationFailed([...errors]);
    expect(error.kind).toBe('unprocessable');
    expect(error.code).toBe('validation_failed');
    expect(error.message).toBe('Validation Failed');
    expect(error.details).toEqual({ errors });
  });

  it('names itself DomainError so logs tell it from unexpected errors', () => {
    expect(forbidden().name).toBe('DomainError');
  });
});

describe('isDomainError', () => {
  it.each<[string, unknown, boolean]>([
    ['a domain error', notFound('build'), true],
    ['a plain Error', new Error('No build found'), false],
    ['a look-alike object', { kind: 'not_found', code: 'build_not_found', message: 'No build found' }, false],
    ['null', null, false],
    ['a string', 'forbidden', false],
  ])('tells %s apart: %s', (_name, value, expected) => {
    expect(isDomainError(value)).toBe(expected);
  });
});
