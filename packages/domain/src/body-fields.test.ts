import { describe, expect, it } from 'vitest';
import { readDescription, readOptionalText, readSluggedName, readUuidField, reasonsOf } from './body-fields';
import { err, ok } from './result';

describe('readSluggedName', () => {
  it.each<[string, unknown, ReturnType<typeof readSluggedName>]>([
    ['a name, trimmed', '  Web Team ', ok('Web Team')],
    ['nothing', undefined, err("Name can't be blank")],
    ['blanks', '   ', err("Name can't be blank")],
    ['a number', 7, err('Name is invalid')],
    ['a NUL', 'a\u0000b', err("Name can't contain NUL characters or unpaired surrogates")],
    ['a name one too long', 'a'.repeat(11), err('Name is too long (maximum is 10 characters)')],
    ['punctuation only', '!!!', err('Name must contain at least one letter or digit')],
  ])('reads %s', (_case, value, expected) => {
    expect(readSluggedName(value, 10)).toEqual(expected);
  });
});

describe('readDescription', () => {
  it.each<[string, unknown, ReturnType<typeof readDescription>]>([
    ['text', 'about', ok('about')],
    ['null, as none', null, ok(null)],
    ['a number', 1, err('Description is invalid')],
    [
      'an unpaired surrogate',
      '\ud800',
      err("Description can't contain NUL characters or unpaired surrogates"),
    ],
    ['text one too long', 'a'.repeat(6), err('Description is too long (maximum is 5 characters)')],
  ])('reads %s', (_case, value, expected) => {
    expect(readDescription(value, 5)).toEqual(expected);
  });
});

describe('readOptionalText', () => {
  it.each<[string, unknown, ReturnType<typeof readOptionalText>]>([
    ['text', 'main', ok('main')],
    ['nothing, as no change', undefined, ok(undefined)],
    ['null, as a clear', null, ok(null)],
    ['empty text, as a clear', '', ok(null)],
    ['a number', 1, err({ field: 'branch', code: 'invalid', message: 'branch must be a string' })],
    [
      'a NUL',
      'a\u0000b',
      err({
        field: 'branch',
        code: 'invalid',
        message: "branch can't contain NUL characters or unpaired surrogates",
      }),
    ],
    ['text at the limit', 'a'.repeat(5), ok('aaaaa')],
    [
      'text one too long',
      'a'.repeat(6),
      err({ field: 'branch', code: 'too_long', message: 'branch is too long (maximum is 5 characters)' }),
    ],
  ])('reads %s', (_case, value, expected) => {
    expect(readOptionalText(value, 'branch', 5)).toEqual(expected);
  });
});

describe('readUuidField', () => {
  const id = '0190A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B';
  it.each<[string, unknown, ReturnType<typeof readUuidField>]>([
    ['a UUID, lowercased', id, ok(id.toLowerCase())],
    ['nothing', null, err("User can't be blank")],
    ['blanks', ' ', err("User can't be blank")],
    ['another shape', 'alice', err('User is invalid')],
    ['a number', 3, err('User is invalid')],
  ])('reads %s', (_case, value, expected) => {
    expect(readUuidField(value, 'User')).toEqual(expected);
  });
});

describe('reasonsOf', () => {
  it('lists the refusals in order, flattening lists of them', () => {
    expect(reasonsOf(ok(1), err('first'), err(['second', 'third']), ok(2))).toEqual([
      'first',
      'second',
      'third',
    ]);
  });
});
