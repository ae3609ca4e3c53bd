import { expect } from 'vitest';
import { JSON_TYPE, type Reply } from './answers';

/** Stack frames, SQL, file paths and dependency names: nothing of the inside reaches a client. */
const LEAKS: readonly RegExp[] = [
  /\bat (?:\S+ \()?(?:file:\/\/|\/|node:)\S*:\d+:\d+/,
  /node_modules/,
  /\bselect\b/i,
  /\binsert into\b/i,
  /syntax error/i,
  /\.ts:\d+/,
  /(?:\/[\w.-]+){2,}\.(?:ts|js|mjs|cjs)\b/,
  /\/(?:work|home|usr|tmp|src)\//,
];

/** `extra`: what else a file knows must stay inside (its table names, say). */
export function expectNothingLeaks(text: string, extra: readonly RegExp[] = []) {
  for (const leak of [...LEAKS, ...extra]) expect(text).not.toMatch(leak);
}

/** A refusal as every client must get it: a 4xx, JSON, a `{message}`, nothing of the inside. */
export function expectSafeRefusal(response: Reply, extra: readonly RegExp[] = []) {
  expect(response.status, response.text).toBeGreaterThanOrEqual(400);
  expect(response.status, response.text).toBeLessThan(500);
  expect(response.headers.get('content-type')).toBe(JSON_TYPE);
  expect(typeof response.body?.message, response.text).toBe('string');
  expectNothingLeaks(response.text, extra);
}
