import { describe, expect, it } from 'vitest';
import { BADGE_STATUSES, badgeStatus, badgeSvg } from './build-badge';
import { BUILD_STATES } from './build-state';

describe('badgeStatus', () => {
  it.each([
    ['passed', null, 'passing'],
    ['failed', null, 'failing'],
    ['failing', null, 'failing'],
    ['running', null, 'running'],
    ['canceling', null, 'running'],
    ['scheduled', null, 'scheduled'],
    ['canceled', null, 'canceled'],
    ['skipped', null, 'skipped'],
    ['not_run', null, 'skipped'],
    ['blocked', 'passed', 'blocked'],
    ['blocked', 'failed', 'blocked'],
  ] as const)('a %s build (blocked as %s) shows %s', (state, blockedState, status) => {
    expect(badgeStatus({ state, blockedState })).toBe(status);
  });

  it('shows unknown without a build, and a status for every state', () => {
    expect(badgeStatus(null)).toBe('unknown');
    for (const state of BUILD_STATES) {
      expect(Object.keys(BADGE_STATUSES)).toContain(badgeStatus({ state, blockedState: 'passed' }));
    }
  });
});

describe('badgeSvg', () => {
  it('draws the status in its colour, wider for longer words', () => {
    const passing = badgeSvg('passing');
    expect(passing).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(passing).toContain('>passing</text>');
    expect(passing).toContain(BADGE_STATUSES.passing);
    const width = (svg: string) => Number(/width="(\d+)"/.exec(svg)?.[1]);
    expect(width(badgeSvg('scheduled'))).toBeGreaterThan(width(badgeSvg('passing')));
  });
});
