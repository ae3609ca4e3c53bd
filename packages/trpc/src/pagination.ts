import type { Page } from '@ci/application';
import type { TrpcContext } from './trpc';

/**
 * Pagination of every list endpoint (decisions.md, "Lists and pagination"): `page` and `per_page` in
 * (parameters.ts), a `Link` header out.
 */

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

/** The page a list's parsed input asks for (`page` and `per_page` of parameters.ts). */
export const pageOf = (input: { page: number; per_page: number }): Page => ({
  page: input.page,
  perPage: input.per_page,
});

/** A list call on either transport: `fetch` answers the page the input asks for; REST advertises the others. */
export async function listPage<T extends { totalCount: number | null }>(
  ctx: Pick<TrpcContext, 'rest' | 'response' | 'urls'>,
  input: { page: number; per_page: number },
  fetch: (page: Page) => Promise<T>,
): Promise<T> {
  const page = pageOf(input);
  const result = await fetch(page);
  advertisePages(ctx, page, result.totalCount);
  return result;
}
