import { describe, expect, it } from 'vitest';
import { parseBuildFilter } from './build-list-query';

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
  ])('refuses %s with a 400 naming the parameter', (text, name) => {
    expect(() => parseBuildFilter(q(text))).toThrow(name);
    try {
      parseBuildFilter(q(text));
    } catch (error) {
      expect(error).toMatchObject({ kind: 'bad_request' });
    }
  });
});
