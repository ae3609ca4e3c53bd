import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Same recognisable prefix as the public API's user tokens, so secret scanners and clients know it. */
export const ACCESS_TOKEN_PREFIX = 'bkua_';
const TOKEN_PATTERN = /^bkua_[0-9a-f]{40}$/;

export function generateAccessTokenSecret(): string {
  return `${ACCESS_TOKEN_PREFIX}${randomBytes(20).toString('hex')}`;
}

/** How every secret we keep is stored (tokens, sessions, trigger URLs): its SHA-256, in hex. */
export function sha256Hex(text: string): string {
  // One call, no Hash object: a third of `createHash(…).update(…).digest(…)`'s time on every request.
  return hash('sha256', text, 'hex');
}

export const hashAccessTokenSecret = sha256Hex;

/** Cheap shape check so that garbage never reaches the database. */
export function looksLikeAccessToken(secret: string): boolean {
  return TOKEN_PATTERN.test(secret);
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Two secrets compared in constant time; their hashes first, so nothing about either length leaks. */
export function sameSecret(a: string, b: string): boolean {
  return sameHash(sha256Hex(a), sha256Hex(b));
}
