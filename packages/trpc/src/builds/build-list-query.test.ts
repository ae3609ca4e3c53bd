import { describe, expect, it } from 'vitest';
import { collectQuery, linkHeader, parseBuildFilter, parsePage } from './build-list-query';

const q = (text: string) => new URLSearchParams(text);

describe('parseBuildFilter', () => {
  it.each([
    ['state=passed&state=failed'],
    ['state[]=passed&state[]=failed'],
    ['state[0]=passed&state[1]=failed'],
    ['state%5B%5D=passed&state%5B%5D=failed'],
  ])('reads the array encoding %s', (text) => {
    expect(parseBuildFilter(q(text)).states).toEqual(['passed', 'failed']);
  });

  it('expands finished to the spec set', () => {
    expect(parseBuildFilter(q('state=finished')).states).toEqual(['passed', 'failed', 'blocked', 'canceled']);
  });

  it('reads meta_data keys, plain and percent-encoded, AND-ed together', () => {
    expect(parseBuildFilter(q('meta_data[env]=prod&meta_data%5Bteam%5D=core')).metaData).toEqual({
      env: 'prod',
      team: 'core',
    });
  });

  it('reads branches, commits, creator, timestamps and the job switches', () => {
    const filter = parseBuildFilter(
      q(
        'branch=main&branch[]=release/*&commit=abc&creator=0191DF84-85E4-77AA-83BA-6579084728EB&created_from=2026-01-01T00:00:00Z&created_to=2026-02-01&finished_from=2026-01-15T10:00:00.5Z&include_retried_jobs=true&exclude_jobs=true',
      ),
    );
    expect(filter).toMatchObject({
      branches: ['main', 'release/*'],
      commits: ['abc'],
      creatorId: '0191df84-85e4-77aa-83ba-6579084728eb',
      includeRetriedJobs: true,
      excludeJobs: true,
    });
    expect(filter.createdFrom?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(filter.createdTo?.toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(filter.finishedFrom?.toISOString()).toBe('2026-01-15T10:00:00.500Z');
  });

  it.each([
    ['state=sideways', /state/],
    ['created_from=yesterday', /created_from/],
    ['finished_from=2026-13-45', /finished_from/],
    ['creator=bob', /creator/],
    ['branch=main&branch=a%00b', /branch/],
    ['commit[]=%00', /commit/],
    ['meta_data[env]=pr%00d', /meta_data/],
    ['meta_data[e%00v]=prod', /meta_data/],
  ])('refuses %s with a 400 naming the parameter', (text, name) => {
    expect(() => parseBuildFilter(q(text))).toThrow(name);
    try {
      parseBuildFilter(q(text));
    } catch (error) {
      expect(error).toMatchObject({ kind: 'bad_request' });
    }
  });
});

describe('parsePage', () => {
  const page = (text: string) => parsePage(collectQuery(q(text)).values);

  it('defaults to page 1 of 30, treats 0 and empty as 1, and clamps per_page to 100', () => {
    expect(page('')).toEqual({ page: 1, perPage: 30 });
    expect(page('page=0&per_page=')).toEqual({ page: 1, perPage: 30 });
    expect(page('page=3&per_page=500')).toEqual({ page: 3, perPage: 100 });
  });

  it.each(['page=abc', 'page=-1', 'per_page=1.5', 'page=99999999999'])('refuses %s with a 400', (text) => {
    expect(() => page(text)).toThrow(/must be a positive integer/);
  });
});

describe('linkHeader', () => {
  const url = new URL('https://ci.example.com/v2/builds?branch=main&page=2&per_page=10&state[]=passed');
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

  it.each([0, 1, 10])('carries no Link when %i builds fit one page', (totalCount) => {
    expect(linkHeader({ url, page: { page: 1, perPage: 10 }, totalCount })).toBeNull();
  });
});
