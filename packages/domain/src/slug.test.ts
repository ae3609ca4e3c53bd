import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slugify } from './slug';

describe('slugify', () => {
  it.each([
    ['my registry', 'my-registry'],
    ['  Héllo__World!! ', 'h-llo-world'],
    ['***', ''],
    ['', ''],
    ['Already-a-slug', 'already-a-slug'],
    ['Ruby Gems 2024', 'ruby-gems-2024'],
    ['a---b', 'a-b'],
    ['-leading and trailing-', 'leading-and-trailing'],
    ['tabs\tand\nnewlines', 'tabs-and-newlines'],
    ['日本語', ''],
  ])('turns %j into %j', (name, expected) => {
    expect(slugify(name)).toBe(expected);
  });

  it('only ever writes a-z, 0-9 and single inner dashes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (name) => {
        expect(slugify(name)).toMatch(/^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$/);
      }),
    );
  });

  it('leaves a slug unchanged', () => {
    fc.assert(
      fc.property(fc.string(), (name) => {
        expect(slugify(slugify(name))).toBe(slugify(name));
      }),
    );
  });
});
