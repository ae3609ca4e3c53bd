import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'vitest';
import type { jsonCaller } from './http';
import { API_URL } from './world';

/** What the suites check answers against: the reference examples, the shared messages and shapes. */

export type Reply = Awaited<ReturnType<ReturnType<typeof jsonCaller>>>;
type Json = Record<string, unknown>;

export const JSON_TYPE = 'application/json; charset=utf-8';
export const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** A well-formed UUID nothing in a test world has. */
export const UNKNOWN_UUID = '0190f3a0-dead-7abc-8def-0123456789ab';
/** A token of the right shape that was never issued. */
export const UNKNOWN_TOKEN = `bkua_${'0'.repeat(40)}`;
export const AUTHENTICATION_REQUIRED =
  'Authentication required. Please supply a valid API Access Token: https://buildkite.com/docs/apis/rest-api#authentication';

const EXAMPLES = resolve(import.meta.dirname, '../fixtures/reference');

/** A reference example (the first item of a list example), read from the repository's verbatim copies. */
export function example(file: string): Json {
  const body: unknown = JSON.parse(readFileSync(`${EXAMPLES}/${file}`, 'utf8'));
  return (Array.isArray(body) ? body[0] : body) as Json;
}

/** The keys of a reference example, in their order. */
export const exampleKeys = (file: string) => Object.keys(example(file));

/** A JSON `{message}` and nothing else, with this status. */
export function expectMessage(response: Reply, status: number, message: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.body).toEqual({ message });
  expect(response.headers.get('content-type')).toBe(JSON_TYPE);
}

/** 204: no body and no content type. */
export function expectNoContent(response: Reply) {
  expect(response.status, response.text).toBe(204);
  expect(response.text).toBe('');
  expect(response.headers.get('content-type')).toBeNull();
}

/** The scope headers every answer carries: the one the operation accepts ('' for none), and the token's. */
export function expectScopeHeaders(
  response: Pick<Reply, 'headers'>,
  accepted: string | null,
  tokenScopes: readonly string[],
) {
  expect(response.headers.get('x-accepted-oauth-scopes')).toBe(accepted ?? '');
  expect(response.headers.get('x-oauth-scopes')).toBe(tokenScopes.join(', '));
}

/** A `Link` header as `{rel: url}`; `{}` when there is none. */
export function linksOf(header: string | null): Record<string, string> {
  return Object.fromEntries(
    (header ?? '')
      .split(', ')
      .filter(Boolean)
      .map((part) => {
        const [, url, rel] = /^<([^>]+)>; rel="(\w+)"$/.exec(part) ?? [];
        return [rel, url];
      }),
  );
}

/** The URL of the answer's Link header for `rel`, or undefined. */
export function link(response: Pick<Reply, 'headers'>, rel: string): string | undefined {
  return linksOf(response.headers.get('link'))[rel];
}

/**
 * Follows `Link: rel="next"` from `path` to the end (the links carry the public API URL; `get` asks the
 * test server): every page's answer, each checked for a 200, with all the items in order and each page's
 * rels in the header's order.
 */
export async function walkPages(get: (path: string) => Promise<Reply>, path: string) {
  const pages: Reply[] = [];
  const items: unknown[] = [];
  const rels: string[][] = [];
  let next: string | undefined = path;
  while (next) {
    const response = await get(next);
    expect(response.status, response.text).toBe(200);
    pages.push(response);
    items.push(...response.body);
    const links = linksOf(response.headers.get('link'));
    rels.push(Object.keys(links));
    next = links.next?.replace(API_URL, '');
    if (pages.length > 20) throw new Error(`more than 20 pages from ${path}`);
  }
  return { pages, items, rels };
}
