import { describe, expect, it } from 'vitest';
import { isStorableText } from './storable-text';

describe('isStorableText', () => {
  it.each([
    ['plain text', 'main'],
    ['an empty string', ''],
    ['SQL metacharacters', "'; drop table builds; --"],
    ['accents, CJK and an emoji (a surrogate pair)', 'é 中文 🚀'],
  ])('accepts %s', (_case, text) => {
    expect(isStorableText(text)).toBe(true);
  });

  it.each([
    ['a NUL character', 'a\u0000b'],
    ['a lone high surrogate', 'a\ud800'],
    ['a lone low surrogate', '\udc00b'],
    ['surrogates in the wrong order', '\ude80\ud83d'],
  ])('refuses %s', (_case, text) => {
    expect(isStorableText(text)).toBe(false);
  });
});
