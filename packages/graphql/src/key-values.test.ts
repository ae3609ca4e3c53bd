import { describe, expect, it } from 'vitest';
import { asKeyValues, parseKeyValues } from './key-values';

const refuse = (entry: string) => new Error(`bad ${entry}`);

describe('KEY=value texts', () => {
  it.each([
    [[], {}],
    [['A=1'], { A: '1' }],
    [['A='], { A: '' }],
    [['A=b=c'], { A: 'b=c' }],
    [['A=1', 'A=2', 'B=3'], { A: '2', B: '3' }],
  ])('reads %j as %j', (entries, map) => {
    expect(parseKeyValues(entries, refuse)).toEqual(map);
  });

  it.each([[['A']], [['=1']], [['A=1', '']]])('refuses %j with the refusal it is given', (entries) => {
    expect(() => parseKeyValues(entries, refuse)).toThrow(`bad ${entries.at(-1)}`);
  });

  it('lists a map as it reads it back', () => {
    const map = { CI: 'true', EMPTY: '', EQUALS: 'a=b' };
    expect(asKeyValues(map)).toEqual(['CI=true', 'EMPTY=', 'EQUALS=a=b']);
    expect(parseKeyValues(asKeyValues(map), refuse)).toEqual(map);
  });
});
