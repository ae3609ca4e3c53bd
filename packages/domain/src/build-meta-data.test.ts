import { describe, expect, it } from 'vitest';
import { checkMetaDataKey, checkMetaDataValue, META_DATA_LIMITS } from './build-meta-data';

const outcome = (result: { ok: true; value: string } | { ok: false; error: { message: string } }) =>
  result.ok ? result.value : { error: result.error.message };

describe('meta-data keys and values', () => {
  it.each([
    ['release-version', 'release-version'],
    ['a:b/c.d e', 'a:b/c.d e'],
    ['k'.repeat(META_DATA_LIMITS.keyLength), 'k'.repeat(META_DATA_LIMITS.keyLength)],
  ])('takes the key %j', (key, expected) => {
    expect(outcome(checkMetaDataKey(key))).toBe(expected);
  });

  it.each([
    ['', 'key must be a non-empty string'],
    ['  ', 'key must be a non-empty string'],
    [3, 'key must be a non-empty string'],
    [undefined, 'key must be a non-empty string'],
    ['k'.repeat(256), 'key is longer than 255 characters'],
    ['a\nb', "key can't contain line breaks"],
    ['a\u0000', "key can't contain NUL characters or unpaired surrogates"],
  ])('refuses the key %j', (key, error) => {
    expect(outcome(checkMetaDataKey(key))).toEqual({ error });
  });

  it.each([['1.2.3'], ['multi\nline'], ['x'.repeat(META_DATA_LIMITS.valueBytes)]])(
    'takes a value',
    (text) => {
      expect(outcome(checkMetaDataValue(text))).toBe(text);
    },
  );

  it.each([
    ['', "value can't be blank"],
    [' \n', "value can't be blank"],
    [null, "value can't be blank"],
    ['é'.repeat(META_DATA_LIMITS.valueBytes / 2 + 1), 'value is larger than 100 KiB'],
    ['\ud800', "value can't contain NUL characters or unpaired surrogates"],
  ])('refuses the value %#', (text, error) => {
    expect(outcome(checkMetaDataValue(text))).toEqual({ error });
  });
});
