import { describe, expect, it } from 'vitest';
import {
  ANNOTATION_BODY_MAX_BYTES,
  type AnnotationWrite,
  annotated,
  parseAnnotationWrite,
  utf8Length,
} from './annotation';

const write = (change: Partial<AnnotationWrite> = {}): AnnotationWrite => ({
  context: 'default',
  style: null,
  priority: null,
  body: 'hello',
  append: false,
  ...change,
});

describe('parseAnnotationWrite', () => {
  it('takes the defaults: context default, no style, no append', () => {
    expect(parseAnnotationWrite({ body: 'x' })).toEqual({ ok: true, value: write({ body: 'x' }) });
  });

  it('takes each public style, in any case', () => {
    for (const style of ['success', 'info', 'warning', 'error', 'default', 'ERROR']) {
      const result = parseAnnotationWrite({ body: 'x', style });
      expect(result.ok && result.value.style).toBe(style.toLowerCase());
    }
  });

  it.each([
    [{ body: 'x', style: 'loud' }, 'style must be one of success, info, warning, error'],
    [{ body: 'x', context: 'c'.repeat(101) }, 'context is too long (maximum is 100 characters)'],
    [{ body: 'x', context: 7 }, 'context must be a string'],
    [{ body: 42 }, 'body must be a string'],
    [{ body: 'a\u0000b' }, "body can't contain NUL characters or unpaired surrogates"],
    [{ body: 'x', append: 'yes' }, 'append must be true or false'],
    [{ body: 'x', priority: 11 }, 'priority must be a whole number from 1 to 10'],
  ])('refuses %j: %s', (input, message) => {
    const result = parseAnnotationWrite(input);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.kind).toBe('unprocessable');
      expect(result.error.message).toBe(message);
    }
  });

  it('refuses a body past 1 MiB of UTF-8, and takes one of exactly 1 MiB', () => {
    expect(parseAnnotationWrite({ body: 'a'.repeat(ANNOTATION_BODY_MAX_BYTES) }).ok).toBe(true);
    const result = parseAnnotationWrite({ body: 'é'.repeat(ANNOTATION_BODY_MAX_BYTES / 2 + 1) });
    expect(!result.ok && result.error.message).toMatch(/^body is too large \(1048578 bytes/);
  });
});

describe('annotated', () => {
  const current = { body: 'one', style: 'info' as const, priority: 3 };

  it.each([
    ['a new one, no style', null, write(), { body: 'hello', style: 'default', priority: 3 }],
    [
      'a new one with append',
      null,
      write({ append: true }),
      { body: 'hello', style: 'default', priority: 3 },
    ],
    ['a replace keeps the style', current, write(), { body: 'hello', style: 'info', priority: 3 }],
    [
      'an append adds the body',
      current,
      write({ append: true }),
      { body: 'onehello', style: 'info', priority: 3 },
    ],
    [
      'a new style',
      current,
      write({ style: 'error', priority: 9 }),
      { body: 'hello', style: 'error', priority: 9 },
    ],
    [
      'no body, a style: only the style',
      current,
      write({ body: '', style: 'success' }),
      { ...current, style: 'success' },
    ],
  ] as const)('%s', (_name, before, request, after) => {
    expect(annotated(before, request)).toEqual({ ok: true, value: after });
  });

  it.each([
    ['no body for a new one', null, write({ body: '', style: 'info' })],
    ['no body and no style', current, write({ body: '' })],
  ])("refuses %s: body can't be blank", (_name, before, request) => {
    const result = annotated(before, request);
    expect(!result.ok && result.error.message).toBe("body can't be blank");
  });

  it('refuses an append that would pass 1 MiB', () => {
    const big = { ...current, body: 'a'.repeat(ANNOTATION_BODY_MAX_BYTES - 2) };
    expect(annotated(big, write({ body: 'ab', append: true })).ok).toBe(true);
    expect(annotated(big, write({ body: 'abc', append: true })).ok).toBe(false);
  });
});

describe('utf8Length', () => {
  it('counts as UTF-8 does', () => {
    for (const text of ['', 'abc', 'é', '✨', '🚀', 'a✨é🚀']) {
      expect(utf8Length(text)).toBe(Buffer.byteLength(text));
    }
  });
});
