import type { DomainError } from '@ci/domain';

/** A page of a list, as clients ask for it: `page` from 1, `per_page` items. */
export interface Page {
  page: number;
  perPage: number;
}

/** A slice of a list by position, as cursor-paginated clients (GraphQL connections) ask for it. */
export interface RowWindow {
  offset: number;
  limit: number;
}

/** The rows a page covers, as a repository reads them. */
export function pageWindow(page: Page | RowWindow): { offset: number; limit: number } {
  if ('offset' in page) return { offset: page.offset, limit: page.limit };
  return { offset: (page.page - 1) * page.perPage, limit: page.perPage };
}

/** A window of one parent's list (a pipeline's builds, a team's members), when lists are read in batches. */
export interface PartRequest {
  parentId: string;
  window: RowWindow;
}

/** One parent's part of a batched list: its window of items and the list's total, or why it is refused. */
export type ListPart<T> = { items: T[]; totalCount: number } | DomainError;

/**
 * The parts of a batched list, in the order asked: each parent's items (from one read of them all) and
 * total, or its refusal. Parents without a count have no items.
 */
export function partsOf<T>(input: {
  requests: readonly PartRequest[];
  refusals: ReadonlyMap<string, DomainError>;
  items: readonly T[];
  parentOf: (item: T) => string;
  counts: readonly { parentId: string; count: number }[];
}): ListPart<T>[] {
  const byParent = new Map<string, T[]>();
  for (const item of input.items) {
    const parentId = input.parentOf(item);
    const list = byParent.get(parentId);
    if (list) list.push(item);
    else byParent.set(parentId, [item]);
  }
  const totals = new Map(input.counts.map((count) => [count.parentId, count.count]));
  return input.requests.map(
    ({ parentId }) =>
      input.refusals.get(parentId) ?? {
        items: byParent.get(parentId) ?? [],
        totalCount: totals.get(parentId) ?? 0,
      },
  );
}

/** The repository windows of the parents that are not refused. */
export function windowsOf(
  requests: readonly PartRequest[],
  refusals: ReadonlyMap<string, unknown>,
): Array<{ parentId: string; offset: number; limit: number }> {
  return requests
    .filter(({ parentId }) => !refusals.has(parentId))
    .map(({ parentId, window }) => ({ parentId, offset: window.offset, limit: window.limit }));
}
