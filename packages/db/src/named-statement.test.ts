import { describe, expect, it } from 'vitest';
import { namedStatement } from './named-statement';

describe('namedStatement', () => {
  it('numbers each name once, in order of first use, and gives the values by name', () => {
    const statement = namedStatement('select :b::int, :a, :b, $$x:y$$, now()::text');
    expect(statement.text).toBe('select $1::int, $2, $1, $$x:y$$, now()::text');
    expect(statement.names).toEqual(['b', 'a']);
    expect(statement.values({ a: 'A', b: 2 })).toEqual([2, 'A']);
  });

  it('refuses values that miss a parameter or name one the statement does not have', () => {
    const statement = namedStatement('select :a, :b');
    expect(() => statement.values({ a: 1 })).toThrow(/parameters are a, b/);
    expect(() => statement.values({ a: 1, b: 2, c: 3 })).toThrow(/given a, b, c/);
    expect(statement.values({ a: 1, b: undefined })).toEqual([1, undefined]);
  });
});
