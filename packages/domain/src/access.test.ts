import { describe, expect, it } from 'vitest';
import {
  ACCESS_LEVELS,
  type AccessLevel,
  allows,
  canSeeWebhookUrl,
  highestAccessLevel,
  isAccessLevel,
  PIPELINE_ACTIONS,
  type PipelineAccess,
  type PipelineAction,
  pipelineAccess,
} from './access';

describe('pipelineAccess', () => {
  it.each<[string, Parameters<typeof pipelineAccess>[0], PipelineAccess]>([
    ['an admin without teams', { role: 'admin', teamAccessLevels: [], pipelineHasTeams: true }, 'admin'],
    [
      'an admin with read-only teams',
      { role: 'admin', teamAccessLevels: ['read_only'], pipelineHasTeams: true },
      'admin',
    ],
    [
      'an admin on a teamless pipeline',
      { role: 'admin', teamAccessLevels: [], pipelineHasTeams: false },
      'admin',
    ],
    [
      'a member through one read-only team',
      { role: 'member', teamAccessLevels: ['read_only'], pipelineHasTeams: true },
      'read_only',
    ],
    [
      'a member through teams of different levels',
      {
        role: 'member',
        teamAccessLevels: ['read_only', 'manage_build_and_read', 'build_and_read'],
        pipelineHasTeams: true,
      },
      'manage_build_and_read',
    ],
    [
      'a member through a build-and-read team',
      { role: 'member', teamAccessLevels: ['build_and_read', 'read_only'], pipelineHasTeams: true },
      'build_and_read',
    ],
    [
      'a member outside every team of the pipeline',
      { role: 'member', teamAccessLevels: [], pipelineHasTeams: true },
      'none',
    ],
    [
      'a member on a pipeline of no team',
      { role: 'member', teamAccessLevels: [], pipelineHasTeams: false },
      'build_and_read',
    ],
  ])('gives %s the access %s', (_who, input, expected) => {
    expect(pipelineAccess(input)).toBe(expected);
  });

  it('never gives a member more than their best team level', () => {
    for (const level of ACCESS_LEVELS) {
      expect(pipelineAccess({ role: 'member', teamAccessLevels: [level], pipelineHasTeams: true })).toBe(
        level,
      );
    }
  });

  it('gives admins full access whatever their teams', () => {
    for (const levels of [[], ['read_only'], [...ACCESS_LEVELS]] as AccessLevel[][]) {
      for (const pipelineHasTeams of [true, false]) {
        expect(pipelineAccess({ role: 'admin', teamAccessLevels: levels, pipelineHasTeams })).toBe('admin');
      }
    }
  });
});

describe('allows', () => {
  const table: Record<PipelineAccess, Record<PipelineAction, boolean>> = {
    none: { read: false, build: false, manage: false },
    read_only: { read: true, build: false, manage: false },
    build_and_read: { read: true, build: true, manage: false },
    manage_build_and_read: { read: true, build: true, manage: true },
    admin: { read: true, build: true, manage: true },
  };
  const rows = Object.entries(table).flatMap(([access, actions]) =>
    PIPELINE_ACTIONS.map((action) => [access as PipelineAccess, action, actions[action]] as const),
  );

  it('covers every access and action', () => {
    expect(rows).toHaveLength(5 * PIPELINE_ACTIONS.length);
  });

  it.each(rows)('lets %s %s: %s', (access, action, expected) => {
    expect(allows(access, action)).toBe(expected);
  });
});

describe('canSeeWebhookUrl', () => {
  it.each<[PipelineAccess, boolean]>([
    ['admin', true],
    ['manage_build_and_read', true],
    ['build_and_read', false],
    ['read_only', false],
    ['none', false],
  ])('shows the webhook URL to %s: %s (rule B2)', (access, expected) => {
    expect(canSeeWebhookUrl(access)).toBe(expected);
  });
});

describe('highestAccessLevel', () => {
  it.each<[AccessLevel[], AccessLevel | null]>([
    [[], null],
    [['read_only'], 'read_only'],
    [['read_only', 'build_and_read'], 'build_and_read'],
    [['manage_build_and_read', 'read_only'], 'manage_build_and_read'],
    [['build_and_read', 'build_and_read'], 'build_and_read'],
  ])('picks the highest of %j: %s', (levels, expected) => {
    expect(highestAccessLevel(levels)).toBe(expected);
  });
});

describe('isAccessLevel', () => {
  it.each([
    ['read_only', true],
    ['build_and_read', true],
    ['manage_build_and_read', true],
    ['admin', false],
    ['none', false],
    ['READ_ONLY', false],
  ])('says %j is an access level: %s', (s, expected) => {
    expect(isAccessLevel(s)).toBe(expected);
  });
});
