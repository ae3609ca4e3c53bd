import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inputErrorFor } from './http-errors';
import { flag, pageParameters, several } from './parameters';

const Page = z.object(pageParameters);

/** The message of the 400 the input would answer. */
const refusal = (schema: z.ZodType, input: unknown) =>
  inputErrorFor(schema.safeParse(input).error?.issues).message;

describe('page and per_page', () => {
  it('default to page 1 of 30, read 0 and empty as the default, and clamp per_page to 100', () => {
    expect(Page.parse({})).toEqual({ page: 1, per_page: 30 });
    expect(Page.parse({ page: '0', per_page: '' })).toEqual({ page: 1, per_page: 30 });
    expect(Page.parse({ page: '3', per_page: '500' })).toEqual({ page: 3, per_page: 100 });
    expect(Page.parse({ page: 2, per_page: 10 })).toEqual({ page: 2, per_page: 10 });
    expect(Page.parse({ per_page: '99999999999999999999' })).toEqual({ page: 1, per_page: 100 });
    expect(Page.parse({ per_page: 1e12 })).toEqual({ page: 1, per_page: 100 });
  });

  it.each([
    ['page', 'abc'],
    ['page', '-1'],
    ['page', '1e3'],
    ['page', '0x10'],
    ['page', ' 1'],
    ['per_page', '1.5'],
    ['page', '9999999999'],
    ['per_page', -1],
    ['per_page', 1.5],
  ])('refuses %s=%s with a 400 naming it', (name, value) => {
    expect(refusal(Page, { [name]: value })).toBe(`${name} must be a positive integer`);
  });

  it('refuses a value of another type over tRPC in zod words, naming where it is', () => {
    expect(refusal(Page, { per_page: true })).toMatch(/^Invalid per_page: /);
  });
});

describe('several', () => {
  const List = z.object({ branch: several('branch') });

  it('takes one value or many, and drops empty ones', () => {
    expect(List.parse({})).toEqual({ branch: [] });
    expect(List.parse({ branch: 'main' })).toEqual({ branch: ['main'] });
    expect(List.parse({ branch: ['a', '', 'b'] })).toEqual({ branch: ['a', 'b'] });
  });
});

describe('flag', () => {
  const Flags = z.object({ exclude_jobs: flag('') });

  it.each([
    [undefined, false],
    ['true', true],
    ['1', true],
    [true, true],
    ['false', false],
    ['yes', false],
    ['', false],
    [false, false],
  ])('reads %s as %s', (value, on) => {
    expect(Flags.parse({ exclude_jobs: value }).exclude_jobs).toBe(on);
  });
});
