import { describe, expect, it } from 'vitest';
import { linkHeader } from './pagination';

describe('linkHeader', () => {
  const url = 'https://ci.example.com/v2/builds?branch=main&page=2&per_page=10&state[]=passed';
  const link = (page: number) =>
    `<https://ci.example.com/v2/builds?branch=main&state%5B%5D=passed&page=${page}&per_page=10>`;

  it('keeps every parameter, writes page before per_page, and links first, prev, next and last', () => {
    expect(linkHeader({ url, page: { page: 2, perPage: 10 }, totalCount: 41 })).toBe(
      [
        `${link(1)}; rel="first"`,
        `${link(1)}; rel="prev"`,
        `${link(3)}; rel="next"`,
        `${link(5)}; rel="last"`,
      ].join(', '),
    );
  });

  it('gives page 1 only next and last', () => {
    expect(linkHeader({ url, page: { page: 1, perPage: 10 }, totalCount: 20 })).toBe(
      `${link(2)}; rel="next", ${link(2)}; rel="last"`,
    );
  });

  it('gives the last page only first and prev', () => {
    expect(linkHeader({ url, page: { page: 3, perPage: 10 }, totalCount: 30 })).toBe(
      `${link(1)}; rel="first", ${link(2)}; rel="prev"`,
    );
  });

  it('gives a page past the end first and prev', () => {
    expect(linkHeader({ url, page: { page: 9, perPage: 10 }, totalCount: 30 })).toBe(
      `${link(1)}; rel="first", ${link(8)}; rel="prev"`,
    );
  });

  it('gives a page of a list counted only so far next but no last', () => {
    expect(linkHeader({ url, page: { page: 1, perPage: 10 }, totalCount: null })).toBe(
      `${link(2)}; rel="next"`,
    );
    expect(linkHeader({ url, page: { page: 4, perPage: 10 }, totalCount: null })).toBe(
      [`${link(1)}; rel="first"`, `${link(3)}; rel="prev"`, `${link(5)}; rel="next"`].join(', '),
    );
  });

  it.each([0, 1, 10])('carries no Link when %i items fit one page', (totalCount) => {
    expect(linkHeader({ url, page: { page: 1, perPage: 10 }, totalCount })).toBeNull();
  });
});
