import { describe, expect, it } from 'vitest';
import { namedStatement } from './named-statement';

describe('namedStatement', () => {
  it('numbers each name once, in order of first use, and gives the values by name', () => {
    const statement = namedStatement('select :b::int, :a, :b, $$x:y$$, now()::text', ['a', 'b']);
    expect(statement.text).toBe('select $1::int, $2, $1, $$x:y$$, now()::text');
    expect(statement.values({ a: 'A', b: 2 })).toEqual([2, 'A']);
  });

  it('refuses names the text does not use, and names it uses but were not given', () => {
    expect(() => namedStatement('select :a', ['a', 'b'])).toThrow(/differ/);
    expect(() => namedStatement('select :a, :c', ['a'])).toThrow(/differ/);
  });
});
