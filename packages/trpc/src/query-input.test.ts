import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { queryInput, queryShapeOf } from './query-input';

const Input = z.object({
  organization: z.string(),
  page: z.union([z.number(), z.string()]).optional(),
  state: z.union([z.string(), z.array(z.string())]).optional(),
  branch: z
    .array(z.string())
    .optional()
    .transform((value) => value ?? []),
  meta_data: z.record(z.string(), z.string()).optional(),
});
const shape = queryShapeOf(Input);
const read = (text: string) => queryInput(new URLSearchParams(text), shape);

describe('queryShapeOf', () => {
  it('reads arrays (also in a union or behind a transform) as lists, records as maps, the rest as single', () => {
    expect(Object.fromEntries(shape)).toEqual({
      organization: 'single',
      page: 'single',
      state: 'list',
      branch: 'list',
      meta_data: 'map',
    });
  });

  it('finds no parameters in an input that is not an object', () => {
    expect(queryShapeOf(z.void()).size).toBe(0);
    expect(queryShapeOf(undefined).size).toBe(0);
  });
});

describe('queryInput', () => {
  it.each([
    ['state=passed&state=failed'],
    ['state[]=passed&state[]=failed'],
    ['state[0]=passed&state[1]=failed'],
    ['state%5B%5D=passed&state%5B0%5D=failed'],
    ['state=passed&state[]=failed'],
  ])('reads the array encoding %s as one list, in order', (text) => {
    expect(read(text)).toEqual({ state: ['passed', 'failed'] });
  });

  it('gives a list parameter given once as a list of one', () => {
    expect(read('branch=main')).toEqual({ branch: ['main'] });
  });

  it('reads meta_data[k]=v, brackets plain or percent-encoded, a numeric key as a key; the last value wins', () => {
    expect(read('meta_data[env]=prod&meta_data%5Bteam%5D=core&meta_data[1]=one&meta_data[env]=dev')).toEqual({
      meta_data: { env: 'dev', team: 'core', 1: 'one' },
    });
  });

  it('ignores a map parameter without a key', () => {
    expect(read('meta_data=x&meta_data[]=y')).toEqual({});
  });

  it('takes the first value of a single parameter, as text, `[]` and `[0]` forms included', () => {
    expect(read('page=2&page=3')).toEqual({ page: '2' });
    expect(read('page[]=4')).toEqual({ page: '4' });
    expect(read('page=')).toEqual({ page: '' });
  });

  it('leaves out every key the input does not name', () => {
    expect(read('colour=blue&page[x]=1&state[x]=a&__proto__[a]=1&constructor=x')).toEqual({});
    expect(Object.getPrototypeOf(read('__proto__[a]=1'))).toBe(Object.prototype);
  });

  it('gives an object that the input schema parses', () => {
    expect(Input.parse({ ...read('branch[]=a&branch[]=b&page=2'), organization: 'acme' })).toEqual({
      organization: 'acme',
      branch: ['a', 'b'],
      page: '2',
    });
  });
});
