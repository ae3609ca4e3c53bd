import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BuildRequest, buildTag, parseBuildRequest } from './build-input';
import type { FieldError } from './errors';

const minimal = { commit: 'HEAD', branch: 'main' };

function fieldErrors(body: unknown): FieldError[] | undefined {
  const result = parseBuildRequest(body);
  return result.ok ? undefined : result.error.details?.errors;
}

describe('parseBuildRequest', () => {
  it('fills in the defaults for a body with only commit and branch', () => {
    expect(parseBuildRequest(minimal)).toEqual({
      ok: true,
      value: {
        commit: 'HEAD',
        branch: 'main',
        message: null,
        author: null,
        cleanCheckout: false,
        env: {},
        ignorePipelineBranchFilters: false,
        metaData: {},
        pullRequest: null,
      } satisfies BuildRequest,
    });
  });

  it.each([
    ['an empty object', {}],
    ['empty name and email', { name: '', email: '' }],
    ['null name and email', { name: null, email: null }],
  ])('reads an author given as %s as none (what Go clients send without one)', (_, author) => {
    const result = parseBuildRequest({ ...minimal, author });
    expect(result.ok && result.value.author).toBeNull();
  });

  it("reads go-buildkite's create body without an author", () => {
    const body = {
      commit: 'HEAD',
      branch: 'main',
      message: '',
      author: {},
      clean_checkout: false,
      ignore_pipeline_branch_filters: false,
    };
    expect(parseBuildRequest(body)).toMatchObject({ ok: true, value: { author: null, message: null } });
  });

  it('reads every field of the spec body', () => {
    const result = parseBuildRequest({
      commit: 'abcd0b72a1e580e90712cdd9eb26d3fb41cd09c8',
      branch: 'feature/x',
      message: 'Testing all the things :rocket:',
      author: { name: 'Keith Pitt', email: 'me@example.com' },
      clean_checkout: true,
      env: { FOO: 'bar' },
      ignore_pipeline_branch_filters: true,
      meta_data: { 'release-version': '1.1' },
      pull_request_id: 42,
      pull_request_base_branch: 'main',
      pull_request_repository: 'git@github.com:acme/app.git',
      unknown_field: 'ignored',
    });
    expect(result).toEqual({
      ok: true,
      value: {
        commit: 'abcd0b72a1e580e90712cdd9eb26d3fb41cd09c8',
        branch: 'feature/x',
        message: 'Testing all the things :rocket:',
        author: { name: 'Keith Pitt', email: 'me@example.com' },
        cleanCheckout: true,
        env: { FOO: 'bar' },
        ignorePipelineBranchFilters: true,
        metaData: { 'release-version': '1.1' },
        pullRequest: { id: '42', base: 'main', repository: 'git@github.com:acme/app.git' },
      },
    });
  });

  it.each<[string, unknown, BuildRequest['pullRequest']]>([
    ['a numeric string id', '17', { id: '17', base: null, repository: null }],
    ['an integer id', 17, { id: '17', base: null, repository: null }],
  ])('accepts %s as the pull request', (_case, id, expected) => {
    const result = parseBuildRequest({ ...minimal, pull_request_id: id });
    expect(result.ok && result.value.pullRequest).toEqual(expected);
  });

  it('has no pull request when no pull_request_id is given', () => {
    const result = parseBuildRequest({ ...minimal, pull_request_base_branch: 'main' });
    expect(result.ok && result.value.pullRequest).toBeNull();
  });

  it('keeps a __proto__ key as data', () => {
    const result = parseBuildRequest(JSON.parse('{"commit":"a","branch":"b","env":{"__proto__":"x"}}'));
    expect(result.ok && Object.getPrototypeOf(result.value.env)).toBe(Object.prototype);
    expect(result.ok && Object.entries(result.value.env)).toEqual([['__proto__', 'x']]);
  });

  it.each<[string, unknown, FieldError[]]>([
    [
      'an empty body',
      undefined,
      [
        { field: 'commit', code: 'missing', message: "commit can't be blank" },
        { field: 'branch', code: 'missing', message: "branch can't be blank" },
      ],
    ],
    [
      'a body that is a list',
      [minimal],
      [
        { field: 'commit', code: 'missing', message: "commit can't be blank" },
        { field: 'branch', code: 'missing', message: "branch can't be blank" },
      ],
    ],
    [
      'a blank commit',
      { ...minimal, commit: '  ' },
      [{ field: 'commit', code: 'missing', message: "commit can't be blank" }],
    ],
    [
      'a null branch',
      { ...minimal, branch: null },
      [{ field: 'branch', code: 'missing', message: "branch can't be blank" }],
    ],
    [
      'a numeric commit',
      { ...minimal, commit: 123 },
      [{ field: 'commit', code: 'invalid', message: 'commit must be a string' }],
    ],
    [
      'a commit of 256 characters',
      { ...minimal, commit: 'c'.repeat(256) },
      [{ field: 'commit', code: 'too_long', message: 'commit is too long (maximum is 255 characters)' }],
    ],
    [
      'a branch of 256 characters',
      { ...minimal, branch: 'b'.repeat(256) },
      [{ field: 'branch', code: 'too_long', message: 'branch is too long (maximum is 255 characters)' }],
    ],
    [
      'a message of 10001 characters',
      { ...minimal, message: 'm'.repeat(10_001) },
      [{ field: 'message', code: 'too_long', message: 'message is too long (maximum is 10000 characters)' }],
    ],
    [
      'a message that is not text',
      { ...minimal, message: { text: 'hi' } },
      [{ field: 'message', code: 'invalid', message: 'message must be a string' }],
    ],
    [
      'an author that is a string',
      { ...minimal, author: 'Keith' },
      [{ field: 'author', code: 'invalid', message: 'author must be an object with name and email' }],
    ],
    [
      'an author without email',
      { ...minimal, author: { name: 'Keith' } },
      [{ field: 'author.email', code: 'missing', message: "author.email can't be blank" }],
    ],
    [
      'an author with an email but an empty name',
      { ...minimal, author: { name: '', email: 'k@example.com' } },
      [{ field: 'author.name', code: 'missing', message: "author.name can't be blank" }],
    ],
    [
      'an author with a numeric name',
      { ...minimal, author: { name: 1, email: 'k@example.com' } },
      [{ field: 'author.name', code: 'invalid', message: 'author.name must be a string' }],
    ],
    [
      'a string clean_checkout',
      { ...minimal, clean_checkout: 'true' },
      [{ field: 'clean_checkout', code: 'invalid', message: 'clean_checkout must be true or false' }],
    ],
    [
      'a numeric ignore_pipeline_branch_filters',
      { ...minimal, ignore_pipeline_branch_filters: 1 },
      [
        {
          field: 'ignore_pipeline_branch_filters',
          code: 'invalid',
          message: 'ignore_pipeline_branch_filters must be true or false',
        },
      ],
    ],
    [
      'env as a list',
      { ...minimal, env: ['FOO=bar'] },
      [{ field: 'env', code: 'invalid', message: 'env must be an object of strings' }],
    ],
    [
      'an env value that is a number',
      { ...minimal, env: { FOO: 1 } },
      [{ field: 'env', code: 'invalid', message: 'env.FOO must be a string' }],
    ],
    [
      'a blank meta_data key',
      { ...minimal, meta_data: { '': 'x' } },
      [{ field: 'meta_data', code: 'invalid', message: "meta_data keys can't be blank" }],
    ],
    [
      'a meta_data key of 256 characters',
      { ...minimal, meta_data: { ['k'.repeat(256)]: 'x' } },
      [{ field: 'meta_data', code: 'too_long', message: 'meta_data keys are limited to 255 characters' }],
    ],
    [
      'a meta_data value of 10001 characters',
      { ...minimal, meta_data: { k: 'v'.repeat(10_001) } },
      [
        {
          field: 'meta_data',
          code: 'too_long',
          message: 'meta_data.k is too long (maximum is 10000 characters)',
        },
      ],
    ],
    [
      'env with 101 keys',
      { ...minimal, env: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`K${i}`, 'v'])) },
      [{ field: 'env', code: 'too_long', message: 'env has too many keys (maximum is 100)' }],
    ],
    [
      'a NUL character in the commit',
      { ...minimal, commit: 'a\u0000b' },
      [
        {
          field: 'commit',
          code: 'invalid',
          message: "commit can't contain NUL characters or unpaired surrogates",
        },
      ],
    ],
    [
      'an unpaired surrogate in the author name',
      { ...minimal, author: { name: 'K\ud800', email: 'k@example.com' } },
      [
        {
          field: 'author.name',
          code: 'invalid',
          message: "author.name can't contain NUL characters or unpaired surrogates",
        },
      ],
    ],
    [
      'a NUL character in an env value',
      { ...minimal, env: { FOO: 'b\u0000r' } },
      [
        {
          field: 'env',
          code: 'invalid',
          message: "env.FOO can't contain NUL characters or unpaired surrogates",
        },
      ],
    ],
    [
      'a NUL character in a meta_data key',
      { ...minimal, meta_data: { 'k\u0000': 'v' } },
      [
        {
          field: 'meta_data',
          code: 'invalid',
          message: "meta_data keys can't contain NUL characters or unpaired surrogates",
        },
      ],
    ],
    ...[0, -3, 1.5, '12a', '', true].map((id): [string, unknown, FieldError[]] => [
      `pull_request_id ${JSON.stringify(id)}`,
      { ...minimal, pull_request_id: id },
      [{ field: 'pull_request_id', code: 'invalid', message: 'pull_request_id must be a positive integer' }],
    ]),
    [
      'a numeric pull_request_base_branch',
      { ...minimal, pull_request_id: 1, pull_request_base_branch: 5 },
      [
        {
          field: 'pull_request_base_branch',
          code: 'invalid',
          message: 'pull_request_base_branch must be a string',
        },
      ],
    ],
  ])('refuses %s', (_case, body, errors) => {
    const result = parseBuildRequest(body);
    expect(
      !result.ok && { kind: result.error.kind, code: result.error.code, message: result.error.message },
    ).toEqual({
      kind: 'unprocessable',
      code: 'validation_failed',
      message: 'Validation Failed',
    });
    expect(fieldErrors(body)).toEqual(errors);
  });

  it('reports every invalid field at once', () => {
    const errors = fieldErrors({ commit: 1, env: { A: 1, B: 2 }, clean_checkout: 'yes' });
    expect(errors?.map((e) => e.field)).toEqual(['commit', 'branch', 'clean_checkout', 'env', 'env']);
  });

  it('accepts the limits exactly', () => {
    const result = parseBuildRequest({
      commit: 'c'.repeat(255),
      branch: 'b'.repeat(255),
      message: 'm'.repeat(10_000),
      env: Object.fromEntries(
        Array.from({ length: 100 }, (_, i) => [`K${i}`.padEnd(255, 'x'), 'v'.repeat(10_000)]),
      ),
    });
    expect(result.ok).toBe(true);
  });

  it('never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.record({ commit: fc.jsonValue(), branch: fc.jsonValue(), env: fc.jsonValue() }),
        ),
        (body) => {
          const result = parseBuildRequest(body);
          expect(typeof result.ok).toBe('boolean');
        },
      ),
    );
  });
});

describe('buildTag', () => {
  it.each([
    ['refs/tags/v1.2.3', 'v1.2.3'],
    ['refs/tags/release/2026', 'release/2026'],
    ['refs/tags/', null],
    ['v1.2.3', null],
    ['abcd0b72a1e580e90712cdd9eb26d3fb41cd09c8', null],
    ['HEAD', null],
    ['refs/heads/main', null],
  ])('reads %s as the tag %s', (commit, tag) => {
    expect(buildTag(commit)).toBe(tag);
  });
});
