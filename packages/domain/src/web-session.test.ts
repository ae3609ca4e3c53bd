import { describe, expect, it } from 'vitest';
import { isWebSessionUsable, WEB_SESSION_LIFETIME_MS } from './web-session';

describe('a web session', () => {
  const now = new Date('2026-11-27T10:00:00Z');

  it('works before it expires', () => {
    expect(isWebSessionUsable({ expiresAt: new Date(now.getTime() + 1) }, now)).toBe(true);
  });

  it('ends at the moment it expires', () => {
    expect(isWebSessionUsable({ expiresAt: now }, now)).toBe(false);
    expect(isWebSessionUsable({ expiresAt: new Date(now.getTime() - 1) }, now)).toBe(false);
  });

  it('lasts longer than a working day', () => {
    expect(WEB_SESSION_LIFETIME_MS).toBeGreaterThan(8 * 60 * 60 * 1000);
  });
});
