import { describe, expect, it } from 'vitest';
import { readBlockFields, unblockMetaData } from './block-fields';
import type { BlockField } from './entities';
import { textBlockField as text } from './job.fixture';

const read = (value: unknown) => {
  const problems: string[] = [];
  return { fields: readBlockFields(value, problems), problems };
};

const OPTIONS = [
  { label: 'Beta', value: 'beta' },
  { label: 'Stable', value: 'stable' },
];
const select = (over: Partial<BlockField> = {}): BlockField => ({
  ...text({ type: 'select', key: 'stream', label: 'Stream', options: OPTIONS }),
  ...over,
});

describe('readBlockFields', () => {
  it('reads text and select fields with the public format’s defaults (required unless said)', () => {
    expect(
      read([
        { text: 'Version', key: 'version', hint: 'semver', default: '1.0' },
        { select: 'Stream', key: 'stream', required: false, options: OPTIONS, default: 'beta' },
        { select: 'Targets', key: 'targets', multiple: true, options: OPTIONS, default: ['beta', 'stable'] },
      ]),
    ).toEqual({
      problems: [],
      fields: [
        text({ hint: 'semver', default: '1.0' }),
        select({ required: false, default: 'beta' }),
        select({ key: 'targets', label: 'Targets', multiple: true, default: ['beta', 'stable'] }),
      ],
    });
  });

  it('reads nothing from nothing', () => {
    expect(read(undefined)).toEqual({ fields: [], problems: [] });
    expect(read(null)).toEqual({ fields: [], problems: [] });
  });

  it.each([
    ['not a list', { text: 'x' }, 'fields must be a list'],
    ['neither text nor select', [{ key: 'k' }], 'field 1: expected a text or select field'],
    ['a blank label', [{ text: ' ', key: 'k' }], 'field 1: text must be a label'],
    ['no key', [{ text: 'X' }], 'field 1: key must be a non-empty string of at most 255 characters'],
    ['a hint not text', [{ text: 'X', key: 'k', hint: 3 }], 'field 1: hint must be a string'],
    [
      'required not boolean',
      [{ text: 'X', key: 'k', required: 'yes' }],
      'field 1: required must be true or false',
    ],
    ['a text default not text', [{ text: 'X', key: 'k', default: 1 }], 'field 1: default must be a string'],
    ['a select without options', [{ select: 'X', key: 'k' }], 'field 1: options must be a non-empty list'],
    [
      'an option without value',
      [{ select: 'X', key: 'k', options: [{ label: 'A' }] }],
      'field 1: each option must have a label and a non-empty value',
    ],
    [
      'a default not among the options',
      [{ select: 'X', key: 'k', options: OPTIONS, default: 'nightly' }],
      'field 1: default "nightly" is not one of its options',
    ],
    [
      'several defaults of a single select',
      [{ select: 'X', key: 'k', options: OPTIONS, default: ['beta', 'stable'] }],
      'field 1: default may be a list only when multiple',
    ],
    [
      'multiple not boolean',
      [{ select: 'X', key: 'k', options: OPTIONS, multiple: 'yes' }],
      'field 1: multiple must be true or false',
    ],
    [
      'a key used twice',
      [
        { text: 'A', key: 'k' },
        { text: 'B', key: 'k' },
      ],
      'field 2: key "k" is already used',
    ],
  ])('refuses %s', (_name, value, problem) => {
    expect(read(value).problems).toContain(problem);
  });

  it('refuses more than 50 fields', () => {
    const many = Array.from({ length: 51 }, (_, index) => ({ text: 'X', key: `k${index}` }));
    expect(read(many).problems).toEqual(['fields may hold at most 50 fields']);
  });
});

describe('unblockMetaData', () => {
  it('keeps the values given, else the defaults, and leaves out blank optional fields and unknown keys', () => {
    const fields = [
      text(),
      select({ default: 'beta' }),
      select({ key: 'targets', multiple: true, default: ['beta', 'stable'] }),
      text({ key: 'note', required: false }),
    ];
    expect(unblockMetaData(fields, { version: '1.2', other: 'x', note: '  ' })).toEqual({
      ok: true,
      value: { version: '1.2', stream: 'beta', targets: 'beta\nstable' },
    });
    expect(unblockMetaData(fields, { version: '2', stream: 'stable', targets: 'stable' })).toEqual({
      ok: true,
      value: { version: '2', stream: 'stable', targets: 'stable' },
    });
  });

  it('refuses a missing required value and a choice not among the options, one error a field', () => {
    const result = unblockMetaData([text(), select(), select({ key: 'targets', multiple: true })], {
      stream: 'nightly',
      targets: 'beta\nnightly',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('unprocessable');
    expect(result.error.details?.errors).toEqual([
      { field: 'version', code: 'missing', message: 'Version is required' },
      { field: 'stream', code: 'invalid', message: 'Stream: "nightly" is not one of its options' },
      { field: 'targets', code: 'invalid', message: 'Stream: "nightly" is not one of its options' },
    ]);
  });

  it('refuses a value larger than meta-data may hold', () => {
    const result = unblockMetaData([text()], { version: 'x'.repeat(100 * 1024 + 1) });
    expect(result.ok).toBe(false);
  });

  it('asks nothing of a step without fields', () => {
    expect(unblockMetaData([], undefined)).toEqual({ ok: true, value: {} });
    expect(unblockMetaData([text({ required: false })], undefined)).toEqual({ ok: true, value: {} });
  });
});
