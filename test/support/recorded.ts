import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Responses recorded from the public service (copies of ../shared/reference/recorded, kept in the
 * repository so that tests are hermetic; INDEX.md there lists the requests).
 */
const RECORDED = resolve(import.meta.dirname, '../fixtures/recorded');

export interface Recorded {
  request: { method: string; path: string; body: unknown };
  response: { status: number; body: unknown };
}

export function recorded(name: string): Recorded {
  return JSON.parse(readFileSync(`${RECORDED}/${name}.json`, 'utf8')) as Recorded;
}

type Json = null | string | number | boolean | Json[] | { [key: string]: Json };

const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** `{}`, `[]` and `""`: what a client tells apart from null. */
const isEmpty = (value: unknown) =>
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (kind(value) === 'object' && Object.keys(value as object).length === 0);

/** Keys whose objects are maps of free keys (environment, meta-data): compared as objects, not by key. */
const MAPS = new Set(['env', 'meta_data']);

/** The recorded item an item of ours is compared with: of the same `type` where items have one. */
function counterpart(item: unknown, theirs: unknown[]): unknown {
  const type = (value: unknown) =>
    kind(value) === 'object' ? (value as { type?: unknown }).type : undefined;
  if (type(theirs[0]) === undefined) return theirs[0];
  return theirs.find((candidate) => type(candidate) === type(item));
}

/**
 * Where `ours` would not decode as `theirs` does, as a typed client generated from the recorded response
 * decodes it: every key of theirs present in ours (ours may have more), the same JSON type, and the same
 * choice between null and an empty value (`{}`, `[]`, `""`). A value that depends on the scenario may be
 * null in one and a value in the other (a build finished or not); an array's items are each compared
 * with a recorded item (of the same `type` when items have one; none of that type: not compared).
 * `allow` lists paths whose difference is a deliberate choice (docs/compatibility.md), not compared.
 */
export function shapeDifferences(
  ours: unknown,
  theirs: unknown,
  options: { path?: string; allow?: readonly string[] } = {},
): string[] {
  const path = options.path ?? '$';
  if (options.allow?.includes(path.replace(/\[\d+\]/g, '[]'))) return [];
  const at = (key: string | number) => ({
    ...options,
    path: `${path}${typeof key === 'number' ? `[${key}]` : `.${key}`}`,
  });
  if (theirs === null) {
    return ours !== null && isEmpty(ours)
      ? [`${path}: ${JSON.stringify(ours)} where the service answers null`]
      : [];
  }
  if (ours === null) {
    return isEmpty(theirs) ? [`${path}: null where the service answers ${JSON.stringify(theirs)}`] : [];
  }
  if (kind(ours) !== kind(theirs))
    return [`${path}: ${kind(ours)} where the service answers ${kind(theirs)}`];
  if (Array.isArray(theirs)) {
    if (theirs.length === 0) return [];
    return (ours as Json[]).flatMap((item, index) => {
      const recordedItem = counterpart(item, theirs);
      return recordedItem === undefined ? [] : shapeDifferences(item, recordedItem, at(index));
    });
  }
  if (kind(theirs) === 'object') {
    if (MAPS.has(path.slice(path.lastIndexOf('.') + 1))) return [];
    const mine = ours as Record<string, unknown>;
    return Object.entries(theirs as Record<string, unknown>).flatMap(([key, value]) =>
      key in mine ? shapeDifferences(mine[key], value, at(key)) : [`${path}.${key}: missing`],
    );
  }
  return [];
}
