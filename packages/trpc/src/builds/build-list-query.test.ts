import { BUILD_STATE_FILTERS } from '@ci/domain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inputErrorFor } from '../http-errors';
import { queryInput, queryShapeOf } from '../query-input';
import { buildFilterOf, buildListParameters } from './build-list-query';

const BuildListInput = z.object(buildListParameters);
const shape = queryShapeOf(BuildListInput);
const parse = (text: string) => BuildListInput.safeParse(queryInput(new URLSearchParams(text), shape));
const filterOf = (text: string) => {
  const parsed = parse(text);
  if (!parsed.success) throw new Error(z.prettifyError(parsed.error));
  return buildFilterOf(parsed.data);
};

describe('a build list query', () => {
  it.each([
    ['state=passed&state=failed'],
    ['state[]=passed&state[]=failed'],
    ['state[0]=passed&state[1]=failed'],
    ['state%5B%5D=passed&state%5B%5D=failed'],
  ])('reads the array encoding %s', (text) => {
    expect(filterOf(text).states).toEqual(['passed', 'failed']);
  });

  it('expands finished to the spec set', () => {
    expect(filterOf('state=finished').states).toEqual(['passed', 'failed', 'blocked', 'canceled']);
  });

  it('reads meta_data keys, plain and percent-encoded, AND-ed together', () => {
    expect(filterOf('meta_data[env]=prod&meta_data%5Bteam%5D=core').metaData).toEqual({
      env: 'prod',
      team: 'core',
    });
  });

  it('reads branches, commits, creator, timestamps and the job switches', () => {
    const filter = filterOf(
      'branch=main&branch[]=release/*&commit=abc&creator=0191DF84-85E4-77AA-83BA-6579084728EB&created_from=2026-01-01T00:00:00Z&created_to=2026-02-01&finished_from=2026-01-15T10:00:00.5Z&include_retried_jobs=true&exclude_jobs=true',
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

  it('reads empty values as no filter', () => {
    expect(filterOf('state=&branch=&commit[]=&creator=&created_from=&meta_data[]=x')).toEqual({
      includeRetriedJobs: false,
      excludeJobs: false,
    });
  });

  it.each([
    ['state=sideways', `state must be one of ${BUILD_STATE_FILTERS.join(', ')}`],
    ['created_from=yesterday', 'created_from must be an ISO 8601 timestamp'],
    ['finished_from=2026-13-45', 'finished_from must be an ISO 8601 timestamp'],
    ['creator=bob', 'creator must be a user UUID'],
    ['page=x', 'page must be a positive integer'],
  ])('refuses %s with a 400 naming the parameter', (text, message) => {
    const error = inputErrorFor(parse(text).error?.issues);
    expect(error).toMatchObject({ kind: 'bad_request', message });
  });

  it('names the first malformed filter: state, creator, the timestamps, then the page', () => {
    const first = (text: string) => inputErrorFor(parse(text).error?.issues).message;
    expect(first('page=x&created_to=x&creator=x&state=x')).toMatch(/^state /);
    expect(first('page=x&created_to=x&creator=x')).toMatch(/^creator /);
    expect(first('page=x&created_to=x')).toMatch(/^created_to /);
  });
});
