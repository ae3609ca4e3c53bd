import type { Page } from '@ci/application';
import { badRequest } from '@ci/domain';
import { queryParameters } from './request-query';
import type { TrpcContext } from './trpc';

/**
 * Pagination of every list endpoint (decisions.md, "Lists and pagination"): `page` and `per_page` in,
 * a `Link` header out.
 */

const PAGE_SIZE = { default: 30, max: 100 } as const;

/** Query values by parameter name, `name[]=` and `name[0]=` read as `name=`. */
export function queryValues(query: URLSearchParams): Map<string, string[]> {
  const values = new Map<string, string[]>();
  for (const [rawKey, value] of query) {
    const key = rawKey.replace(/\[\d*\]$/, '');
    const list = values.get(key);
    if (list) list.push(value);
    else values.set(key, [value]);
  }
  return values;
}

function integer(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined || text === '' || text === '0') return fallback;
  if (!/^\d{1,9}$/.test(text)) throw badRequest('invalid_parameter', `${name} must be a positive integer`);
  return Number(text) || fallback;
}

/** `page` from 1 (0, empty or absent: 1), `per_page` 30 by default and at most 100; else a 400. */
export function parsePage(values: Map<string, string[]>): Page {
  const page = integer('page', values.get('page')?.[0], 1);
  const perPage = Math.min(
    integer('per_page', values.get('per_page')?.[0], PAGE_SIZE.default),
    PAGE_SIZE.max,
  );
  return { page, perPage };
}

/**
 * The `Link` header: absolute URLs keeping every original parameter, `page` before `per_page`; `first`
 * and `prev` after page 1, `next` and `last` before the last page; none when everything fits one page.
 * A `totalCount` of null (a list counted only so far, docs/compatibility.md) means more items after this
 * page, how many unknown: `next` without `last`. `url` is the request's public URL, parsed only when
 * there are links to write.
 */
export function linkHeader(input: { url: string; page: Page; totalCount: number | null }): string | null {
  const { page, perPage } = input.page;
  const lastPage = input.totalCount === null ? null : Math.max(1, Math.ceil(input.totalCount / perPage));
  const targets: Array<[number, string]> = [];
  if (page > 1) targets.push([1, 'first'], [page - 1, 'prev']);
  if (lastPage === null) targets.push([page + 1, 'next']);
  else if (page < lastPage) targets.push([page + 1, 'next'], [lastPage, 'last']);
  if (targets.length === 0) return null;
  const url = new URL(input.url);
  const params = new URLSearchParams();
  for (const [key, value] of url.searchParams)
    if (key !== 'page' && key !== 'per_page') params.append(key, value);
  const rest = params.toString();
  const base = `${url.origin}${url.pathname}?${rest ? `${rest}&` : ''}`;
  return targets
    .map(([target, rel]) => `<${base}page=${target}&per_page=${perPage}>; rel="${rel}"`)
    .join(', ');
}

/** Sets the `Link` header of a REST list answer (tRPC callers page by number instead). */
export function advertisePages(
  ctx: Pick<TrpcContext, 'rest' | 'response' | 'urls'>,
  page: Page,
  totalCount: number | null,
): void {
  if (!ctx.rest) return;
  const link = linkHeader({ url: `${ctx.urls.api}${ctx.rest.target}`, page, totalCount });
  if (link) ctx.response.headers.Link = link;
}

/**
 * A list call on either transport: reads the page it asks for, has `fetch` answer that page (with the
 * call's query parameters, for its filters), and on REST advertises the other pages.
 */
export async function listPage<T extends { totalCount: number | null }>(
  ctx: Pick<TrpcContext, 'rest' | 'response' | 'urls'>,
  input: Record<string, unknown>,
  pathKeys: readonly string[],
  fetch: (page: Page, query: URLSearchParams) => Promise<T>,
): Promise<T> {
  const query = queryParameters(ctx, input, pathKeys);
  const page = parsePage(queryValues(query));
  const result = await fetch(page, query);
  advertisePages(ctx, page, result.totalCount);
  return result;
}
