import { forbidden, notFound, validationFailed } from '@ci/domain';
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { isUnexpected, maskError } from './errors';

const wrapped = (cause: Error) => new GraphQLError(cause.message, { originalError: cause, path: ['build'] });

describe('maskError', () => {
  it('keeps the REST message and stable code of a domain error, where it happened', () => {
    const error = maskError(wrapped(notFound('build'))) as GraphQLError;
    expect(error.message).toBe('No build found');
    expect(error.path).toEqual(['build']);
    expect(error.extensions).toEqual({ code: 'build_not_found' });
    expect(isUnexpected(wrapped(forbidden()))).toBe(false);
  });

  it('carries the field errors of a validation failure', () => {
    const failure = validationFailed([{ field: 'commit', code: 'missing', message: 'commit is required' }]);
    const error = maskError(wrapped(failure)) as GraphQLError;
    expect(error.message).toBe('Validation Failed');
    expect(error.extensions).toEqual({
      code: 'validation_failed',
      errors: [{ field: 'commit', code: 'missing', message: 'commit is required' }],
    });
  });

  it('masks anything unexpected, and says it is one to log', () => {
    const cause = new Error('relation "builds" does not exist at /srv/app/db.ts:12');
    const error = maskError(wrapped(cause)) as GraphQLError;
    expect(error.message).toBe('Internal Server Error');
    expect(error.path).toEqual(['build']);
    expect(JSON.stringify(error.toJSON())).not.toContain('relation');
    expect(isUnexpected(wrapped(cause))).toBe(true);
  });

  it("keeps GraphQL's own errors, without what a parser said about the body", () => {
    const validation = new GraphQLError('Cannot query field "nope" on type "Query".');
    expect(maskError(validation)).toBe(validation);
    expect(isUnexpected(validation)).toBe(false);
    const parse = new GraphQLError('POST body sent invalid JSON.', {
      extensions: { code: 'BAD_REQUEST', http: { status: 400 }, originalError: { message: 'at "{ secret' } },
    });
    expect((maskError(parse) as GraphQLError).extensions).toEqual({
      code: 'BAD_REQUEST',
      http: { status: 400 },
    });
  });
});
