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

/**
 * A window of one parent's list (a pipeline's builds, a team's members), when lists are read in batches,
 * and whether the list's total is wanted too: counting a long list costs more than reading its window,
 * so it is counted only when asked (GraphQL's `count`, or `last` counting from the end).
 */
export interface PartRequest {
  parentId: string;
  window: RowWindow;
  withTotal: boolean;
}

/**
 * One parent's part of a batched list: its window of items and the list's total (null when not asked),
 * or why it is refused.
 */
export type ListPart<T> = { items: T[]; totalCount: number | null } | DomainError;

/**
 * The parts of a batched list, in the order asked: each parent's items (from one read of them all) and
 * total when asked (a parent without a count has none), or its refusal.
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
    ({ parentId, withTotal }) =>
      input.refusals.get(parentId) ?? {
        items: byParent.get(parentId) ?? [],
        totalCount: withTotal ? (totals.get(parentId) ?? 0) : null,
      },
  );
}

/**
 * The totals of the parents whose requests ask for one and are not refused, by `count` (one read of
 * them all); no read when none asks.
 */
export async function totalsOf(
  requests: readonly PartRequest[],
  refusals: ReadonlyMap<string, unknown>,
  count: (parentIds: string[]) => Promise<Array<{ parentId: string; count: number }>>,
): Promise<Array<{ parentId: string; count: number }>> {
  const parentIds = requests
    .filter(({ parentId, withTotal }) => withTotal && !refusals.has(parentId))
    .map(({ parentId }) => parentId);
  return parentIds.length ? count(parentIds) : [];
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

/**
 * The parts of a batched list, read for the parents that are not refused: `list` reads every window at
 * once, `count` the totals asked for (both together, no count when none is asked); see `partsOf`.
 */
export async function readParts<T>(input: {
  requests: readonly PartRequest[];
  refusals: ReadonlyMap<string, DomainError>;
  list: (windows: Array<{ parentId: string; offset: number; limit: number }>) => Promise<readonly T[]>;
  count: (parentIds: string[]) => Promise<Array<{ parentId: string; count: number }>>;
  parentOf: (item: T) => string;
}): Promise<ListPart<T>[]> {
  const { requests, refusals } = input;
  const [items, counts] = await Promise.all([
    input.list(windowsOf(requests, refusals)),
    totalsOf(requests, refusals, input.count),
  ]);
  return partsOf({ requests, refusals, items, parentOf: input.parentOf, counts });
}
