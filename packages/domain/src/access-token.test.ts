import { describe, expect, it } from 'vitest';
import { isAccessTokenUsable } from './access-token';

const NOW = new Date('2026-11-21T10:04:05.123Z');
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

describe('isAccessTokenUsable', () => {
  it.each<[string, { revokedAt: Date | null; expiresAt: Date | null }, boolean]>([
    ['never expires, not revoked', { revokedAt: null, expiresAt: null }, true],
    ['expires later', { revokedAt: null, expiresAt: at(1) }, true],
    ['expires this very millisecond', { revokedAt: null, expiresAt: at(0) }, false],
    ['expired', { revokedAt: null, expiresAt: at(-1) }, false],
    ['revoked, never expires', { revokedAt: at(-1), expiresAt: null }, false],
    ['revoked, expires later', { revokedAt: at(-1), expiresAt: at(60_000) }, false],
    ['revoked "in the future" (clock skew between processes)', { revokedAt: at(1), expiresAt: null }, false],
  ])('a token that %s is usable: %s', (_case, token, usable) => {
    expect(isAccessTokenUsable(token, NOW)).toBe(usable);
  });
});
