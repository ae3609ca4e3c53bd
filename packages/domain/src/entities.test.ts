import { describe, expect, expectTypeOf, it } from 'vitest';
import { buildIn } from './build.fixture';
import { transition } from './build-state';
import { BUILD_SOURCES, type Build, JOB_STATES, JOB_TYPES, TEAM_PRIVACIES } from './entities';

describe('entity value lists', () => {
  it.each([
    ['JOB_STATES', JOB_STATES],
    ['JOB_TYPES', JOB_TYPES],
    ['BUILD_SOURCES', BUILD_SOURCES],
    ['TEAM_PRIVACIES', TEAM_PRIVACIES],
  ])('lists each value of %s once', (_name, values) => {
    expect(new Set(values).size).toBe(values.length);
  });

  it('includes the job states and type the spec shows', () => {
    expect(JOB_STATES).toEqual(expect.arrayContaining(['scheduled', 'passed']));
    expect(JOB_TYPES).toContain('script');
  });

  it('includes the build sources the spec shows', () => {
    expect(BUILD_SOURCES).toEqual(expect.arrayContaining(['api', 'webhook']));
  });
});

describe('Build', () => {
  it('can go through the state machine and be stored back with its state fields', () => {
    const build = buildIn('scheduled');
    const result = transition(build, { type: 'cancel', reason: 'not needed' }, new Date(1));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const stored = { ...build, ...result.value };
    expectTypeOf(stored).toEqualTypeOf<Build>();
    expect(stored).toMatchObject({ number: 1, state: 'canceled', cancelReason: 'not needed' });
  });
});
